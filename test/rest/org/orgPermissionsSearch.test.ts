import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addTeamMember, createTeam } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createOrgAs } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
const names = (body: unknown): string[] => (body as { data: Array<{ name: string }> }).data.map((t) => t.name);

describe.each(PROVIDERS)('REST organization permissions of a user, team search (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['orgowner', 'adm', 'dev', 'rdr', 'outsider']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    const acme = await createOrgAs(t, users.orgowner!, 'acme');
    await createOrgAs(t, users.orgowner!, 'hidden', 'PRIVATE');
    for (const [name, member, input] of [
      ['admins', 'adm', { permission: 'admin', canCreateOrgRepo: true, description: 'the admins' }],
      ['devs', 'dev', { permission: 'write', units: ['repo.code'], description: 'Developers of Widgets' }],
      ['readers', 'rdr', { permission: 'read', units: ['repo.code'], description: 'widget readers' }],
    ] as const) {
      const team = await createTeam(t, users.orgowner!, acme, { name, ...input });
      await addTeamMember(t, users.orgowner!, team, users[member]!);
    }
  });
  afterAll(() => t.close());

  it("answers a user's permissions from the authority of their teams (Gitea: unit teams give none)", async () => {
    const perms = async (user: string, org = 'acme', viewer = 'outsider') => {
      const res = await t.request('GET', `/api/v1/users/${user}/orgs/${org}/permissions`, { headers: as(viewer) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const none = { can_create_repository: false, can_read: false, can_write: false, is_admin: false, is_owner: false };
    expect(await perms('orgowner')).toEqual({
      can_create_repository: true,
      can_read: true,
      can_write: true,
      is_admin: true,
      is_owner: true,
    });
    expect(await perms('adm')).toEqual({ can_create_repository: true, can_read: true, can_write: true, is_admin: true, is_owner: false });
    expect(await perms('dev')).toEqual(none);
    expect(await perms('outsider', 'acme', 'dev')).toEqual(none);
    expect((await perms('orgowner', 'hidden', 'orgowner')).is_owner).toBe(true);
    expect((await perms('orgowner', 'hidden', 'root')).is_owner).toBe(true);
  });

  it('answers 404 for an organization the viewer or the user cannot see, 401 anonymous, 403 without the scopes', async () => {
    const get = (user: string, org: string, headers: Record<string, string>) =>
      t.request('GET', `/api/v1/users/${user}/orgs/${org}/permissions`, { headers });
    expectGiteaError(await get('orgowner', 'hidden', as('outsider')), 404);
    expectGiteaError(await get('outsider', 'hidden', as('orgowner')), 404);
    expectGiteaError(await get('orgowner', 'nosuch', as('outsider')), 404);
    expectGiteaError(await get('ghost', 'acme', as('outsider')), 404);
    expectGiteaError(await get('orgowner', 'acme', {}), 401, 'token is required');
    const userOnly = await t.createToken('outsider', ['read:user']);
    expectGiteaError(await get('orgowner', 'acme', tokenAuth(userOnly)), 403, /required scope/);
    const both = await t.createToken('outsider', ['read:user', 'read:organization']);
    expect((await get('orgowner', 'acme', tokenAuth(both))).statusCode).toBe(200);
  });

  it("searches an organization's teams: members see their own teams, site admins all; name, then description", async () => {
    const search = (viewer: string, query = '') => t.request('GET', `/api/v1/orgs/acme/teams/search${query}`, { headers: as(viewer) });
    const all = await search('root');
    expect(all.statusCode).toBe(200);
    expect(all.json().ok).toBe(true);
    expect(names(all.json())).toEqual(['admins', 'devs', 'Owners', 'readers']);
    expect(all.headers['x-total-count']).toBe('4');
    expect(all.json().data[0]).toMatchObject({ name: 'admins', organization: null, permission: 'admin' });
    expect(names((await search('root', '?q=DEV')).json())).toEqual(['devs']);
    expect(names((await search('root', '?q=widget')).json())).toEqual(['devs', 'readers']);
    expect(names((await search('root', '?q=widget&include_desc=false')).json())).toEqual([]);
    const page = await search('root', '?limit=1&page=2');
    expect(names(page.json())).toEqual(['devs']);
    expect(page.headers['x-total-count']).toBe('4');
    expect(page.headers.link).toContain('rel="next"');
    expect(names((await search('dev')).json())).toEqual(['devs']);
    expect(names((await search('orgowner', '?q=dev')).json())).toEqual([]);
    expect(names((await search('orgowner')).json())).toEqual(['Owners']);
    expectGiteaError(await search('outsider'), 403, 'Must be an organization member');
    expectGiteaError(await search('anon'), 401);
    // The gate of every /orgs/{org}/teams route (requireOrgForTeams, Gitea's orgAssignment then reqOrgMembership):
    // a private organization is as absent as a missing one to an outsider (Gitea answers 403 and so reveals it).
    expectGiteaError(await t.request('GET', '/api/v1/orgs/hidden/teams/search', { headers: as('outsider') }), 404);
    expectGiteaError(await t.request('GET', '/api/v1/orgs/hidden/teams', { headers: as('outsider') }), 404);
    expectGiteaError(await t.request('GET', '/api/v1/orgs/nosuch/teams/search', { headers: as('outsider') }), 404);
    const noOrg = await t.createToken('dev', ['read:user']);
    expectGiteaError(await t.request('GET', '/api/v1/orgs/acme/teams/search', { headers: tokenAuth(noOrg) }), 403, /required scope/);
  });
});
