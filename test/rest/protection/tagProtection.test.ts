import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { basic } from '../../helpers/app.ts';
import { PullFixture } from '../../helpers/pull.ts';
import { restApi } from './restApi.ts';

/**
 * Tag protection (Gitea's /tag_protections): repository admins manage the rules; the ref-moving gate enforces them
 * on git push (pre-receive), API tag creation and deletion, and releases that create their tag — with Gitea's texts.
 */
describe.each(PROVIDERS)('tag protection (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;
  const api = restApi(() => t);

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob', 'carol']) await t.createUser(u);
    repo = await f.createRepo('alice', 'demo');
    await addCollaborator(t, repo, { name: 'bob' }, 'write');
    await addCollaborator(t, repo, { name: 'carol' }, 'write');
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('creates, reads, edits, lists and deletes rules as Gitea does (repository admins only)', async () => {
    const created = await api('POST', '/repos/alice/demo/tag_protections', 'alice', {
      name_pattern: ' v* ',
      whitelist_usernames: ['carol'],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name_pattern: 'v*', whitelist_usernames: ['carol'], whitelist_teams: [] });
    expect(typeof created.json.created_at).toBe('string');
    const id = created.json.id as number;

    expect((await api('GET', `/repos/alice/demo/tag_protections/${id}`, 'alice')).json).toMatchObject({ id, name_pattern: 'v*' });
    const list = await api('GET', '/repos/alice/demo/tag_protections', 'alice');
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject([{ id, name_pattern: 'v*' }]);

    // Gitea's refusals: empty pattern and empty allowlists (400), a duplicate pattern (403), unknown users (422).
    const post = (body: unknown, as = 'alice') =>
      t.request('POST', '/api/v1/repos/alice/demo/tag_protections', { headers: basic(as), body });
    expectGiteaError(await post({ name_pattern: '  ', whitelist_usernames: ['carol'] }), 400, 'name_pattern are empty');
    expectGiteaError(await post({ name_pattern: 'x*' }), 400, 'both whitelist_usernames and whitelist_teams are empty');
    expectGiteaError(await post({ name_pattern: 'v*', whitelist_usernames: ['carol'] }), 403, 'Tag protection already exist');
    expectGiteaError(await post({ name_pattern: 'x*', whitelist_usernames: ['nobody'] }), 422, /user does not exist/);
    expectGiteaError(await post({ name_pattern: '/(/', whitelist_usernames: ['carol'] }), 422, /invalid name_pattern/);
    // A write collaborator is not a repository admin; anonymous callers need a token.
    expectGiteaError(await post({ name_pattern: 'x*', whitelist_usernames: ['bob'] }, 'bob'), 403);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/tag_protections'), 401);
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/demo/tag_protections/${id + 1000}`, { headers: basic('alice') }), 404);

    const edited = await api('PATCH', `/repos/alice/demo/tag_protections/${id}`, 'alice', { whitelist_usernames: ['carol', 'alice'] });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ name_pattern: 'v*' });
    expect([...(edited.json.whitelist_usernames as string[])].sort()).toEqual(['alice', 'carol']);

    const extra = await api('POST', '/repos/alice/demo/tag_protections', 'alice', {
      name_pattern: 'tmp-*',
      whitelist_usernames: ['alice'],
    });
    expect((await api('DELETE', `/repos/alice/demo/tag_protections/${extra.json.id as number}`, 'alice')).status).toBe(204);
    expect((await api('GET', '/repos/alice/demo/tag_protections', 'alice')).json).toHaveLength(1);
  });

  it('API tags and releases: protected tags only for the allowlist, with Gitea 422 texts', async () => {
    const createTag = (as: string, tag_name: string) =>
      t.request('POST', '/api/v1/repos/alice/demo/tags', { headers: basic(as), body: { tag_name } });
    expectGiteaError(await createTag('bob', 'v1.0'), 422, 'user not allowed to create protected tag');
    // Not even the owner (a repository admin) is exempt: only the allowlist is.
    expect((await createTag('carol', 'v1.0')).statusCode).toBe(201);
    expect((await createTag('bob', 'other-1')).statusCode).toBe(201);
    const del = await t.request('DELETE', '/api/v1/repos/alice/demo/tags/v1.0', { headers: basic('bob') });
    expectGiteaError(del, 422, 'user not allowed to delete protected tag');
    expect((await t.request('DELETE', '/api/v1/repos/alice/demo/tags/v1.0', { headers: basic('carol') })).statusCode).toBe(204);

    const release = (as: string, tag_name: string) =>
      t.request('POST', '/api/v1/repos/alice/demo/releases', { headers: basic(as), body: { tag_name, name: tag_name } });
    expectGiteaError(await release('bob', 'v2.0'), 422, 'user not allowed to create protected tag: v2.0');
    expect(await t.db.release.count({ where: { repoId: repo.id, lowerTagName: 'v2.0' } })).toBe(0);
    expect((await release('carol', 'v2.0')).statusCode).toBe(201);
  });

  it('git push: creating, moving and deleting a protected tag needs the allowlist; a /regex/ pattern works too', async () => {
    const bobDir = await f.workTree('alice', 'demo', 'bob');
    await f.git.ok(['tag', 'v3.0'], { cwd: bobDir });
    const refused = await f.git.run(['push', 'origin', 'refs/tags/v3.0'], { cwd: bobDir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Tag v3.0 is protected');
    // An unprotected tag goes through.
    await f.git.ok(['tag', 'build-7'], { cwd: bobDir });
    const free = await f.git.run(['push', 'origin', 'refs/tags/build-7'], { cwd: bobDir });
    expect(free.code, free.stderr).toBe(0);

    const regex = await api('POST', '/repos/alice/demo/tag_protections', 'alice', {
      name_pattern: '/^build-\\d+$/',
      whitelist_usernames: ['carol'],
    });
    expect(regex.status).toBe(201);
    const delBuild = await f.git.run(['push', 'origin', '--delete', 'refs/tags/build-7'], { cwd: bobDir });
    expect(delBuild.code).not.toBe(0);
    expect(delBuild.stderr).toContain('Tag build-7 is protected');

    const carolDir = await f.workTree('alice', 'demo', 'carol');
    await f.git.ok(['tag', 'v3.0'], { cwd: carolDir });
    const allowed = await f.git.run(['push', 'origin', 'refs/tags/v3.0'], { cwd: carolDir });
    expect(allowed.code, allowed.stderr).toBe(0);
    await t.app.deps.notifier.drain();
    expect((await api('GET', '/repos/alice/demo/tags/v3.0', 'bob')).status).toBe(200);
  });
});
