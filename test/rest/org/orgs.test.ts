import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { ALL_UNITS } from '../../../src/permissions/units.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs, logins, setPublic } from '../../helpers/org.ts';

const ORG_FIELDS = [
  'id',
  'name',
  'full_name',
  'email',
  'avatar_url',
  'description',
  'website',
  'location',
  'visibility',
  'repo_admin_change_team_access',
  'username',
];

describe.each(PROVIDERS)('POST /orgs (%s)', (provider) => {
  let t: TestApp;
  const post = (body: unknown, headers: Record<string, string>) => t.request('POST', '/api/v1/orgs', { headers, body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('creator');
    await t.createUser('taken');
    await t.createUser('root', { admin: true });
    const noorg = await t.createUser('noorg');
    const root = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'root' } });
    await t.db.user.updateMany({ where: { id: { in: [noorg.id, root.id] } }, data: { allowCreateOrganization: false } });
  });
  afterAll(() => t.close());

  it('201: Gitea field order, echoed fields, the Owners team with its exact attributes and unit modes', async () => {
    const body = {
      username: 'Acme',
      full_name: 'Acme Inc',
      email: 'hi@acme.test',
      description: 'We make anvils',
      website: 'https://acme.test',
      location: 'Desert',
      visibility: 'limited',
      repo_admin_change_team_access: true,
    };
    const res = await post(body, basic('creator'));
    expect(res.statusCode).toBe(201);
    const org = res.json();
    expect(Object.keys(org)).toEqual(ORG_FIELDS);
    expect(org).toEqual({
      id: expect.any(Number),
      name: 'Acme',
      full_name: 'Acme Inc',
      email: 'hi@acme.test',
      avatar_url: expect.stringMatching(/^http:\/\/localhost:3000\//),
      description: 'We make anvils',
      website: 'https://acme.test',
      location: 'Desert',
      visibility: 'limited',
      repo_admin_change_team_access: true,
      username: 'Acme',
    });

    const row = await t.db.user.findUniqueOrThrow({ where: { id: org.id } });
    expect(row).toMatchObject({ type: 'ORGANIZATION', lowerName: 'acme', numMembers: 1, numTeams: 1 });
    const teams = await t.db.team.findMany({ where: { orgId: org.id }, include: { units: true, members: true } });
    expect(teams).toHaveLength(1);
    expect(teams[0]).toMatchObject({
      name: 'Owners',
      lowerName: 'owners',
      authorize: 'OWNER',
      includesAllRepositories: true,
      canCreateOrgRepo: true,
      visibility: 'LIMITED',
      numMembers: 1,
    });
    const modes = Object.fromEntries((teams[0]?.units ?? []).map((u) => [u.type, u.accessMode]));
    expect(modes).toEqual(Object.fromEntries(ALL_UNITS.map((u) => [u, u === 'EXT_ISSUES' || u === 'EXT_WIKI' ? 'READ' : 'OWNER'])));
    const creator = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'creator' } });
    expect(teams[0]?.members.map((m) => m.userId)).toEqual([creator.id]);
    expect(await t.db.orgUser.findMany({ where: { orgId: org.id }, select: { userId: true, isPublic: true } })).toEqual([
      { userId: creator.id, isPublic: false },
    ]);

    // The creator is a member (and sees the limited org); the org answers under any case.
    const members = await t.request('GET', '/api/v1/orgs/acme/members', { headers: basic('creator') });
    expect(logins(members.json())).toEqual(['creator']);
    expect((await t.request('GET', '/api/v1/orgs/ACME/members/creator', { headers: basic('creator') })).statusCode).toBe(204);
  });

  it('a minimal body is public with empty profile fields', async () => {
    const res = await post({ username: 'minimal', visibility: '' }, basic('creator'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'minimal',
      full_name: '',
      email: '',
      description: '',
      website: '',
      location: '',
      visibility: 'public',
      repo_admin_change_team_access: false,
    });
  });

  it.each([
    ['an invalid username', { username: 'bad name' }, '[UserName]: invalid username'],
    ['a username with a trailing dot', { username: 'dot.' }, '[UserName]: invalid username'],
    ['a missing username', { full_name: 'x' }, /^\[UserName\]: /],
    ['a 41-character username', { username: 'a'.repeat(41) }, '[UserName]: MaxSize'],
    ['a bad visibility', { username: 'vis', visibility: 'secret' }, '[Visibility]: In'],
    ['a website that is no URL', { username: 'web', website: 'not a url' }, '[Website]: Url'],
    ['a 51-character location', { username: 'loc', location: 'x'.repeat(51) }, '[Location]: MaxSize'],
  ])('%s → 422, before the permission check', async (_label, body, message) => {
    expectGiteaError(await post(body, basic('creator')), 422, message);
    expectGiteaError(await post(body, basic('noorg')), 422, message);
  });

  it('a user not allowed to create organizations → 403; a site admin may anyway', async () => {
    expectGiteaError(await post({ username: 'nope' }, basic('noorg')), 403, 'not allowed to create org');
    expect(await t.db.user.findUnique({ where: { lowerName: 'nope' } })).toBeNull();
    expect((await post({ username: 'rootorg' }, basic('root'))).statusCode).toBe(201);
  });

  it.each([
    ['a user', 'TAKEN'],
    ['an organization', 'aCmE'],
  ])('a name taken by %s (any case) → 422', async (_label, name) => {
    const before = await t.db.user.count();
    expectGiteaError(await post({ username: name }, basic('creator')), 422, `user already exists [name: ${name}]`);
    expect(await t.db.user.count()).toBe(before);
  });

  it.each([
    ['api', 'name is reserved [name: api]'],
    ['Explore', 'name is reserved [name: Explore]'],
    ['ghost', 'name is reserved [name: ghost]'],
    ['team.keys', 'name pattern is not allowed [pattern: *.keys]'],
    ['logo.PNG', 'name pattern is not allowed [pattern: *.png]'],
  ])('the reserved name %s → 422', async (name, message) => {
    expectGiteaError(await post({ username: name }, basic('creator')), 422, message);
  });

  it('anonymous → 401; a token without write:organization → 403', async () => {
    expectGiteaError(await post({ username: 'anon' }, {}), 401, 'token is required');
    const read = await t.createToken('creator', ['read:organization']);
    expectGiteaError(
      await post({ username: 'scoped' }, tokenAuth(read)),
      403,
      /required=\[write:organization\], token scope=read:organization/,
    );
    const write = await t.createToken('creator', ['write:organization']);
    expect((await post({ username: 'scoped' }, tokenAuth(write))).statusCode).toBe(201);
  });
});

