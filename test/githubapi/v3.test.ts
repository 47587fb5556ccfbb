import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createRepo } from '../helpers/fixtures.ts';
import { pullFromNewBranch } from '../helpers/pull.ts';

const DOCS = 'https://docs.github.com/rest';

describe.each(PROVIDERS)("GitHub's REST v3 at /api/v3 (%s)", (provider) => {
  let t: TestApp;
  let allToken: string;
  let readRepoToken: string;
  let userToken: string;

  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice = await t.createUser('alice');
    const writer = await t.createUser('writer');
    const reader = await t.createUser('reader');
    await t.createUser('outsider');
    allToken = await t.createToken('alice', ['all']);
    readRepoToken = await t.createToken('writer', ['read:repository']);
    userToken = await t.createToken('alice', ['read:user']);
    const code = await createRepo(t, alice, 'code', { autoInit: true });
    const secret = await createRepo(t, alice, 'secret', { autoInit: true, private: true });
    await createRepo(t, alice, 'void');
    for (const repo of [code, secret]) {
      await addCollaborator(t, repo, writer, 'write');
      await addCollaborator(t, repo, reader, 'read');
    }
  });
  afterAll(async () => t?.close());

  const branches = async (repo: string): Promise<string[]> => {
    const res = await t.request('GET', `/api/v1/repos/alice/${repo}/branches`, { headers: basic('alice') });
    return (res.json() as Array<{ name: string }>).map((b) => b.name);
  };
  const branch = async (repo: string, name: string) => {
    const res = await t.request('POST', `/api/v1/repos/alice/${repo}/branches`, {
      headers: basic('alice'),
      body: { new_branch_name: name },
    });
    expect(res.statusCode).toBe(201);
  };

  describe('GET /api/v3/ (the token check gh makes)', () => {
    it('lists a token’s scopes in GitHub’s words', async () => {
      const res = await t.request('GET', '/api/v3/', { headers: tokenAuth(allToken) });
      expect(res.statusCode).toBe(200);
      const scopes = String(res.headers['x-oauth-scopes']).split(', ');
      expect(scopes).toEqual(expect.arrayContaining(['repo', 'read:org', 'user', 'notifications', 'write:packages']));
      expect(res.json()).toMatchObject({ graphql_url: `${t.config.rootUrl}api/graphql` });
    });
    it('lists only what a narrower token grants', async () => {
      const res = await t.request('GET', '/api/v3/', { headers: tokenAuth(userToken) });
      expect(res.headers['x-oauth-scopes']).toBe('read:user, user:email');
      const repoRead = await t.request('GET', '/api/v3/', { headers: tokenAuth(readRepoToken) });
      // GitHub has no read-only word for repositories: `repo` would promise writes.
      expect(repoRead.headers['x-oauth-scopes']).toBe('');
    });
    it('answers anonymous clients without scopes, and bad credentials with GitHub’s 401', async () => {
      const anon = await t.request('GET', '/api/v3/');
      expect(anon.statusCode).toBe(200);
      expect(anon.headers['x-oauth-scopes']).toBeUndefined();
      const bad = await t.request('GET', '/api/v3/', { headers: tokenAuth('0'.repeat(40)) });
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toEqual({ message: 'Bad credentials', documentation_url: DOCS });
    });
    it('answers what it does not serve with GitHub’s 404', async () => {
      const res = await t.request('GET', '/api/v3/repos/alice/code/pulls', { headers: tokenAuth(allToken) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not Found', documentation_url: DOCS });
    });
  });

  describe('GET /api/v3/repos/{o}/{r}/readme', () => {
    it('returns the README as GitHub’s content object', async () => {
      const res = await t.request('GET', '/api/v3/repos/alice/code/readme', { headers: tokenAuth(allToken) });
      expect(res.statusCode).toBe(200);
      const body = res.json() as Record<string, string>;
      expect(body).toMatchObject({ type: 'file', encoding: 'base64', name: 'README.md', path: 'README.md' });
      expect(Buffer.from(body.content ?? '', 'base64').toString()).toBe(await mainReadme());
      expect(body.sha).toMatch(/^[0-9a-f]{40}$/);
      // Its links are served.
      const raw = await t.request('GET', new URL(body.download_url ?? '').pathname + new URL(body.download_url ?? '').search, {
        headers: basic('alice'),
      });
      expect(raw.body).toBe(await mainReadme());
    });
    it('reads at ?ref= and prefers Markdown', async () => {
      await branch('code', 'docs');
      const write = async (method: 'POST' | 'PUT', path: string, text: string, sha?: string) => {
        const res = await t.request(method, `/api/v1/repos/alice/code/contents/${path}`, {
          headers: basic('alice'),
          body: { branch: 'docs', content: Buffer.from(text).toString('base64'), ...(sha ? { sha } : {}) },
        });
        expect(res.statusCode).toBe(method === 'POST' ? 201 : 200);
      };
      await write('POST', 'README', 'plain');
      await write('POST', 'readme.txt', 'text');
      await write('PUT', 'README.md', '# docs\n', await readmeSha());
      const res = await t.request('GET', '/api/v3/repos/alice/code/readme?ref=docs', { headers: tokenAuth(allToken) });
      const body = res.json() as Record<string, string>;
      expect(body.name).toBe('README.md');
      expect(Buffer.from(body.content ?? '', 'base64').toString()).toBe('# docs\n');
      const main = await t.request('GET', '/api/v3/repos/alice/code/readme', { headers: tokenAuth(allToken) });
      expect(Buffer.from((main.json() as { content: string }).content, 'base64').toString()).toBe(await mainReadme());
    });
    async function mainReadme(): Promise<string> {
      const res = await t.request('GET', '/api/v1/repos/alice/code/contents/README.md', { headers: basic('alice') });
      return Buffer.from((res.json() as { content: string }).content, 'base64').toString();
    }
    async function readmeSha(): Promise<string> {
      const res = await t.request('GET', '/api/v1/repos/alice/code/contents/README.md?ref=docs', { headers: basic('alice') });
      return (res.json() as { sha: string }).sha;
    }
    it('is 404 where there is none, and for a private repository to outsiders', async () => {
      const none = await t.request('GET', '/api/v3/repos/alice/void/readme', { headers: tokenAuth(allToken) });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ message: 'Not Found', documentation_url: DOCS });
      expect((await t.request('GET', '/api/v3/repos/alice/secret/readme', { headers: basic('outsider') })).statusCode).toBe(404);
      expect((await t.request('GET', '/api/v3/repos/alice/secret/readme')).statusCode).toBe(404);
      expect((await t.request('GET', '/api/v3/repos/alice/secret/readme', { headers: basic('reader') })).statusCode).toBe(200);
    });
    it('refuses a token without the repository scope before looking anything up', async () => {
      for (const repo of ['code', 'no-such-repo']) {
        const res = await t.request('GET', `/api/v3/repos/alice/${repo}/readme`, { headers: tokenAuth(userToken) });
        expect(res.statusCode).toBe(403);
        expect(res.headers['x-accepted-oauth-scopes']).toBe('repo');
      }
    });
  });

  describe('DELETE /api/v3/repos/{o}/{r}/git/refs/{ref} (gh pr merge --delete-branch)', () => {
    it('deletes a branch for a writer: 204, and it is gone', async () => {
      await branch('code', 'feature');
      const res = await t.request('DELETE', '/api/v3/repos/alice/code/git/refs/heads/feature', { headers: basic('writer') });
      expect(res.statusCode).toBe(204);
      expect(await branches('code')).not.toContain('feature');
    });
    it('answers 422 for a reference that is not there', async () => {
      const res = await t.request('DELETE', '/api/v3/repos/alice/code/git/refs/heads/nope', { headers: basic('writer') });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: 'Reference does not exist', documentation_url: DOCS });
      const odd = await t.request('DELETE', '/api/v3/repos/alice/code/git/refs/notes/x', { headers: basic('writer') });
      expect(odd.statusCode).toBe(422);
    });
    it('refuses readers (403), hides private repositories (404), keeps the default branch', async () => {
      await branch('secret', 'keep');
      expect((await t.request('DELETE', '/api/v3/repos/alice/secret/git/refs/heads/keep', { headers: basic('reader') })).statusCode).toBe(
        403,
      );
      expect((await t.request('DELETE', '/api/v3/repos/alice/secret/git/refs/heads/keep', { headers: basic('outsider') })).statusCode).toBe(
        404,
      );
      expect((await t.request('DELETE', '/api/v3/repos/alice/secret/git/refs/heads/keep')).statusCode).toBe(404);
      expect(await branches('secret')).toContain('keep');
      const main = await t.request('DELETE', '/api/v3/repos/alice/code/git/refs/heads/main', { headers: basic('alice') });
      expect(main.statusCode).toBe(403);
      expect(await branches('code')).toContain('main');
    });
    it('refuses a read-only token before looking anything up', async () => {
      await branch('code', 'kept');
      for (const path of ['alice/code/git/refs/heads/kept', 'alice/no-such-repo/git/refs/heads/x']) {
        const res = await t.request('DELETE', `/api/v3/repos/${path}`, { headers: tokenAuth(readRepoToken) });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: 'Resource not accessible by personal access token', documentation_url: DOCS });
      }
      expect(await branches('code')).toContain('kept');
    });
  });

  describe('GET /api/v3/repos/{o}/{r}/pulls/{n} as a diff (gh pr diff)', () => {
    let n = 0;
    beforeAll(async () => {
      n = await pullFromNewBranch(t, { owner: 'alice', name: 'secret' }, 'change', basic('alice'));
    });
    const get = (accept: string, headers: Record<string, string> = basic('reader'), number = n) =>
      t.request('GET', `/api/v3/repos/alice/secret/pulls/${number}`, { headers: { ...headers, accept } });

    it('streams the diff and the patch in GitHub’s media types', async () => {
      const diff = await get('application/vnd.github.v3.diff');
      expect(diff.statusCode).toBe(200);
      expect(diff.headers['content-type']).toMatch(/^application\/vnd\.github\.v3\.diff/);
      expect(diff.body).toContain('diff --git a/change.txt b/change.txt');
      expect(diff.body).toContain('+change');
      const patch = await get('application/vnd.github.patch');
      expect(patch.statusCode).toBe(200);
      expect(patch.body).toMatch(/^From [0-9a-f]{40} /);
      expect(patch.body).toContain('Subject: [PATCH] Add change');
    });
    it('answers 415 naming the media types it serves when asked for JSON', async () => {
      const res = await get('application/vnd.github+json');
      expect(res.statusCode).toBe(415);
      expect((res.json() as { message: string }).message).toMatch(/application\/vnd\.github\.v3\.diff/);
    });
    it('hides a private repository’s pull request (404) and answers 404 for one that is not there', async () => {
      expect((await get('application/vnd.github.v3.diff', basic('outsider'))).statusCode).toBe(404);
      expect((await get('application/vnd.github.v3.diff', {})).statusCode).toBe(404);
      expect((await get('application/vnd.github.v3.diff', basic('reader'), 999)).statusCode).toBe(404);
      const bad = await t.request('GET', '/api/v3/repos/alice/secret/pulls/x', {
        headers: { ...basic('reader'), accept: 'application/vnd.github.v3.diff' },
      });
      expect(bad.statusCode).toBe(404);
    });
  });

  describe('POST /api/v3/repos/{o}/{r}/forks (gh repo fork)', () => {
    it('forks into the caller’s account: 202 with GitHub’s repository object; again, the same fork', async () => {
      const first = await t.request('POST', '/api/v3/repos/alice/code/forks', { headers: basic('reader'), body: {} });
      expect(first.statusCode, first.body).toBe(202);
      const fork = first.json() as Record<string, unknown>;
      expect(fork).toMatchObject({
        name: 'code',
        full_name: 'reader/code',
        fork: true,
        private: false,
        owner: { login: 'reader', type: 'User' },
        parent: { full_name: 'alice/code' },
        clone_url: `${t.config.rootUrl}reader/code.git`,
      });
      expect(fork.node_id).toBe(Buffer.from(`Repository:${String(fork.id)}`).toString('base64'));
      const again = await t.request('POST', '/api/v3/repos/alice/code/forks', { headers: basic('reader') });
      expect(again.statusCode).toBe(202);
      expect((again.json() as { id: number }).id).toBe(fork.id);
    });
    it('hides private repositories (404), refuses read-only tokens (403) and default_branch_only (422)', async () => {
      expect((await t.request('POST', '/api/v3/repos/alice/secret/forks', { headers: basic('outsider') })).statusCode).toBe(404);
      const scoped = await t.request('POST', '/api/v3/repos/alice/code/forks', { headers: tokenAuth(readRepoToken) });
      expect(scoped.statusCode).toBe(403);
      const only = await t.request('POST', '/api/v3/repos/alice/code/forks', {
        headers: basic('outsider'),
        body: { default_branch_only: true },
      });
      expect(only.statusCode).toBe(422);
      expect((await t.request('GET', '/api/v1/repos/outsider/code', { headers: basic('outsider') })).statusCode).toBe(404);
    });
  });

  describe('release assets in GitHub’s form (gh release upload/download)', () => {
    let releaseId = 0;
    let draftId = 0;
    const upload = (id: number, query: string, headers: Record<string, string> = basic('writer'), payload = 'bytes') =>
      t.request('POST', `/api/v3/repos/alice/code/releases/${id}/assets${query}`, {
        headers: { ...headers, 'content-type': 'application/json' },
        payload,
      });
    beforeAll(async () => {
      for (const [tag, draft] of [
        ['a1', false],
        ['a2', true],
      ] as const) {
        const res = await t.request('POST', '/api/v3/repos/alice/code/releases', {
          headers: basic('alice'),
          body: { tag_name: tag, draft },
        });
        expect(res.statusCode, res.body).toBe(201);
        if (draft) draftId = (res.json() as { id: number }).id;
        else releaseId = (res.json() as { id: number }).id;
      }
    });

    it('takes the raw body whatever its type, reads it back as JSON or as bytes, and deletes it', async () => {
      const res = await upload(releaseId, '?name=data.json', basic('writer'), '{"not":"parsed"');
      expect(res.statusCode, res.body).toBe(201);
      const asset = res.json() as { id: number; name: string; size: number; url: string };
      expect(asset).toMatchObject({ name: 'data.json', size: 15, state: 'uploaded' });
      const json = await t.request('GET', `/api/v3/repos/alice/code/releases/assets/${asset.id}`, { headers: basic('reader') });
      expect(json.json()).toMatchObject({ id: asset.id, name: 'data.json' });
      const bytes = await t.request('GET', `/api/v3/repos/alice/code/releases/assets/${asset.id}`, {
        headers: { ...basic('reader'), accept: 'application/octet-stream' },
      });
      expect(bytes.headers['content-type']).toBe('application/octet-stream');
      expect(bytes.body).toBe('{"not":"parsed"');
      expect(
        (await t.request('DELETE', `/api/v3/repos/alice/code/releases/assets/${asset.id}`, { headers: basic('reader') })).statusCode,
      ).toBe(403);
      // The asset is addressed through its own repository only.
      expect(
        (await t.request('DELETE', `/api/v3/repos/alice/secret/releases/assets/${asset.id}`, { headers: basic('alice') })).statusCode,
      ).toBe(404);
      expect(
        (await t.request('DELETE', `/api/v3/repos/alice/code/releases/assets/${asset.id}`, { headers: basic('writer') })).statusCode,
      ).toBe(204);
      expect((await t.request('GET', `/api/v3/repos/alice/code/releases/assets/${asset.id}`, { headers: basic('alice') })).statusCode).toBe(
        404,
      );
    });
    it('refuses a missing name and a label (422), readers (403), and hides a draft’s assets from readers (404)', async () => {
      expect((await upload(releaseId, '')).statusCode).toBe(422);
      const labelled = await upload(releaseId, '?name=x.bin&label=Linux');
      expect(labelled.statusCode).toBe(422);
      expect((labelled.json() as { message: string }).message).toMatch(/label/);
      expect((await upload(releaseId, '?name=x.bin', basic('reader'))).statusCode).toBe(403);
      const drafted = await upload(draftId, '?name=draft.bin');
      expect(drafted.statusCode, drafted.body).toBe(201);
      const id = (drafted.json() as { id: number }).id;
      expect((await t.request('GET', `/api/v3/repos/alice/code/releases/assets/${id}`, { headers: basic('reader') })).statusCode).toBe(404);
      expect((await t.request('GET', `/api/v3/repos/alice/code/releases/assets/${id}`, { headers: basic('writer') })).statusCode).toBe(200);
    });
    it('publishes a draft with PATCH', async () => {
      const res = await t.request('PATCH', `/api/v3/repos/alice/code/releases/${draftId}`, {
        headers: basic('writer'),
        body: { draft: false, name: 'Out' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: draftId, draft: false, name: 'Out', tag_name: 'a2' });
      expect(
        (await t.request('PATCH', `/api/v3/repos/alice/code/releases/${draftId}`, { headers: basic('reader'), body: { name: 'x' } }))
          .statusCode,
      ).toBe(403);
    });
  });

  describe('request bodies', () => {
    it('takes an empty body typed as JSON as none, and answers 400 for one that is not JSON', async () => {
      await branch('code', 'empty-body');
      const empty = await t.request('DELETE', '/api/v3/repos/alice/code/git/refs/heads/empty-body', {
        headers: { ...basic('writer'), 'content-type': 'application/json' },
        payload: '',
      });
      expect(empty.statusCode).toBe(204);
      const bad = await t.request('POST', '/api/v3/repos/alice/code/labels', {
        headers: { ...basic('alice'), 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'Problems parsing JSON', documentation_url: DOCS });
    });
  });

  describe('GraphQL with GitHub’s media types', () => {
    it('answers gh’s Accept header as JSON', async () => {
      const res = await t.request('POST', '/api/graphql', {
        headers: {
          ...tokenAuth(allToken),
          accept: 'application/vnd.github.merge-info-preview+json, application/vnd.github.nebula-preview',
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ query: '{ viewer { login } }' }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ data: { viewer: { login: 'alice' } } });
    });
  });
});
