import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

interface ApiRepo {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  permissions: { admin: boolean; push: boolean; pull: boolean };
}

const names = (body: unknown) => (body as ApiRepo[]).map((r) => r.full_name);

/** GET /repos/{o}/{r}, /repositories/{id}, /user/repos, /users/{u}/repos, /orgs/{org}/repos, /repos/search. */
describe.each(PROVIDERS)('REST repository reads (%s)', (provider) => {
  let t: TestApp;
  const ids: Record<string, number> = {};
  const owner = basic('rdowner');
  const collab = basic('rdcollab');
  const member = basic('rdmember');
  const outsider = basic('rdoutsider');
  const admin = basic('rdadmin');
  const get = (url: string, headers: Record<string, string> = {}) => t.request('GET', `/api/v1${url}`, { headers });
  const make = async (url: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', `/api/v1${url}`, { headers: owner, body });
    expect(res.statusCode, res.body).toBe(201);
    ids[(res.json() as ApiRepo).full_name] = (res.json() as ApiRepo).id;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const u of ['rdowner', 'rdcollab', 'rdmember', 'rdoutsider']) await t.createUser(u);
    await t.createUser('rdadmin', { admin: true });
    expect((await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'rdorg' } })).statusCode).toBe(201);
    await make('/user/repos', { name: 'pub', description: 'The public one' });
    await make('/user/repos', { name: 'secret', private: true });
    await make('/user/repos', { name: 'tmpl', template: true });
    await make('/orgs/rdorg/repos', { name: 'orgpub' });
    await make('/orgs/rdorg/repos', { name: 'orgsecret', private: true });
    await t.db.collaboration.create({
      data: {
        repoId: ids['rdowner/secret'] ?? 0,
        userId: (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rdcollab' } })).id,
        mode: 'WRITE',
      },
    });
    const team = await t.request('POST', '/api/v1/orgs/rdorg/teams', {
      headers: owner,
      body: { name: 'devs', permission: 'write', units: ['repo.code'] },
    });
    const teamId = (team.json() as { id: number }).id;
    expect((await t.request('PUT', `/api/v1/teams/${teamId}/members/rdmember`, { headers: owner })).statusCode).toBe(204);
    expect((await t.request('PUT', `/api/v1/teams/${teamId}/repos/rdorg/orgsecret`, { headers: owner })).statusCode).toBe(204);
    const topic = await t.db.topic.create({ data: { name: 'forge' } });
    await t.db.repoTopic.create({ data: { repoId: ids['rdorg/orgpub'] ?? 0, topicId: topic.id } });
    await t.db.star.create({
      data: { repoId: ids['rdowner/pub'] ?? 0, userId: (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rdoutsider' } })).id },
    });
  });
  afterAll(() => t.close());

  it('GET /repos/{o}/{r}: public for everyone, permissions per role', async () => {
    const perms = async (url: string, headers: Record<string, string>) => {
      const res = await get(url, headers);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as ApiRepo).permissions;
    };
    expect(await perms('/repos/rdowner/pub', {})).toEqual({ admin: false, push: false, pull: true });
    expect(await perms('/repos/rdowner/pub', outsider)).toEqual({ admin: false, push: false, pull: true });
    expect(await perms('/repos/rdowner/pub', owner)).toEqual({ admin: true, push: true, pull: true });
    expect(await perms('/repos/rdowner/pub', admin)).toEqual({ admin: true, push: true, pull: true });
    expect(await perms('/repos/RDOWNER/PUB', owner)).toEqual({ admin: true, push: true, pull: true });
  });

  it('private repositories are 404 to those without access', async () => {
    expectGiteaError(await get('/repos/rdowner/secret'), 404);
    expectGiteaError(await get('/repos/rdowner/secret', outsider), 404);
    expectGiteaError(await get('/repos/rdowner/secret', member), 404);
    expect((await get('/repos/rdowner/secret', collab)).json()).toMatchObject({
      private: true,
      permissions: { admin: false, push: true, pull: true },
    });
    expect((await get('/repos/rdowner/secret', admin)).statusCode).toBe(200);
    expectGiteaError(await get('/repos/rdorg/orgsecret', outsider), 404);
    expect((await get('/repos/rdorg/orgsecret', member)).json()).toMatchObject({ permissions: { admin: false, push: true, pull: true } });
    expect((await get('/repos/rdorg/orgsecret', owner)).json()).toMatchObject({ permissions: { admin: true, push: true, pull: true } });
    expectGiteaError(await get('/repos/rdowner/nosuch', owner), 404);
    expectGiteaError(await get('/repos/nosuch/pub', owner), 404);
  });

  it('public-only tokens cannot see private repositories', async () => {
    const token = await t.createToken('rdowner', ['public-only', 'read:repository', 'read:user', 'read:organization']);
    expectGiteaError(await get('/repos/rdowner/secret', tokenAuth(token)), 404);
    expect((await get('/repos/rdowner/pub', tokenAuth(token))).statusCode).toBe(200);
    expect(names((await get('/user/repos', tokenAuth(token))).json())).toEqual(['rdorg/orgpub', 'rdowner/pub', 'rdowner/tmpl']);
  });

  it('GET /repositories/{id}', async () => {
    expect((await get(`/repositories/${ids['rdowner/pub']}`)).json()).toMatchObject({ full_name: 'rdowner/pub' });
    expectGiteaError(await get(`/repositories/${ids['rdowner/secret']}`, outsider), 404);
    expect((await get(`/repositories/${ids['rdowner/secret']}`, collab)).statusCode).toBe(200);
    expectGiteaError(await get('/repositories/999999'), 404);
    expectGiteaError(await get('/repositories/abc'), 404);
  });

  it('GET /user/repos: owned, collaborations and team repositories, by name', async () => {
    expectGiteaError(await get('/user/repos'), 401);
    // As Gitea: an organization owner reaches the organization's repositories through the Owners team.
    expect(names((await get('/user/repos', owner)).json())).toEqual([
      'rdorg/orgpub',
      'rdorg/orgsecret',
      'rdowner/pub',
      'rdowner/secret',
      'rdowner/tmpl',
    ]);
    expect(names((await get('/user/repos', collab)).json())).toEqual(['rdowner/secret']);
    expect(names((await get('/user/repos', member)).json())).toEqual(['rdorg/orgpub', 'rdorg/orgsecret']);
    expect(names((await get('/user/repos', outsider)).json())).toEqual([]);
    const page = await get('/user/repos?limit=1&page=2', owner);
    expect(page.headers['x-total-count']).toBe('5');
    expect(names(page.json())).toEqual(['rdorg/orgsecret']);
    expect(page.headers.link).toBe(
      linkHeader('user/repos', { limit: '1' }, [
        ['next', 3],
        ['last', 5],
        ['first', 1],
        ['prev', 1],
      ]),
    );
  });

  it('GET /users/{u}/repos and /orgs/{org}/repos: what the viewer may see, by id', async () => {
    expect(names((await get('/users/rdowner/repos')).json())).toEqual(['rdowner/pub', 'rdowner/tmpl']);
    expect(names((await get('/users/rdowner/repos', collab)).json())).toEqual(['rdowner/pub', 'rdowner/secret', 'rdowner/tmpl']);
    expect(names((await get('/users/rdowner/repos', owner)).json())).toEqual(['rdowner/pub', 'rdowner/secret', 'rdowner/tmpl']);
    expect((await get('/users/rdowner/repos', outsider)).headers['x-total-count']).toBe('2');
    expectGiteaError(await get('/users/nosuch/repos'), 404);
    expect(names((await get('/orgs/rdorg/repos')).json())).toEqual(['rdorg/orgpub']);
    expect(names((await get('/orgs/rdorg/repos', member)).json())).toEqual(['rdorg/orgpub', 'rdorg/orgsecret']);
    expect(names((await get('/orgs/rdorg/repos', admin)).json())).toEqual(['rdorg/orgpub', 'rdorg/orgsecret']);
    expectGiteaError(await get('/orgs/nosuch/repos'), 404);
  });

  it('GET /repos/search: {ok, data}, filters, sort, headers', async () => {
    const search = async (q: string, headers: Record<string, string> = {}) => {
      const res = await get(`/repos/search${q}`, headers);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { ok: boolean; data: ApiRepo[] };
      expect(body.ok).toBe(true);
      return { names: names(body.data), total: res.headers['x-total-count'], link: res.headers.link };
    };
    expect((await search('')).names).toEqual(['rdorg/orgpub', 'rdowner/pub', 'rdowner/tmpl']);
    expect((await search('', owner)).names).toEqual(['rdorg/orgpub', 'rdorg/orgsecret', 'rdowner/pub', 'rdowner/secret', 'rdowner/tmpl']);
    expect((await search('?private=false', owner)).names).toEqual(['rdorg/orgpub', 'rdowner/pub', 'rdowner/tmpl']);
    expect((await search('?is_private=true', owner)).names).toEqual(['rdorg/orgsecret', 'rdowner/secret']);
    expect((await search('?q=secret', member)).names).toEqual(['rdorg/orgsecret']);
    expect((await search('?q=public&includeDesc=true')).names).toEqual(['rdowner/pub']);
    expect((await search('?q=forge&topic=true')).names).toEqual(['rdorg/orgpub']);
    expect((await search('?q=rdowner/pu')).names).toEqual(['rdowner/pub']);
    expect((await search('?template=true')).names).toEqual(['rdowner/tmpl']);
    expect((await search(`?uid=${(await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rdcollab' } })).id}`, owner)).names).toEqual([
      'rdowner/secret',
    ]);
    const outsiderId = (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rdoutsider' } })).id;
    expect((await search(`?starredBy=${outsiderId}`)).names).toEqual(['rdowner/pub']);
    expect((await search('?sort=id&order=desc')).names).toEqual(['rdorg/orgpub', 'rdowner/tmpl', 'rdowner/pub']);
    const orgId = (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rdorg' } })).id;
    expect((await search(`?priority_owner_id=${orgId}&sort=alpha`, owner)).names).toEqual([
      'rdorg/orgpub',
      'rdorg/orgsecret',
      'rdowner/pub',
      'rdowner/secret',
      'rdowner/tmpl',
    ]);
    const ownerId = (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rdowner' } })).id;
    expect((await search(`?priority_owner_id=${ownerId}&limit=2&page=2`, owner)).names).toEqual(['rdowner/tmpl', 'rdorg/orgpub']);
    const paged = await search('?limit=1');
    expect(paged.total).toBe('3');
    expect(paged.link).toBe(
      linkHeader('repos/search', { limit: '1' }, [
        ['next', 2],
        ['last', 3],
      ]),
    );
    expect((await search('?mode=fork')).names).toEqual([]);
    expectGiteaError(await get('/repos/search?mode=bad'), 422, 'Invalid search mode: "bad"');
    expectGiteaError(await get('/repos/search?sort=bad'), 422, 'Invalid sort mode: "bad"');
    expectGiteaError(await get('/repos/search?sort=id&order=up'), 422, 'Invalid sort order: "up"');
  });

  it('lists load permissions in bulk (statement count does not grow with the page)', async () => {
    await t.app.deps.notifier.drain();
    const count = async () => {
      t.queries.length = 0;
      expect((await get('/repos/search?limit=50', owner)).statusCode).toBe(200);
      return [...t.queries];
    };
    const before = await count();
    for (let i = 0; i < 5; i++) await make('/user/repos', { name: `bulk${i}` });
    await t.app.deps.notifier.drain(); // let the activity subscriber finish its own queries
    const after = await count();
    expect(after.length).toBe(before.length);
  });
});