describe.each(PROVIDERS)('GET, PATCH, DELETE /orgs (%s)', (provider) => {
  let t: TestApp;
  const u: Record<string, Models.User> = {};
  const get = (path: string, headers: Record<string, string> = {}) => t.request('GET', `/api/v1/${path}`, { headers });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const name of ['owner', 'member', 'outsider', 'pmember']) u[name] = await t.createUser(name);
    u.admin = await t.createUser('admin', { admin: true });
    const owner = u.owner as Models.User;
    // Created out of name order, so the alphabetical order of GET /orgs is visible.
    u['zeta-pub'] = await createOrgAs(t, owner, 'zeta-pub', 'PUBLIC');
    u['alpha-lim'] = await createOrgAs(t, owner, 'alpha-lim', 'LIMITED');
    u['mid-priv'] = await createOrgAs(t, owner, 'mid-priv', 'PRIVATE');
    u['beta-pub'] = await createOrgAs(t, owner, 'beta-pub', 'PUBLIC');
    await t.db.user.update({
      where: { id: u['zeta-pub']?.id ?? 0 },
      data: { email: 'contact@zeta.test', fullName: 'Zeta', website: 'https://zeta.test' },
    });
    for (const org of ['zeta-pub', 'alpha-lim', 'mid-priv', 'beta-pub'])
      await addMember(t, u[org] as Models.User, u.member as Models.User, { isPublic: org !== 'beta-pub' });
    await addMember(t, u['mid-priv'] as Models.User, u.pmember as Models.User);
  });
  afterAll(() => t.close());

  it.each([
    ['anonymous', {}, ['beta-pub', 'zeta-pub']],
    ['a signed-in outsider', basic('outsider'), ['alpha-lim', 'beta-pub', 'zeta-pub']],
    ['a member of the private org', basic('pmember'), ['alpha-lim', 'beta-pub', 'zeta-pub']],
    ['a site admin', basic('admin'), ['alpha-lim', 'beta-pub', 'mid-priv', 'zeta-pub']],
  ])('GET /orgs as %s: visible organizations, alphabetically', async (_label, headers, want) => {
    const res = await get('orgs', headers);
    expect(res.statusCode).toBe(200);
    expect(logins(res.json())).toEqual(want);
    expect(res.headers['x-total-count']).toBe(String(want.length));
  });

  it('GET /orgs paginates with Link and X-Total-Count', async () => {
    const res = await get('orgs?limit=1&page=2', basic('admin'));
    expect(logins(res.json())).toEqual(['beta-pub']);
    expect(res.headers['x-total-count']).toBe('4');
    expect(res.headers.link).toBe(
      linkHeader('orgs', { limit: '1' }, [
        ['next', 3],
        ['last', 4],
        ['first', 1],
        ['prev', 1],
      ]),
    );
  });

  const GET_ONE: Array<[org: string, anonymous: number, outsider: number, member: number, admin: number]> = [
    ['zeta-pub', 200, 200, 200, 200],
    ['alpha-lim', 404, 200, 200, 200],
    ['mid-priv', 404, 404, 200, 200],
    ['no-such-org', 404, 404, 404, 404],
  ];
  it.each(GET_ONE)('GET /orgs/%s: anonymous %i, outsider %i, member %i, admin %i', async (org, ...want) => {
    const viewers = [{}, basic('outsider'), basic('member'), basic('admin')];
    for (const [i, headers] of viewers.entries()) {
      const res = await get(`orgs/${org}`, headers);
      if (want[i] === 404) expectGiteaError(res, 404);
      else expect([res.statusCode, res.json().name]).toEqual([200, org]);
    }
    // A user is not an organization.
    expectGiteaError(await get('orgs/owner', basic('admin')), 404);
  });

  it('GET /orgs/{org} hides the e-mail from anonymous callers only', async () => {
    expect((await get('orgs/zeta-pub')).json()).toMatchObject({ email: '', full_name: 'Zeta' });
    expect((await get('orgs/ZETA-PUB', basic('outsider'))).json()).toMatchObject({ name: 'zeta-pub', email: 'contact@zeta.test' });
  });

  it('PATCH by an owner changes only the fields given', async () => {
    const res = await t.request('PATCH', '/api/v1/orgs/zeta-pub', {
      headers: basic('owner'),
      body: { description: 'new words', visibility: 'limited' },
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(ORG_FIELDS);
    expect(res.json()).toMatchObject({
      name: 'zeta-pub',
      description: 'new words',
      visibility: 'limited',
      full_name: 'Zeta',
      website: 'https://zeta.test',
      email: 'contact@zeta.test',
    });
    expect((await get('orgs/zeta-pub')).statusCode).toBe(404); // now limited
    const back = await t.request('PATCH', '/api/v1/orgs/zeta-pub', { headers: basic('admin'), body: { visibility: 'public' } });
    expect(back.json()).toMatchObject({ visibility: 'public', description: 'new words' });
  });

  it('PATCH: member 403, outsider of a private org 404, anonymous 401, bad input 422', async () => {
    expectGiteaError(
      await t.request('PATCH', '/api/v1/orgs/zeta-pub', { headers: basic('member'), body: { description: 'x' } }),
      403,
      'Must be an organization owner',
    );
    expectGiteaError(await t.request('PATCH', '/api/v1/orgs/mid-priv', { headers: basic('outsider'), body: { description: 'x' } }), 404);
    expectGiteaError(
      await t.request('PATCH', '/api/v1/orgs/zeta-pub', { headers: basic('outsider'), body: { description: 'x' } }),
      403,
      'Must be an organization owner',
    );
    expectGiteaError(await t.request('PATCH', '/api/v1/orgs/zeta-pub', { body: { description: 'x' } }), 401);
    expectGiteaError(
      await t.request('PATCH', '/api/v1/orgs/zeta-pub', { headers: basic('owner'), body: { website: 'nope' } }),
      422,
      '[Website]: Url',
    );
    expect((await get('orgs/zeta-pub')).json().description).toBe('new words');
  });

  it('DELETE: non-owner 403, with a repository 422, owner 204 (teams and memberships go too)', async () => {
    const org = u['beta-pub'] as Models.User;
    expectGiteaError(
      await t.request('DELETE', '/api/v1/orgs/beta-pub', { headers: basic('member') }),
      403,
      'Must be an organization owner',
    );
    await createRepo(t, u.owner as Models.User, 'keep', { org });
    expectGiteaError(await t.request('DELETE', '/api/v1/orgs/beta-pub', { headers: basic('owner') }), 422);
    expect((await t.request('DELETE', '/api/v1/repos/beta-pub/keep', { headers: basic('owner') })).statusCode).toBe(204);
    expect((await t.request('DELETE', '/api/v1/orgs/beta-pub', { headers: basic('owner') })).statusCode).toBe(204);
    expectGiteaError(await get('orgs/beta-pub', basic('admin')), 404);
    expect(await t.db.team.count({ where: { orgId: org.id } })).toBe(0);
    expect(await t.db.orgUser.count({ where: { orgId: org.id } })).toBe(0);
    expectGiteaError(await t.request('DELETE', '/api/v1/orgs/mid-priv', { headers: basic('outsider') }), 404);
    // A site admin passes the owner check without being a member.
    await createOrgAs(t, u.owner as Models.User, 'gone', 'PRIVATE');
    expect((await t.request('DELETE', '/api/v1/orgs/gone', { headers: basic('admin') })).statusCode).toBe(204);
  });

  it('GET /user/orgs lists all of the viewer’s organizations, private and concealed included', async () => {
    const res = await get('user/orgs', basic('member'));
    expect(res.statusCode).toBe(200);
    expect(logins(res.json())).toEqual(['alpha-lim', 'mid-priv', 'zeta-pub']);
    expect(res.headers['x-total-count']).toBe('3');
    const page = await get('user/orgs?limit=2', basic('member'));
    expect(logins(page.json())).toEqual(['alpha-lim', 'mid-priv']);
    expect(page.headers.link).toBe(
      linkHeader('user/orgs', { limit: '2' }, [
        ['next', 2],
        ['last', 2],
      ]),
    );
    expectGiteaError(await get('user/orgs'), 401, 'token is required');
  });

  it.each([
    ['the user', basic('member'), ['alpha-lim', 'mid-priv', 'zeta-pub']],
    ['a site admin', basic('admin'), ['alpha-lim', 'mid-priv', 'zeta-pub']],
    ['anonymous', {}, ['zeta-pub']],
    ['a signed-in outsider', basic('outsider'), ['alpha-lim', 'zeta-pub']],
    ['a fellow member of the private org', basic('pmember'), ['alpha-lim', 'mid-priv', 'zeta-pub']],
  ])('GET /users/member/orgs as %s', async (_label, headers, want) => {
    const res = await get('users/member/orgs', headers);
    expect(res.statusCode).toBe(200);
    expect(logins(res.json())).toEqual(want);
    expect(res.headers['x-total-count']).toBe(String(want.length));
  });

  it('GET /users/{u}/orgs: concealed memberships are hidden from others; unknown or invisible users are 404', async () => {
    await setPublic(t, u['zeta-pub'] as Models.User, u.member as Models.User, false);
    expect(logins((await get('users/member/orgs', basic('outsider'))).json())).toEqual(['alpha-lim']);
    expect(logins((await get('users/member/orgs', basic('member'))).json())).toEqual(['alpha-lim', 'mid-priv', 'zeta-pub']);
    await setPublic(t, u['zeta-pub'] as Models.User, u.member as Models.User, true);
    expectGiteaError(await get('users/nobody/orgs'), 404);
    await t.db.user.update({ where: { id: u.pmember?.id ?? 0 }, data: { visibility: 'PRIVATE' } });
    expectGiteaError(await get('users/pmember/orgs', basic('outsider')), 404);
    expect(logins((await get('users/pmember/orgs', basic('pmember'))).json())).toEqual(['mid-priv']);
  });
});
