import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createRepoFixture, GitClient } from '../../githttp/gitClient.ts';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

interface FileResp {
  content: {
    name: string;
    path: string;
    sha: string;
    type: string;
    size: number;
    content: string | null;
    last_commit_sha: string;
    download_url: string;
    html_url: string;
  } | null;
  commit: {
    sha: string;
    url: string;
    html_url: string;
    message: string;
    author: { name: string; email: string; date: string };
    committer: { name: string; email: string; date: string };
    parents: Array<{ sha: string; url: string }>;
    tree: { sha: string; url: string };
  };
  verification: { verified: boolean; reason: string };
}

describe.each(PROVIDERS)('REST contents writes and branches (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let alice: Models.User;
  let token: string;
  const api = '/api/v1/repos/alice';
  const auth = () => basic('alice');

  beforeAll(async () => {
    t = await startTestApp(provider);
    git = new GitClient();
    alice = await t.createUser('alice');
    const reader = await t.createUser('reader');
    await t.createUser('outsider');
    const code = await createRepoFixture(t, alice, 'code');
    await addCollaborator(t, code, reader, 'read');
    await createRepoFixture(t, alice, 'hidden', { isPrivate: true });
    token = await t.createToken('alice', ['write:repository']);
  });
  afterAll(async () => {
    git.dispose();
    await t.close();
  });

  const create = (file: string, body: Record<string, unknown>, headers = auth(), repo = 'code') =>
    t.request('POST', `${api}/${repo}/contents/${file}`, { headers, body });

  it('creates the first commit of an empty repository (201 FileResponse, Gitea message)', async () => {
    const res = await create('README.md', { content: b64('# hello\n') }, tokenAuth(token));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<FileResp>();
    expect(body.content).toMatchObject({ name: 'README.md', path: 'README.md', type: 'file', size: 8, content: b64('# hello\n') });
    expect(body.content?.last_commit_sha).toBe(body.commit.sha);
    expect(body.content?.download_url).toBe('http://localhost:3000/alice/code/raw/branch/main/README.md');
    expect(body.commit.message).toBe("Add 'README.md'\n");
    expect(body.commit.parents).toEqual([]);
    expect(body.commit.url).toBe(`http://localhost:3000/api/v1/repos/alice/code/git/commits/${body.commit.sha}`);
    expect(body.commit.html_url).toBe(`http://localhost:3000/alice/code/commit/${body.commit.sha}`);
    expect(body.commit.author).toMatchObject({ name: 'alice', email: 'alice@example.com' });
    expect(body.verification).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit' });
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'code' } });
    expect(repo.isEmpty).toBe(false);
    const branch = await t.db.branch.findFirst({ where: { repoId: repo.id, name: 'main' } });
    expect(branch?.commitId).toBe(body.commit.sha);
    expect(branch?.pusherId).toBe(alice.id);
  });

  it('honours author, committer, dates, signoff and message', async () => {
    const res = await create('docs/a/b.txt', {
      content: b64('b\n'),
      message: 'custom message',
      author: { name: 'Ann Author', email: 'ann@example.com' },
      committer: { name: 'Cid Committer', email: 'cid@example.com' },
      dates: { author: '2020-01-02T03:04:05Z', committer: '2021-02-03T04:05:06Z' },
      signoff: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json<FileResp>().commit;
    expect(c.author).toEqual({ name: 'Ann Author', email: 'ann@example.com', date: '2020-01-02T03:04:05Z' });
    expect(c.committer).toEqual({ name: 'Cid Committer', email: 'cid@example.com', date: '2021-02-03T04:05:06Z' });
    expect(c.message).toBe('custom message\n\nSigned-off-by: Cid Committer <cid@example.com>\n');
    expect(c.parents).toHaveLength(1);
  });

  it('refuses an existing file, a file under a file and a path that is a directory (422)', async () => {
    expectGiteaError(await create('README.md', { content: b64('x') }), 422, 'repository file already exists [path: README.md]');
    expectGiteaError(await create('README.md/x', { content: b64('x') }), 422, /a file exists where you’re trying to create a subdirectory/);
    expectGiteaError(await create('docs/a', { content: b64('x') }), 422, /a directory exists where you’re trying to create a file/);
    expectGiteaError(await create('.git/config', { content: b64('x') }), 422, /malformed path/);
    expectGiteaError(await create('bad.txt', { content: 'not base64!' }), 422);
    expectGiteaError(await create('x.txt', { content: b64('x'), branch: 'nope' }), 404, 'branch does not exist [name: nope]');
  });

  it('updates with the right sha (200), refuses a stale or missing one (422) and renames with from_path', async () => {
    const cur = (await t.request('GET', `${api}/code/contents/README.md`, { headers: auth() })).json<{ sha: string }>();
    const stale = await t.request('PUT', `${api}/code/contents/README.md`, {
      headers: auth(),
      body: { content: b64('v2'), sha: '1'.repeat(40) },
    });
    expectGiteaError(stale, 422, `sha does not match [given: ${'1'.repeat(40)}, expected: ${cur.sha}]`);
    const missing = await t.request('PUT', `${api}/code/contents/nothere.md`, {
      headers: auth(),
      body: { content: b64('v2'), sha: cur.sha },
    });
    expectGiteaError(missing, 404, 'repository file does not exist [path: nothere.md]');
    const ok = await t.request('PUT', `${api}/code/contents/README.md`, {
      headers: auth(),
      body: { content: b64('# v2\n'), sha: cur.sha },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<FileResp>().commit.message).toBe("Update 'README.md'\n");
    const moved = ok.json<FileResp>().content!;
    const renamed = await t.request('PUT', `${api}/code/contents/MOVED.md`, {
      headers: auth(),
      body: { content: b64('# moved\n'), sha: moved.sha, from_path: 'README.md' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await t.request('GET', `${api}/code/contents/README.md`, { headers: auth() })).statusCode).toBe(404);
    expect(renamed.json<FileResp>().content).toMatchObject({ path: 'MOVED.md', content: b64('# moved\n') });
  });

  it('deletes a file with its sha (200, content null)', async () => {
    const cur = (await t.request('GET', `${api}/code/contents/docs/a/b.txt`, { headers: auth() })).json<{ sha: string }>();
    const res = await t.request('DELETE', `${api}/code/contents/docs/a/b.txt`, { headers: auth(), body: { sha: cur.sha } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<FileResp>();
    expect(body.content).toBeNull();
    expect(body.commit.message).toBe("Delete 'docs/a/b.txt'\n");
  });

  it('changes several files in one commit (POST /contents) and on a new branch', async () => {
    const res = await t.request('POST', `${api}/code/contents`, {
      headers: auth(),
      body: {
        new_branch: 'feature/multi',
        files: [
          { operation: 'create', path: 'one.txt', content: b64('1') },
          { operation: 'create', path: 'dir/two.txt', content: b64('2') },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ files: Array<{ path: string } | null>; commit: { message: string } }>();
    expect(body.files.map((f) => f?.path)).toEqual(['one.txt', 'dir/two.txt']);
    expect(body.commit.message).toBe("Add 'one.txt, dir/two.txt'\n");
    const again = await t.request('POST', `${api}/code/contents`, {
      headers: auth(),
      body: { new_branch: 'feature/multi', files: [{ operation: 'create', path: 'three.txt', content: b64('3') }] },
    });
    expectGiteaError(again, 422, 'branch already exists [name: feature/multi]');
    const branches = await t.request('GET', `${api}/code/branches/feature/multi`, { headers: auth() });
    expect(branches.statusCode).toBe(200);
  });

  it('writes bytes that a real git clone reads back identically', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 13, 10, 0x80]);
    const res = await create('bin/data.bin', { content: b64(bytes) });
    expect(res.statusCode, res.body).toBe(201);
    const work = git.dir('clone-check');
    await git.ok(['clone', '-q', repoPath(t.config.repositoriesDir, 'alice', 'code'), work]);
    expect(readFileSync(path.join(work, 'bin/data.bin')).equals(bytes)).toBe(true);
    expect(readFileSync(path.join(work, 'MOVED.md'), 'utf8')).toBe('# moved\n');
    await git.ok(['fsck', '--strict'], { cwd: work });
  });

  it('gates writes: 401 anonymous, 403 reader, 404 outsider on a private repo, 423 archived', async () => {
    expectGiteaError(await create('z.txt', { content: b64('z') }, {}), 401);
    expectGiteaError(await create('z.txt', { content: b64('z') }, basic('reader')), 403);
    expectGiteaError(await create('z.txt', { content: b64('z') }, basic('outsider'), 'hidden'), 404);
    const readOnly = await t.createToken('alice', ['read:repository']);
    expectGiteaError(await create('z.txt', { content: b64('z') }, tokenAuth(readOnly)), 403);
    await createRepoFixture(t, alice, 'frozen', { isArchived: true });
    expectGiteaError(await create('z.txt', { content: b64('z') }, auth(), 'frozen'), 423, 'repo is archived');
  });

  it('creates branches from a branch, a tag or a commit, and refuses duplicates (409) and missing starts (404)', async () => {
    const main = (await t.request('GET', `${api}/code/branches/main`, { headers: auth() })).json<{ commit: { id: string } }>().commit.id;
    const res = await t.request('POST', `${api}/code/branches`, { headers: auth(), body: { new_branch_name: 'dev' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ name: string; commit: { id: string } }>()).toMatchObject({ name: 'dev', commit: { id: main } });
    const fromCommit = await t.request('POST', `${api}/code/branches`, {
      headers: auth(),
      body: { new_branch_name: 'from-sha', old_ref_name: main.slice(0, 10) },
    });
    expect(fromCommit.statusCode, fromCommit.body).toBe(201);
    expectGiteaError(
      await t.request('POST', `${api}/code/branches`, { headers: auth(), body: { new_branch_name: 'dev' } }),
      409,
      'The branch already exists.',
    );
    expectGiteaError(
      await t.request('POST', `${api}/code/branches`, { headers: auth(), body: { new_branch_name: 'x', old_branch_name: 'nope' } }),
      404,
      'The old branch does not exist',
    );
    expectGiteaError(await t.request('POST', `${api}/code/branches`, { headers: basic('reader'), body: { new_branch_name: 'r' } }), 403);
    expectGiteaError(await t.request('POST', `${api}/code/branches`, { headers: auth(), body: {} }), 422);
  });

  it('deletes branches (204), not the default one (403), 404 for a missing one', async () => {
    expect((await t.request('DELETE', `${api}/code/branches/from-sha`, { headers: auth() })).statusCode).toBe(204);
    expect((await t.request('GET', `${api}/code/branches/from-sha`, { headers: auth() })).statusCode).toBe(404);
    expectGiteaError(await t.request('DELETE', `${api}/code/branches/main`, { headers: auth() }), 403, 'can not delete default branch');
    expectGiteaError(await t.request('DELETE', `${api}/code/branches/nope`, { headers: auth() }), 404);
    expectGiteaError(await t.request('DELETE', `${api}/code/branches/dev`, { headers: basic('reader') }), 403);
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'code' } });
    const row = await t.db.branch.findFirst({ where: { repoId: repo.id, name: 'from-sha' } });
    expect(row?.isDeleted).toBe(true);
  });
  it('renames branches (204): the default one needs admin, taken or missing names are 422', async () => {
    const rename = (from: string, name: string, headers = auth()) =>
      t.request('PATCH', `${api}/code/branches/${from}`, { headers, body: { name } });
    const before = (await t.request('GET', `${api}/code/branches/dev`, { headers: auth() })).json<{ commit: { id: string } }>().commit.id;
    expect((await rename('dev', 'dev-renamed')).statusCode).toBe(204);
    expect((await t.request('GET', `${api}/code/branches/dev`, { headers: auth() })).statusCode).toBe(404);
    expect(
      (await t.request('GET', `${api}/code/branches/dev-renamed`, { headers: auth() })).json<{ commit: { id: string } }>().commit.id,
    ).toBe(before);
    expectGiteaError(
      await rename('dev-renamed', 'main'),
      422,
      'Cannot rename a branch using the same name or rename to a branch that already exists.',
    );
    expectGiteaError(await rename('nope', 'other'), 422, "Branch doesn't exist.");
    expectGiteaError(await rename('dev-renamed', 'x', basic('reader')), 403);
    expect((await rename('main', 'trunk')).statusCode).toBe(204);
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'code' } });
    expect(repo.defaultBranch).toBe('trunk');
    const rows = await t.db.branch.findMany({ where: { repoId: repo.id, name: { in: ['main', 'trunk'] } }, orderBy: { name: 'asc' } });
    expect(rows.map((r) => [r.name, r.isDeleted])).toEqual([
      ['main', true],
      ['trunk', false],
    ]);
    const head = execFileSync('git', ['--git-dir', repoPath(t.config.repositoriesDir, 'alice', 'code'), 'symbolic-ref', 'HEAD'])
      .toString()
      .trim();
    expect(head).toBe('refs/heads/trunk');
  });
});
