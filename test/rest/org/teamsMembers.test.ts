import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

/** Team members: GET|PUT|DELETE /teams/{id}/members[/{username}] (Gitea org/team.go, services/org/team.go). */
describe.each(PROVIDERS)('REST team members (%s)', (provider) => {
  let t: TestApp;
  let orgId = 0;
  let devs = 0;
  let open = 0;
  let owners = 0;
  let secretOpen = 0;
  const owner = basic('mowner');
  const member = basic('mmember');
  const other = basic('mother');
  const outsider = basic('moutsider');
  const admin = basic('madmin');

  const put = (team: number, user: string, headers = owner) => t.request('PUT', `/api/v1/teams/${team}/members/${user}`, { headers });
  const del = (team: number, user: string, headers = owner) => t.request('DELETE', `/api/v1/teams/${team}/members/${user}`, { headers });
  const createTeam = async (org: string, body: Record<string, unknown>): Promise<number> => {
    const res = await t.request('POST', `/api/v1/orgs/${org}/teams`, { headers: owner, body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const counters = async () => {
    const org = await t.db.user.findUniqueOrThrow({ where: { id: orgId } });
    const team = await t.db.team.findUniqueOrThrow({ where: { id: devs } });
    return { orgMembers: org.numMembers, teamMembers: team.numMembers };
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const u of ['mowner', 'mmember', 'mother', 'moutsider', 'mblocked', 'mzed'])
      await t.createUser(u, { fullName: u === 'mzed' ? 'Aaron Zed' : '' });
    await t.createUser('madmin', { admin: true });
    expect((await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'macme' } })).statusCode).toBe(201);
    expect(
      (await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'msecret', visibility: 'private' } })).statusCode,
    ).toBe(201);
    orgId = (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'macme' } })).id;
    owners = (await t.db.team.findFirstOrThrow({ where: { orgId, authorize: 'OWNER' } })).id;
    devs = await createTeam('macme', { name: 'devs', permission: 'write', units: ['repo.code'] });
    open = await createTeam('macme', { name: 'open', permission: 'read', units: ['repo.code'], visibility: 'public' });
    secretOpen = await createTeam('msecret', { name: 'open', permission: 'read', units: ['repo.code'], visibility: 'public' });
    const qa = await createTeam('macme', { name: 'qa', permission: 'read', units: ['repo.code'] });
    expect((await put(qa, 'mother')).statusCode).toBe(204);
  });
  afterAll(() => t.close());

  describe('PUT /teams/{id}/members/{username}', () => {
    it('gates: 404 unknown team, 401, 403 non-owners, 404 unknown user', async () => {
      expectGiteaError(await put(999999, 'mmember', {}), 404);
      expectGiteaError(await put(devs, 'mmember', {}), 401, 'token is required');
      expectGiteaError(await put(devs, 'mmember', other), 403, 'Must be an organization owner');
      expectGiteaError(await put(devs, 'mmember', outsider), 403, 'Must be an organization owner');
      expectGiteaError(await put(devs, 'nobody'), 404, 'user redirect does not exist [name: nobody]');
    });

    it('adds a user, who joins the organization; counters follow; adding again is a no-op', async () => {
      const before = await counters();
      expect((await put(devs, 'mmember')).statusCode).toBe(204);
      expect(await t.db.orgUser.count({ where: { orgId, user: { name: 'mmember' } } })).toBe(1);
      expect(await counters()).toEqual({ orgMembers: before.orgMembers + 1, teamMembers: before.teamMembers + 1 });
      expect((await put(devs, 'mmember')).statusCode).toBe(204);
      expect(await counters()).toEqual({ orgMembers: before.orgMembers + 1, teamMembers: before.teamMembers + 1 });
      // A second team for an existing org member does not change the organization's count.
      expect((await put(devs, 'mother', admin)).statusCode).toBe(204);
      expect((await counters()).orgMembers).toBe(before.orgMembers + 1);
      expect((await put(devs, 'mzed')).statusCode).toBe(204);
    });

    it('refuses users the organization blocked (403) and organizations (422)', async () => {
      const blocked = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'mblocked' } });
      await t.db.block.create({ data: { blockerId: orgId, blockeeId: blocked.id } });
      expectGiteaError(await put(devs, 'mblocked'), 403, 'user is blocked');
      expectGiteaError(await put(devs, 'msecret'), 422);
    });
  });

  describe('GET /teams/{id}/members', () => {
    const list = (team: number, headers: Record<string, string>, q = '') =>
      t.request('GET', `/api/v1/teams/${team}/members${q}`, { headers });

    it('gates: 404, 401, 403 team member rule, outsiders of a public team get 403 "Must be an organization member"', async () => {
      expectGiteaError(await list(999999, {}), 404);
      expectGiteaError(await list(devs, {}), 401);
      expectGiteaError(await list(devs, outsider), 404);
      expectGiteaError(await list(open, outsider), 403, 'Must be an organization member');
      expectGiteaError(await list(secretOpen, outsider), 404);
    });

    it('lists by full name then login, with X-Total-Count and Link', async () => {
      const res = await list(devs, member);
      expect(res.statusCode).toBe(200);
      expect((res.json() as { login: string }[]).map((u) => u.login)).toEqual(['mmember', 'mother', 'mzed']);
      expect(res.headers['x-total-count']).toBe('3');
      const page = await list(devs, owner, '?limit=1&page=2');
      expect((page.json() as { login: string }[]).map((u) => u.login)).toEqual(['mother']);
      expect(page.headers.link).toContain('rel="next"');
      expect((await list(devs, admin)).statusCode).toBe(200);
    });

    it('users are converted for the viewer: e-mail shown to signed-in viewers, private fields only to admins', async () => {
      const [first] = (await list(devs, member)).json() as { login: string; email: string; is_admin: boolean; last_login: string }[];
      expect(first).toMatchObject({ login: 'mmember', email: 'mmember@example.com', last_login: expect.any(String) });
    });
  });

  describe('GET /teams/{id}/members/{username}', () => {
    const get = (team: number, user: string, headers: Record<string, string>) =>
      t.request('GET', `/api/v1/teams/${team}/members/${user}`, { headers });

    it('200 for a member, 404 for a non-member or unknown user; outsiders 404 even on public teams of private orgs', async () => {
      const res = await get(devs, 'mmember', other);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ login: 'mmember' });
      expectGiteaError(await get(devs, 'mowner', owner), 404);
      expectGiteaError(await get(devs, 'ghost-user', owner), 404);
      expectGiteaError(await get(devs, 'mmember', {}), 401);
      expectGiteaError(await get(secretOpen, 'moutsider', outsider), 404);
      expectGiteaError(await get(open, 'mowner', outsider), 403, 'Must be an organization member');
    });
  });

  describe('DELETE /teams/{id}/members/{username}', () => {
    it('gates, no-op for non-members, and the last Owners member stays (422; Gitea 500)', async () => {
      expectGiteaError(await del(999999, 'mmember', {}), 404);
      expectGiteaError(await del(devs, 'mmember', {}), 401);
      expectGiteaError(await del(devs, 'mmember', member), 403, 'Must be an organization owner');
      expectGiteaError(await del(devs, 'nobody'), 404);
      expect((await del(devs, 'moutsider')).statusCode).toBe(204);
      const ownerId = (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'mowner' } })).id;
      expectGiteaError(await del(owners, 'mowner'), 422, `user is the last member of owner team [uid: ${ownerId}]`);
    });

    it('removes a member; a user left in no team leaves the organization (Gitea removeInvalidOrgUser)', async () => {
      const before = await counters();
      expect((await del(devs, 'mmember')).statusCode).toBe(204);
      expect(await t.db.orgUser.count({ where: { orgId, user: { name: 'mmember' } } })).toBe(0);
      expect(await counters()).toEqual({ orgMembers: before.orgMembers - 1, teamMembers: before.teamMembers - 1 });
      // mother is still in qa, so she stays a member of the organization.
      expect((await del(devs, 'mother')).statusCode).toBe(204);
      expect(await t.db.orgUser.count({ where: { orgId, user: { name: 'mother' } } })).toBe(1);
      expectGiteaError(await t.request('GET', `/api/v1/teams/${devs}`, { headers: member }), 404);
    });

    it('an owner can leave the Owners team once another owner exists', async () => {
      expect((await put(owners, 'mzed')).statusCode).toBe(204);
      expect((await del(owners, 'mzed', admin)).statusCode).toBe(204);
    });
  });
});
