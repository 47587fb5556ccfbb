import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, addTeamMember, addTeamRepo, createRepo, createTeam } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createOrgAs } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
const names = (body: unknown): string[] => (body as Array<{ name: string }>).map((t) => t.name);

describe.each(PROVIDERS)('REST repository teams (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const teams: Record<string, Models.Team> = {};
  let orepo: Models.Repository;
  const url = (p: string) => `/api/v1/repos/${p}`;
  const linked = async (team: string) =>
    (await t.db.teamRepo.findFirst({ where: { teamId: teams[team]!.id, repoId: orepo.id }, select: { id: true } })) !== null;

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'orgowner', 'dev', 'late', 'adminc', 'outsider']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    const org = await createOrgAs(t, users.orgowner!, 'acme');
    orepo = await createRepo(t, users.orgowner!, 'orepo', { private: true, org });
    await createRepo(t, users.orgowner!, 'pubrepo', { org });
    await createRepo(t, users.alice!, 'mine');
    for (const [name, visibility, member] of [
      ['devs', 'private', 'dev'],
      ['pubteam', 'public', null],
      ['other', 'public', 'late'],
    ] as const) {
      teams[name] = await createTeam(t, users.orgowner!, org, {
        name,
        permission: 'write',
        units: ['repo.code', 'repo.issues'],
        visibility,
      });
      if (member) await addTeamMember(t, users.orgowner!, teams[name]!, users[member]!);
    }
    await addTeamRepo(t, users.orgowner!, teams.devs!, orepo);
    await addTeamRepo(t, users.orgowner!, teams.pubteam!, orepo);
    await addCollaborator(t, orepo, users.adminc!, 'admin');
  });
  afterAll(() => t.close());

  it('lists the teams that have the repository, Owners first, as the team read policy lets the viewer see them', async () => {
    const res = await t.request('GET', url('acme/orepo/teams'), { headers: as('orgowner') });
    expect(res.statusCode).toBe(200);
    expect(names(res.json())).toEqual(['Owners', 'devs', 'pubteam']);
    expect(res.json()[1]).toMatchObject({
      id: teams.devs!.id,
      organization: null,
      permission: 'none',
      units: ['repo.code', 'repo.issues'],
    });
    // A collaborator outside the organization sees its public teams only.
    expect(names((await t.request('GET', url('acme/orepo/teams'), { headers: as('adminc') })).json())).toEqual(['pubteam']);
    expectGiteaError(
      await t.request('GET', url('alice/mine/teams'), { headers: as('alice') }),
      405,
      'repo is not owned by an organization',
    );
  });

  it('checks one team: 200 with the team when it has the repository, 404 otherwise', async () => {
    const res = await t.request('GET', url('acme/orepo/teams/DEVS'), { headers: as('dev') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: teams.devs!.id, name: 'devs', organization: null, visibility: 'private' });
    expectGiteaError(await t.request('GET', url('acme/orepo/teams/other'), { headers: as('orgowner') }), 404, 'not found');
    const org = await t.db.user.findFirstOrThrow({ where: { lowerName: 'acme' } });
    expectGiteaError(
      await t.request('GET', url('acme/orepo/teams/ghost'), { headers: as('orgowner') }),
      404,
      `team does not exist [org_id ${org.id}, team_id 0, name: ghost]`,
    );
    // A private team is not revealed to a reader who may not read it.
    expectGiteaError(await t.request('GET', url('acme/orepo/teams/devs'), { headers: as('adminc') }), 404);
    expectGiteaError(await t.request('GET', url('alice/mine/teams/devs'), { headers: as('alice') }), 405);
  });

  it('adds and removes a team through the same link as /teams/{id}/repos: its members gain and lose the repository', async () => {
    expectGiteaError(await t.request('GET', url('acme/orepo'), { headers: as('late') }), 404);
    const put = await t.request('PUT', url('acme/orepo/teams/other'), { headers: as('orgowner') });
    expect({ status: put.statusCode, body: put.body }).toEqual({ status: 204, body: '' });
    expect(await linked('other')).toBe(true);
    expect((await t.db.team.findUniqueOrThrow({ where: { id: teams.other!.id } })).numRepos).toBe(1);
    expect((await t.request('GET', url('acme/orepo'), { headers: as('late') })).statusCode).toBe(200);
    expect((await t.request('GET', url('acme/orepo/teams/other'), { headers: as('late') })).statusCode).toBe(200);
    expectGiteaError(
      await t.request('PUT', url('acme/orepo/teams/other'), { headers: as('orgowner') }),
      422,
      "team 'other' is already added to repo",
    );
    const del = await t.request('DELETE', url('acme/orepo/teams/other'), { headers: as('root') });
    expect(del.statusCode).toBe(204);
    expect(await linked('other')).toBe(false);
    expectGiteaError(await t.request('GET', url('acme/orepo'), { headers: as('late') }), 404);
    expectGiteaError(
      await t.request('DELETE', url('acme/orepo/teams/other'), { headers: as('orgowner') }),
      422,
      "team 'other' was not added to repo",
    );
    expectGiteaError(
      await t.request('PUT', url('alice/mine/teams/other'), { headers: as('alice') }),
      405,
      'repo is not owned by an organization',
    );
  });

  it('lets repository admins change team access only when the organization allows it', async () => {
    expectGiteaError(
      await t.request('PUT', url('acme/orepo/teams/other'), { headers: as('adminc') }),
      403,
      'user is nor repo admin nor owner',
    );
    expectGiteaError(
      await t.request('PUT', url('acme/orepo/teams/other'), { headers: as('dev') }),
      403,
      'user should be an owner or a collaborator with admin write of a repository',
    );
    await t.db.user.update({ where: { lowerName: 'acme' }, data: { repoAdminChangeTeamAccess: true } });
    try {
      expect((await t.request('PUT', url('acme/orepo/teams/other'), { headers: as('adminc') })).statusCode).toBe(204);
      expect(await linked('other')).toBe(true);
      // A team the admin may not read does not exist for them.
      expectGiteaError(await t.request('DELETE', url('acme/orepo/teams/devs'), { headers: as('adminc') }), 404);
      expect((await t.request('DELETE', url('acme/orepo/teams/other'), { headers: as('adminc') })).statusCode).toBe(204);
      expect(await linked('other')).toBe(false);
    } finally {
      await t.db.user.update({ where: { lowerName: 'acme' }, data: { repoAdminChangeTeamAccess: false } });
    }
  });

  it('answers 404 for a private repository to outsiders, 401 to anonymous callers, 403 to a token without the scope', async () => {
    for (const [method, path] of [
      ['GET', 'teams'],
      ['GET', 'teams/devs'],
      ['PUT', 'teams/other'],
      ['DELETE', 'teams/devs'],
    ] as const) {
      for (const viewer of ['anon', 'outsider'])
        expectGiteaError(await t.request(method, url(`acme/orepo/${path}`), { headers: as(viewer) }), 404);
      expectGiteaError(await t.request(method, url(`acme/pubrepo/${path}`)), 401, 'token is required');
      const noScope = await t.createToken('orgowner', ['write:organization']);
      expectGiteaError(
        await t.request(method, url(`acme/orepo/${path}`), { headers: tokenAuth(noScope) }),
        403,
        /token does not have at least one of required scope\(s\)/,
      );
    }
    const readOnly = await t.createToken('orgowner', ['read:repository']);
    expect((await t.request('GET', url('acme/orepo/teams'), { headers: tokenAuth(readOnly) })).statusCode).toBe(200);
    expectGiteaError(await t.request('PUT', url('acme/orepo/teams/other'), { headers: tokenAuth(readOnly) }), 403, /required scope/);
    expect(await linked('other')).toBe(false);
  });
});
