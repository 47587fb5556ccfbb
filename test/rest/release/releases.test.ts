import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, createRepo, editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { GitClient } from '../../githttp/gitClient.ts';

interface ApiRelease {
  id: number;
  tag_name: string;
  target_commitish: string;
  name: string;
  body: string;
  url: string;
  html_url: string;
  tarball_url: string;
  zipball_url: string;
  upload_url: string;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at: string;
  author: { login: string };
  assets: unknown[];
}

describe.each(PROVIDERS)('REST releases (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let alice: Models.User;
  let gitDir: string;
  const api = '/api/v1/repos/alice/proj';

  async function lsRemoteTags(): Promise<string> {
    return git.ok(['ls-remote', '--tags', gitDir]);
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    git = new GitClient();
    alice = await t.createUser('alice');
    const reader = await t.createUser('reader');
    await t.createUser('outsider');
    const proj = await createRepo(t, alice, 'proj', { autoInit: true });
    await createRepo(t, alice, 'empty');
    const secret = await createRepo(t, alice, 'secret', { autoInit: true, private: true });
    await addCollaborator(t, proj, reader, 'read');
    await addCollaborator(t, secret, reader, 'read');
    gitDir = repoPath(t.config.repositoriesDir, 'alice', 'proj');
  });
  afterAll(async () => {
    git.dispose();
    await t.close();
  });

  it('creates a published release: 201 in Gitea shape, the tag at the default branch, visible to git ls-remote', async () => {
    const res = await t.request('POST', `${api}/releases`, {
      headers: basic('alice'),
      body: { tag_name: 'v1.0.0', name: 'First', body: 'notes' },
    });
    expect(res.statusCode).toBe(201);
    const rel = res.json<ApiRelease>();
    expect(Object.keys(rel)).toEqual([
      'id',
      'tag_name',
      'target_commitish',
      'name',
      'body',
      'url',
      'html_url',
      'tarball_url',
      'zipball_url',
      'upload_url',
      'draft',
      'prerelease',
      'created_at',
      'published_at',
      'author',
      'assets',
    ]);
    expect(rel).toMatchObject({
      tag_name: 'v1.0.0',
      target_commitish: 'main',
      name: 'First',
      body: 'notes',
      url: `http://localhost:3000/api/v1/repos/alice/proj/releases/${rel.id}`,
      html_url: 'http://localhost:3000/alice/proj/releases/tag/v1.0.0',
      tarball_url: 'http://localhost:3000/alice/proj/archive/v1.0.0.tar.gz',
      zipball_url: 'http://localhost:3000/alice/proj/archive/v1.0.0.zip',
      upload_url: `http://localhost:3000/api/v1/repos/alice/proj/releases/${rel.id}/assets`,
      draft: false,
      prerelease: false,
      author: { login: 'alice' },
      assets: [],
    });
    expect(rel.published_at).toBe(rel.created_at);
    const main = (await git.ok(['rev-parse', 'refs/heads/main'], { cwd: gitDir })).trim();
    expect(await lsRemoteTags()).toContain(`${main}\trefs/tags/v1.0.0`);
    // The tag was recorded as a push (push_tag) and the release as published (publish_release).
    await t.app.deps.notifier.drain();
    const ops = await t.db.action.findMany({
      where: { userId: alice.id, repo: { name: 'proj' } },
      select: { opType: true, refName: true, content: true },
    });
    expect(ops).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ opType: 'PUSH_TAG', refName: 'refs/tags/v1.0.0' }),
        expect.objectContaining({ opType: 'PUBLISH_RELEASE', refName: 'v1.0.0', content: 'First' }),
      ]),
    );
    const repo = await t.request('GET', api, { headers: basic('alice') });
    expect(repo.json<{ release_counter: number }>().release_counter).toBe(1);
  });

  it('answers Gitea errors: 409 for a tag with a release, 404 for an unknown target, 422 for an empty repository', async () => {
    expectGiteaError(
      await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v1.0.0' } }),
      409,
      'Release is has no Tag',
    );
    expectGiteaError(
      await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v9', target_commitish: 'nope' } }),
      404,
      /target "nope" not found/,
    );
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/empty/releases', { headers: basic('alice'), body: { tag_name: 'v1' } }),
      422,
      'repo is empty',
    );
    expectGiteaError(await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: {} }), 422);
  });

  it('gates writes: anonymous 401, a reader 403, an outsider of a private repository 404, a read token 403', async () => {
    expectGiteaError(await t.request('POST', `${api}/releases`, { body: { tag_name: 'x1' } }), 401);
    expectGiteaError(await t.request('POST', `${api}/releases`, { headers: basic('reader'), body: { tag_name: 'x1' } }), 403);
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/secret/releases', { headers: basic('outsider'), body: { tag_name: 'x1' } }),
      404,
    );
    const readToken = await t.createToken('alice', ['read:repository']);
    expectGiteaError(await t.request('POST', `${api}/releases`, { headers: tokenAuth(readToken), body: { tag_name: 'x1' } }), 403);
    expect((await t.request('GET', '/api/v1/repos/alice/secret/releases', { headers: basic('outsider') })).statusCode).toBe(404);
    expect((await t.request('GET', '/api/v1/repos/alice/secret/releases', { headers: basic('reader') })).statusCode).toBe(200);
  });

  it('shows drafts to writers only; publishing a draft by PATCH creates its tag', async () => {
    const res = await t.request('POST', `${api}/releases`, {
      headers: basic('alice'),
      body: { tag_name: 'v2.0.0', name: 'Two', draft: true },
    });
    expect(res.statusCode).toBe(201);
    const draft = res.json<ApiRelease>();
    expect(draft.draft).toBe(true);
    expect(await lsRemoteTags()).not.toContain('v2.0.0');
    for (const headers of [{}, basic('reader'), tokenAuth(await t.createToken('alice', ['read:repository']))]) {
      expect((await t.request('GET', `${api}/releases/${draft.id}`, { headers })).statusCode).toBe(404);
      const list = (await t.request('GET', `${api}/releases`, { headers })).json<ApiRelease[]>();
      expect(list.map((r) => r.tag_name)).toEqual(['v1.0.0']);
    }
    const own = await t.request('GET', `${api}/releases`, { headers: basic('alice') });
    expect(own.json<ApiRelease[]>().map((r) => r.tag_name)).toEqual(['v2.0.0', 'v1.0.0']);
    expect(own.headers['x-total-count']).toBe('2');
    const drafts = await t.request('GET', `${api}/releases?draft=true`, { headers: basic('alice') });
    expect(drafts.json<ApiRelease[]>().map((r) => r.tag_name)).toEqual(['v2.0.0']);
    const paged = await t.request('GET', `${api}/releases?limit=1&page=2`, { headers: basic('alice') });
    expect(paged.json<ApiRelease[]>().map((r) => r.tag_name)).toEqual(['v1.0.0']);
    expect(paged.headers.link).toContain('rel="first"');
    // The repository counter counts published releases only.
    expect((await t.request('GET', api, { headers: basic('alice') })).json<{ release_counter: number }>().release_counter).toBe(1);

    const published = await t.request('PATCH', `${api}/releases/${draft.id}`, {
      headers: basic('alice'),
      body: { draft: false, body: 'now' },
    });
    expect(published.statusCode).toBe(200);
    expect(published.json<ApiRelease>()).toMatchObject({ draft: false, body: 'now', name: 'Two' });
    expect(await lsRemoteTags()).toContain('refs/tags/v2.0.0');
    expect((await t.request('GET', `${api}/releases/${draft.id}`)).statusCode).toBe(200);
    expect((await t.request('GET', api, { headers: basic('alice') })).json<{ release_counter: number }>().release_counter).toBe(2);
    // Empty strings change nothing (Gitea cannot clear a name).
    const same = await t.request('PATCH', `${api}/releases/${draft.id}`, { headers: basic('alice'), body: { name: '' } });
    expect(same.json<ApiRelease>().name).toBe('Two');
    expect((await t.request('PATCH', `${api}/releases/999999`, { headers: basic('alice'), body: {} })).statusCode).toBe(404);
    expect((await t.request('PATCH', `${api}/releases/${draft.id}`, { headers: basic('reader'), body: { name: 'x' } })).statusCode).toBe(
      403,
    );
  });

  it('gets by tag, the latest (no pre-releases), and deletes by id and by tag keeping the tag', async () => {
    const pre = await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v3.0.0-rc1', prerelease: true } });
    expect(pre.statusCode).toBe(201);
    expect((await t.request('GET', `${api}/releases/latest`)).json<ApiRelease>().tag_name).toBe('v2.0.0');
    expect((await t.request('GET', `${api}/releases/tags/v1.0.0`)).json<ApiRelease>().name).toBe('First');
    expect((await t.request('GET', `${api}/releases?pre-release=true`)).json<ApiRelease[]>().map((r) => r.tag_name)).toEqual([
      'v3.0.0-rc1',
    ]);
    expect((await t.request('GET', `${api}/releases/tags/nope`)).statusCode).toBe(404);

    expect((await t.request('DELETE', `${api}/releases/tags/v3.0.0-rc1`, { headers: basic('reader') })).statusCode).toBe(403);
    expect((await t.request('DELETE', `${api}/releases/tags/v3.0.0-rc1`, { headers: basic('alice') })).statusCode).toBe(204);
    expect((await t.request('GET', `${api}/releases/tags/v3.0.0-rc1`)).statusCode).toBe(404);
    expect(await lsRemoteTags()).toContain('refs/tags/v3.0.0-rc1');
    // The tag is bare now: a new release of it takes it over.
    const again = await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v3.0.0-rc1', name: 'again' } });
    expect(again.statusCode).toBe(201);
    expect((await t.request('DELETE', `${api}/releases/${again.json<ApiRelease>().id}`, { headers: basic('alice') })).statusCode).toBe(204);
    expect((await t.request('DELETE', `${api}/releases/${again.json<ApiRelease>().id}`, { headers: basic('alice') })).statusCode).toBe(404);
  });

  it('creates an annotated tag when tag_message is given', async () => {
    const res = await t.request('POST', `${api}/releases`, {
      headers: basic('alice'),
      body: { tag_name: 'v4.0.0', tag_message: 'annotated release tag' },
    });
    expect(res.statusCode).toBe(201);
    expect((await git.ok(['cat-file', '-t', 'refs/tags/v4.0.0'], { cwd: gitDir })).trim()).toBe('tag');
  });

  it('lists releases in a number of statements that does not grow with the releases or their assets', async () => {
    const counts: number[] = [];
    for (const n of [1, 4]) {
      const name = `many${n}`;
      await createRepo(t, alice, name, { autoInit: true });
      for (let i = 0; i < n; i++) {
        const rel = await t.request('POST', `/api/v1/repos/alice/${name}/releases`, {
          headers: basic('alice'),
          body: { tag_name: `t${i}` },
        });
        await t.app.server.inject({
          method: 'POST',
          url: `/api/v1/repos/alice/${name}/releases/${rel.json<ApiRelease>().id}/assets?name=a${i}.txt`,
          headers: { ...basic('alice'), 'content-type': 'application/octet-stream' },
          payload: 'x',
        });
      }
      await t.request('GET', `/api/v1/repos/alice/${name}/releases`, { headers: basic('alice') });
      t.queries.length = 0;
      const res = await t.request('GET', `/api/v1/repos/alice/${name}/releases`, { headers: basic('alice') });
      expect(res.json<ApiRelease[]>()).toHaveLength(n);
      counts.push(t.queries.length);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('refuses writes to an archived repository (423) and hides the assets of a draft from readers', async () => {
    const old = await createRepo(t, alice, 'old', { autoInit: true });
    const rel = await t.request('POST', '/api/v1/repos/alice/old/releases', {
      headers: basic('alice'),
      body: { tag_name: 'v1', draft: true },
    });
    const id = rel.json<ApiRelease>().id;
    const reader = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'reader' } });
    await addCollaborator(t, old, reader, 'read');
    expect((await t.request('GET', `/api/v1/repos/alice/old/releases/${id}/assets`, { headers: basic('alice') })).statusCode).toBe(200);
    expect((await t.request('GET', `/api/v1/repos/alice/old/releases/${id}/assets`, { headers: basic('reader') })).statusCode).toBe(404);
    await editRepo(t, old, { archived: true });
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/old/releases', { headers: basic('alice'), body: { tag_name: 'v2' } }),
      423,
    );
    expectGiteaError(
      await t.request('PATCH', `/api/v1/repos/alice/old/releases/${id}`, { headers: basic('alice'), body: { draft: false } }),
      423,
    );
    expectGiteaError(await t.request('DELETE', `/api/v1/repos/alice/old/releases/${id}`, { headers: basic('alice') }), 423);
    expectGiteaError(await t.request('POST', '/api/v1/repos/alice/old/tags', { headers: basic('alice'), body: { tag_name: 'x' } }), 423);
  });
});
