// POST /repos/{o}/{r}/diffpatch on both databases: a `git diff` applied to the default branch or onto a new
// branch as one commit (default message, signoff, author), the file changed in git, 422 for a patch that does
// not apply, and the contents API's gates (token, code write, protected files, private repositories).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

const PATCH = `diff --git a/notes.txt b/notes.txt
index 0000000..1111111 100644
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
diff --git a/added.txt b/added.txt
new file mode 100644
--- /dev/null
+++ b/added.txt
@@ -0,0 +1 @@
+fresh
`;

describe.each(PROVIDERS)('REST diffpatch (%s)', (provider) => {
  let t: TestApp;
  let repo: Models.Repository;
  const api = '/api/v1/repos/alice/code';
  const raw = async (path: string, ref = 'main') => {
    const res = await t.request('GET', `${api}/contents/${path}?ref=${ref}`, { headers: basic('alice') });
    return res.statusCode === 200 ? Buffer.from((res.json() as { content: string }).content, 'base64').toString('utf8') : null;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'outsider']) await t.createUser(n);
    const res = await t.request('POST', '/api/v1/user/repos', {
      headers: basic('alice'),
      body: { name: 'code', auto_init: true, default_branch: 'main' },
    });
    expect(res.statusCode, res.body).toBe(201);
    repo = await t.db.repository.findUniqueOrThrow({ where: { id: (res.json() as { id: number }).id } });
    const file = await t.request('POST', `${api}/contents/notes.txt`, {
      headers: basic('alice'),
      body: { content: Buffer.from('one\ntwo\nthree\n').toString('base64') },
    });
    expect(file.statusCode, file.body).toBe(201);
    await addCollaborator(t, repo, { name: 'reader' }, 'read');
  });
  afterAll(async () => {
    await t.close();
  });

  it('applies the diff on a new branch, then on the default branch, as one commit each', async () => {
    const before = (await t.request('GET', `${api}/branches/main`)).json().commit.id as string;
    const side = await t.request('POST', `${api}/diffpatch`, {
      headers: basic('alice'),
      body: { content: PATCH, new_branch: 'patched', signoff: true, author: { name: 'Pat Ch', email: 'pat@example.com' } },
    });
    expect(side.statusCode, side.body).toBe(201);
    const commit = side.json().commit as {
      sha: string;
      message: string;
      parents: Array<{ sha: string }>;
      author: { name: string; email: string };
    };
    expect(commit.message).toBe('apply-patch\n\nSigned-off-by: Pat Ch <pat@example.com>\n');
    expect(commit.parents.map((p) => p.sha)).toEqual([before]);
    expect(commit.author).toMatchObject({ name: 'Pat Ch', email: 'pat@example.com' });
    expect(side.json().content).toBeNull();
    expect(await raw('notes.txt', 'patched')).toBe('one\nTWO\nthree\n');
    expect(await raw('added.txt', 'patched')).toBe('fresh\n');
    expect(await raw('notes.txt')).toBe('one\ntwo\nthree\n');

    const main = await t.request('POST', `${api}/diffpatch`, { headers: basic('alice'), body: { content: PATCH, message: 'Apply it' } });
    expect(main.statusCode, main.body).toBe(201);
    expect(main.json().commit.message).toBe('Apply it\n');
    expect((await t.request('GET', `${api}/branches/main`)).json().commit.id).toBe(main.json().commit.sha);
    expect(await raw('added.txt')).toBe('fresh\n');
  });

  it('422 for a patch that does not apply (or is empty), 404 for an unknown base branch', async () => {
    expectGiteaError(
      await t.request('POST', `${api}/diffpatch`, { headers: basic('alice'), body: { content: PATCH } }),
      422,
      /^patch does not apply: /,
    );
    // That patch creates added.txt where it already exists: git merges it three ways and writes the merged file
    // relative to its working directory. It must land in a scratch directory, never the server's.
    expect(existsSync(path.join(process.cwd(), 'added.txt'))).toBe(false);
    expectGiteaError(await t.request('POST', `${api}/diffpatch`, { headers: basic('alice'), body: { content: 'not a diff' } }), 422);
    expectGiteaError(await t.request('POST', `${api}/diffpatch`, { headers: basic('alice'), body: { content: '' } }), 422);
    expectGiteaError(await t.request('POST', `${api}/diffpatch`, { headers: basic('alice'), body: {} }), 422);
    expectGiteaError(
      await t.request('POST', `${api}/diffpatch`, { headers: basic('alice'), body: { content: PATCH, branch: 'nope' } }),
      404,
    );
  });

  it('protected files of a protected branch cannot be patched', async () => {
    const branch = await t.request('POST', `${api}/branches`, {
      headers: basic('alice'),
      body: { new_branch_name: 'guarded', old_ref_name: 'patched' },
    });
    expect(branch.statusCode, branch.body).toBe(201);
    const rule = await t.request('POST', `${api}/branch_protections`, {
      headers: basic('alice'),
      body: { rule_name: 'guarded', enable_push: true, protected_file_patterns: 'added.txt' },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const undo = `diff --git a/added.txt b/added.txt
--- a/added.txt
+++ b/added.txt
@@ -1 +1 @@
-fresh
+stale
`;
    expectGiteaError(
      await t.request('POST', `${api}/diffpatch`, { headers: basic('alice'), body: { content: undo, branch: 'guarded' } }),
      403,
      'path is protected and can not be changed [path: added.txt]',
    );
    expect(await raw('added.txt', 'guarded')).toBe('fresh\n');
  });

  it('needs a signed-in writer; private repositories are 404 to others', async () => {
    expect((await t.request('POST', `${api}/diffpatch`, { body: { content: PATCH } })).statusCode).toBe(401);
    expectGiteaError(await t.request('POST', `${api}/diffpatch`, { headers: basic('reader'), body: { content: PATCH } }), 403);
    await t.request('PATCH', api, { headers: basic('alice'), body: { private: true } });
    expectGiteaError(await t.request('POST', `${api}/diffpatch`, { headers: basic('outsider'), body: { content: PATCH } }), 404);
  });
});
