import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { GitClient } from '../../githttp/gitClient.ts';

interface ApiTag {
  name: string;
  message: string;
  id: string;
  commit: { url: string; sha: string; created: string };
  zipball_url: string;
  tarball_url: string;
}

describe.each(PROVIDERS)('REST tags (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let alice: Models.User;
  let gitDir: string;
  let main: string;
  const api = '/api/v1/repos/alice/proj';

  beforeAll(async () => {
    t = await startTestApp(provider);
    git = new GitClient();
    alice = await t.createUser('alice');
    const reader = await t.createUser('reader');
    await t.createUser('outsider');
    const proj = await createRepo(t, alice, 'proj', { autoInit: true });
    await createRepo(t, alice, 'secret', { autoInit: true, private: true });
    await addCollaborator(t, proj, reader, 'read');
    gitDir = repoPath(t.config.repositoriesDir, 'alice', 'proj');
    main = (await git.ok(['rev-parse', 'refs/heads/main'], { cwd: gitDir })).trim();
  });
  afterAll(async () => {
    git.dispose();
    await t.close();
  });

  it('creates a lightweight tag (201), visible to git ls-remote and recorded as a push', async () => {
    const res = await t.request('POST', `${api}/tags`, { headers: basic('alice'), body: { tag_name: 'v1' } });
    expect(res.statusCode).toBe(201);
    const tag = res.json<ApiTag>();
    expect(Object.keys(tag)).toEqual(['name', 'message', 'id', 'commit', 'zipball_url', 'tarball_url']);
    expect(tag).toMatchObject({
      name: 'v1',
      id: main,
      commit: { sha: main, url: `http://localhost:3000/api/v1/repos/alice/proj/git/commits/${main}` },
      zipball_url: 'http://localhost:3000/alice/proj/archive/v1.zip',
      tarball_url: 'http://localhost:3000/alice/proj/archive/v1.tar.gz',
    });
    expect(tag.message).toMatch(/Initial commit/);
    expect(await git.ok(['ls-remote', '--tags', gitDir])).toContain(`${main}\trefs/tags/v1`);
    await t.app.deps.notifier.drain();
    const ops = await t.db.action.findMany({ where: { userId: alice.id, opType: 'PUSH_TAG' }, select: { refName: true } });
    expect(ops.map((o) => o.refName)).toContain('refs/tags/v1');
    // A bare tag is no release.
    expect((await t.request('GET', `${api}/releases`)).json<unknown[]>()).toEqual([]);
  });

  it('creates an annotated tag with the viewer as tagger, readable at /git/tags/{sha}', async () => {
    const res = await t.request('POST', `${api}/tags`, {
      headers: basic('alice'),
      body: { tag_name: 'v2', message: 'Release two\n', target: main },
    });
    expect(res.statusCode).toBe(201);
    const tag = res.json<ApiTag>();
    expect(tag.id).not.toBe(main);
    expect(tag.commit.sha).toBe(main);
    expect(tag.message).toBe('Release two\n');
    const obj = await t.request('GET', `${api}/git/tags/${tag.id}`);
    expect(obj.statusCode).toBe(200);
    expect(obj.json()).toMatchObject({
      tag: 'v2',
      sha: tag.id,
      url: `http://localhost:3000/api/v1/repos/alice/proj/git/tags/${tag.id}`,
      message: 'Release two\n',
      tagger: { name: 'alice', email: 'alice@example.com' },
      object: { type: 'commit', sha: main, url: `http://localhost:3000/api/v1/repos/alice/proj/git/commits/${main}` },
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
    });
    // A lightweight tag's commit is no tag object: 400, as Gitea.
    expectGiteaError(await t.request('GET', `${api}/git/tags/${main}`), 400);
    expectGiteaError(await t.request('GET', `${api}/git/tags/zzz`), 400);
  });

  it('lists tags newest first with X-Total-Count and paging; gets one by name (slashes allowed)', async () => {
    expect((await t.request('POST', `${api}/tags`, { headers: basic('alice'), body: { tag_name: 'release/v3' } })).statusCode).toBe(201);
    const list = await t.request('GET', `${api}/tags`);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('3');
    expect(
      list
        .json<ApiTag[]>()
        .map((x) => x.name)
        .sort(),
    ).toEqual(['release/v3', 'v1', 'v2']);
    expect((await t.request('GET', `${api}/tags?limit=2&page=2`)).json<ApiTag[]>()).toHaveLength(1);
    expect((await t.request('GET', `${api}/tags/release/v3`)).json<ApiTag>().name).toBe('release/v3');
    expectGiteaError(await t.request('GET', `${api}/tags/nope`), 404, "tag doesn't exist: nope");
  });

  it('answers 409 for an existing tag, 404 for an unknown target, 422 for an invalid name', async () => {
    expectGiteaError(await t.request('POST', `${api}/tags`, { headers: basic('alice'), body: { tag_name: 'v1' } }), 409);
    expectGiteaError(
      await t.request('POST', `${api}/tags`, { headers: basic('alice'), body: { tag_name: 'v9', target: 'nope' } }),
      404,
      /target not found/,
    );
    expectGiteaError(await t.request('POST', `${api}/tags`, { headers: basic('alice'), body: { tag_name: 'bad..name' } }), 422);
    expectGiteaError(await t.request('POST', `${api}/tags`, { headers: basic('reader'), body: { tag_name: 'v9' } }), 403);
    expectGiteaError(await t.request('POST', `${api}/tags`, { body: { tag_name: 'v9' } }), 401);
    expect((await t.request('GET', '/api/v1/repos/alice/secret/tags', { headers: basic('outsider') })).statusCode).toBe(404);
    expect((await t.request('GET', '/api/v1/repos/alice/secret/tags', { headers: basic('alice') })).statusCode).toBe(200);
  });

  it('refuses to delete a tag with a release (409), deletes a bare tag (204) and records the deletion', async () => {
    expect((await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v1' } })).statusCode).toBe(201);
    expectGiteaError(
      await t.request('DELETE', `${api}/tags/v1`, { headers: basic('alice') }),
      409,
      'a tag attached to a release cannot be deleted directly',
    );
    expect((await t.request('DELETE', `${api}/tags/release/v3`, { headers: basic('reader') })).statusCode).toBe(403);
    expect((await t.request('DELETE', `${api}/tags/release/v3`, { headers: basic('alice') })).statusCode).toBe(204);
    expect(await git.ok(['ls-remote', '--tags', gitDir])).not.toContain('release/v3');
    expect((await t.request('DELETE', `${api}/tags/release/v3`, { headers: basic('alice') })).statusCode).toBe(404);
    await t.app.deps.notifier.drain();
    const ops = await t.db.action.findMany({ where: { userId: alice.id, opType: 'DELETE_TAG' }, select: { refName: true } });
    expect(ops.map((o) => o.refName)).toContain('refs/tags/release/v3');
    // A tag pushed by git (no row) can be deleted too.
    await git.ok(['tag', 'pushed', main], { cwd: gitDir });
    expect((await t.request('DELETE', `${api}/tags/pushed`, { headers: basic('alice') })).statusCode).toBe(204);
  });
});
