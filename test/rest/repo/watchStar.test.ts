import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, blockUser, createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { logins } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
const names = (body: unknown): string[] => (body as { full_name: string }[]).map((r) => r.full_name);

describe.each(PROVIDERS)('REST watching and starring (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const counts = async (r: Models.Repository) => {
    const row = await t.db.repository.findUniqueOrThrow({ where: { id: r.id } });
    return { stars: row.numStars, watches: row.numWatches };
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol', 'outsider', 'blocked']) users[n] = await t.createUser(n);
    repos.pub = await createRepo(t, users.alice!, 'pub');
    repos.priv = await createRepo(t, users.alice!, 'priv', { private: true });
    await addCollaborator(t, repos.priv, users.bob!, 'READ');
    await blockUser(t, users.alice!, users.blocked!);
  });
  afterAll(() => t.close());

  it('the creator watches a new repository; GET subscription answers WatchInfo, 404 when not watching', async () => {
    const res = await t.request('GET', '/api/v1/repos/alice/pub/subscription', { headers: as('alice') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      subscribed: true,
      ignored: false,
      reason: null,
      created_at: expect.stringMatching(/Z$/),
      url: `${t.config.rootUrl}api/v1/repos/alice/pub/subscription`,
      repository_url: `${t.config.rootUrl}api/v1/repos/alice/pub`,
    });
    expect((await t.request('GET', '/api/v1/repos/alice/pub/subscription', { headers: as('bob') })).statusCode).toBe(404);
    expect(await counts(repos.pub!)).toEqual({ stars: 0, watches: 1 });
  });

  it('PUT watches (200 WatchInfo, counted once), DELETE unwatches (204), watchers_count is exact', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.request('PUT', '/api/v1/repos/alice/pub/subscription', { headers: as('bob') });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ subscribed: true, ignored: false });
    }
    expect(await counts(repos.pub!)).toEqual({ stars: 0, watches: 2 });
    const subs = await t.request('GET', '/api/v1/repos/alice/pub/subscribers', { headers: as('anon') });
    expect(logins(subs.json())).toEqual(['alice', 'bob']);
    expect(subs.headers['x-total-count']).toBe('2');
    const repo = await t.request('GET', '/api/v1/repos/alice/pub', { headers: as('bob') });
    expect(repo.json()).toMatchObject({ watchers_count: 2 });
    expect((await t.request('DELETE', '/api/v1/repos/alice/pub/subscription', { headers: as('bob') })).statusCode).toBe(204);
    expect((await t.request('DELETE', '/api/v1/repos/alice/pub/subscription', { headers: as('bob') })).statusCode).toBe(204);
    expect(await counts(repos.pub!)).toEqual({ stars: 0, watches: 1 });
  });

  it('watching: anonymous 401 on a public repository, 404 on a private one; blocked users 403; outsiders 404', async () => {
    expectGiteaError(await t.request('PUT', '/api/v1/repos/alice/pub/subscription'), 401);
    expectGiteaError(await t.request('PUT', '/api/v1/repos/alice/priv/subscription'), 404);
    expectGiteaError(await t.request('PUT', '/api/v1/repos/alice/priv/subscription', { headers: as('outsider') }), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/priv/subscribers', { headers: as('outsider') }), 404);
    expectGiteaError(await t.request('PUT', '/api/v1/repos/alice/pub/subscription', { headers: as('blocked') }), 403);
  });

  it('a read-only token cannot watch or star (403), a repository-write token can', async () => {
    const read = await t.createToken('carol', ['read:repository', 'read:user']);
    expectGiteaError(await t.request('PUT', '/api/v1/repos/alice/pub/subscription', { headers: tokenAuth(read) }), 403);
    expectGiteaError(await t.request('PUT', '/api/v1/user/starred/alice/pub', { headers: tokenAuth(read) }), 403);
    const write = await t.createToken('carol', ['write:repository', 'write:user']);
    expect((await t.request('PUT', '/api/v1/user/starred/alice/pub', { headers: tokenAuth(write) })).statusCode).toBe(204);
    expect((await t.request('DELETE', '/api/v1/user/starred/alice/pub', { headers: tokenAuth(write) })).statusCode).toBe(204);
  });

  it('stars: PUT 204 (idempotent), GET 204/404, DELETE 204; stars_count and the user counter are exact', async () => {
    expect((await t.request('GET', '/api/v1/user/starred/alice/pub', { headers: as('bob') })).statusCode).toBe(404);
    for (let i = 0; i < 2; i++)
      expect((await t.request('PUT', '/api/v1/user/starred/alice/pub', { headers: as('bob') })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/user/starred/alice/pub', { headers: as('bob') })).statusCode).toBe(204);
    expect((await t.request('PUT', '/api/v1/user/starred/alice/priv', { headers: as('bob') })).statusCode).toBe(204);
    expect(await counts(repos.pub!)).toMatchObject({ stars: 1 });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: users.bob!.id } })).numStars).toBe(2);
    const repo = await t.request('GET', '/api/v1/repos/alice/pub', { headers: as('bob') });
    expect(repo.json()).toMatchObject({ stars_count: 1 });
    const gazers = await t.request('GET', '/api/v1/repos/alice/pub/stargazers');
    expect(logins(gazers.json())).toEqual(['bob']);
    expect(gazers.headers['x-total-count']).toBe('1');
    expect((await t.request('DELETE', '/api/v1/user/starred/alice/priv', { headers: as('bob') })).statusCode).toBe(204);
    expect((await t.request('DELETE', '/api/v1/user/starred/alice/priv', { headers: as('bob') })).statusCode).toBe(204);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: users.bob!.id } })).numStars).toBe(1);
  });

  it('starring: 401 anonymous, 404 unknown or invisible repository, 403 blocked by the owner', async () => {
    expectGiteaError(await t.request('PUT', '/api/v1/user/starred/alice/pub'), 401);
    expectGiteaError(await t.request('PUT', '/api/v1/user/starred/alice/nope', { headers: as('bob') }), 404);
    expectGiteaError(await t.request('PUT', '/api/v1/user/starred/alice/priv', { headers: as('outsider') }), 404);
    expectGiteaError(await t.request('PUT', '/api/v1/user/starred/alice/pub', { headers: as('blocked') }), 403);
  });

  it('concurrent stars by many users count exactly', async () => {
    const many = await Promise.all(Array.from({ length: 8 }, (_, i) => t.createUser(`fan${i}`)));
    const res = await Promise.all(many.map((u) => t.request('PUT', '/api/v1/user/starred/alice/pub', { headers: as(u.name) })));
    expect(res.map((r) => r.statusCode)).toEqual(many.map(() => 204));
    expect(await counts(repos.pub!)).toMatchObject({ stars: 1 + many.length });
    await Promise.all(many.map((u) => t.request('DELETE', '/api/v1/user/starred/alice/pub', { headers: as(u.name) })));
    expect(await counts(repos.pub!)).toMatchObject({ stars: 1 });
  });

  it('starred and watched lists show only repositories the viewer may read, with consistent totals', async () => {
    await t.request('PUT', '/api/v1/user/starred/alice/priv', { headers: as('bob') });
    await t.request('PUT', '/api/v1/repos/alice/priv/subscription', { headers: as('bob') });
    const mine = await t.request('GET', '/api/v1/user/starred', { headers: as('bob') });
    expect(names(mine.json())).toEqual(['alice/pub', 'alice/priv']);
    expect(mine.headers['x-total-count']).toBe('2');
    const seen = await t.request('GET', '/api/v1/users/bob/starred', { headers: as('outsider') });
    expect(names(seen.json())).toEqual(['alice/pub']);
    expect(seen.headers['x-total-count']).toBe('1');
    expect(names((await t.request('GET', '/api/v1/users/bob/starred')).json())).toEqual(['alice/pub']);
    const watched = await t.request('GET', '/api/v1/user/subscriptions', { headers: as('bob') });
    expect(names(watched.json())).toEqual(['alice/priv']);
    const watchedByOthers = await t.request('GET', '/api/v1/users/bob/subscriptions', { headers: as('outsider') });
    expect(names(watchedByOthers.json())).toEqual([]);
    expect(watchedByOthers.headers['x-total-count']).toBe('0');
    expect(names((await t.request('GET', '/api/v1/users/alice/subscriptions', { headers: as('alice') })).json())).toEqual([
      'alice/pub',
      'alice/priv',
    ]);
    expectGiteaError(await t.request('GET', '/api/v1/user/starred'), 401);
    expectGiteaError(await t.request('GET', '/api/v1/users/nobody/starred'), 404);
  });

  it('auto-watch: members of teams given a repository watch it, and new team members watch the team repositories', async () => {
    const ok = async (method: string, url: string, body?: unknown) => {
      const res = await t.request(method, `/api/v1${url}`, { headers: as('alice'), ...(body === undefined ? {} : { body }) });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return (res.body ? res.json() : {}) as { id: number };
    };
    await ok('POST', '/orgs', { username: 'acme' });
    const all = await ok('POST', '/orgs/acme/teams', {
      name: 'everyone',
      permission: 'read',
      includes_all_repositories: true,
      units: ['repo.code', 'repo.issues'],
    });
    await ok('PUT', `/teams/${all.id}/members/carol`);
    const made = await ok('POST', '/orgs/acme/repos', { name: 'tool' });
    const watchersOf = async (name: string) =>
      logins((await t.request('GET', `/api/v1/repos/acme/${name}/subscribers`, { headers: as('alice') })).json()).sort();
    expect(await watchersOf('tool')).toEqual(['alice', 'carol']);
    expect((await t.request('GET', '/api/v1/repos/acme/tool', { headers: as('alice') })).json()).toMatchObject({ watchers_count: 2 });
    const ops = await ok('POST', '/orgs/acme/teams', { name: 'ops', permission: 'write', units: ['repo.code'] });
    await ok('PUT', `/teams/${ops.id}/members/bob`);
    await ok('PUT', `/teams/${ops.id}/repos/acme/tool`);
    expect(await watchersOf('tool')).toEqual(['alice', 'bob', 'carol']);
    await ok('POST', '/orgs/acme/repos', { name: 'second' });
    await ok('PUT', `/teams/${ops.id}/repos/acme/second`);
    await ok('PUT', `/teams/${ops.id}/members/outsider`);
    expect(await watchersOf('second')).toEqual(['alice', 'bob', 'carol', 'outsider']);
    const row = await t.db.repository.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.numWatches).toBe(4);
  });

  it("deleting a starred repository takes one star from each stargazer's count", async () => {
    await createRepo(t, users.carol!, 'doomed');
    await t.request('PUT', '/api/v1/user/starred/carol/doomed', { headers: as('outsider') });
    const before = (await t.db.user.findUniqueOrThrow({ where: { id: users.outsider!.id } })).numStars;
    expect((await t.request('DELETE', '/api/v1/repos/carol/doomed', { headers: as('carol') })).statusCode).toBe(204);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: users.outsider!.id } })).numStars).toBe(before - 1);
  });

  it('starring and watching write star_repo and watch_repo feed rows', async () => {
    await t.app.deps.notifier.drain();
    const carolRepo = await createRepo(t, users.carol!, 'feedme');
    await t.request('PUT', '/api/v1/user/starred/carol/feedme', { headers: as('bob') });
    await t.request('PUT', '/api/v1/repos/carol/feedme/subscription', { headers: as('bob') });
    await t.app.deps.notifier.drain();
    const rows = await t.db.action.findMany({
      where: { repoId: carolRepo.id, actUserId: users.bob!.id },
      select: { opType: true, userId: true },
    });
    expect(new Set(rows.map((r) => r.opType))).toEqual(new Set(['STAR_REPO', 'WATCH_REPO']));
  });
});
