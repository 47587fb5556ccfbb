import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, addTeamMember, addTeamRepo, createRepo, createTeam } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createOrgAs, logins } from '../../helpers/org.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe.each(PROVIDERS)('REST repository assignees and reviewers (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const url = (p: string) => `/api/v1/repos/${p}`;

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'adminc', 'outsider', 'orgowner', 'coder', 'preader', 'ireader', 'sleepy'])
      users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    const priv = await createRepo(t, users.alice!, 'priv', { private: true });
    await createRepo(t, users.alice!, 'pub');
    for (const [name, mode] of [
      ['reader', 'read'],
      ['writer', 'write'],
      ['adminc', 'admin'],
      ['sleepy', 'write'],
    ] as const)
      await addCollaborator(t, priv, users[name]!, mode);
    await t.db.user.update({ where: { id: users.sleepy!.id }, data: { isActive: false } });
    const org = await createOrgAs(t, users.orgowner!, 'acme');
    users.acme = org;
    const orepo = await createRepo(t, users.orgowner!, 'orepo', { private: true, org });
    for (const [team, member, units] of [
      ['coders', 'coder', { 'repo.code': 'write' }],
      ['pullreaders', 'preader', { 'repo.pulls': 'read' }],
      ['issuereaders', 'ireader', { 'repo.issues': 'read' }],
    ] as const) {
      const row = await createTeam(t, users.orgowner!, org, { name: team, permission: 'read', unitsMap: units });
      await addTeamMember(t, users.orgowner!, row, users[member]!);
      await addTeamRepo(t, users.orgowner!, row, orepo);
    }
  });
  afterAll(() => t.close());

  it('lists assignees: writers by name, the owning user last; not readers, inactive users or organizations', async () => {
    const res = await t.request('GET', url('alice/priv/assignees'), { headers: as('reader') });
    expect(res.statusCode).toBe(200);
    expect(logins(res.json())).toEqual(['adminc', 'writer', 'alice']);
    expect(res.json()[0]).toMatchObject({ login: 'adminc', id: users.adminc!.id });
    // An organization's repository: teams that write a unit or read pull requests; its Owners team; no owner row.
    const org = await t.request('GET', url('acme/orepo/assignees'), { headers: as('orgowner') });
    expect(logins(org.json())).toEqual(['coder', 'orgowner', 'preader']);
    expect(logins((await t.request('GET', url('alice/pub/assignees'), { headers: as('outsider') })).json())).toEqual(['alice']);
  });

  it('checks an assignee with the rule issue assignment applies (Gitea CanBeAssigned)', async () => {
    const check = (p: string, user: string, viewer = 'alice') => t.request('GET', url(`${p}/assignees/${user}`), { headers: as(viewer) });
    for (const user of ['writer', 'adminc', 'alice', 'reader']) {
      const res = await check('alice/priv', user);
      expect({ user, status: res.statusCode, body: res.body }).toEqual({ user, status: 204, body: '' });
    }
    expectGiteaError(await check('alice/priv', 'outsider'), 404);
    expectGiteaError(await check('alice/priv', 'ghost'), 404, 'user does not exist [uid: 0, name: ghost]');
    expectGiteaError(await check('acme/orepo', 'acme', 'orgowner'), 400, /^organization can't be added as assignee/);
    expect((await check('acme/orepo', 'preader', 'orgowner')).statusCode).toBe(204);
    expectGiteaError(await check('acme/orepo', 'ireader', 'orgowner'), 404);
    // Anyone reads a public repository's pull requests, so anyone can be assigned there, as on Gitea.
    expect((await check('alice/pub', 'outsider', 'outsider')).statusCode).toBe(204);
  });

  it('lists reviewers: collaborators and pull-request teams by name, the owning user last; only for who may request', async () => {
    const res = await t.request('GET', url('alice/priv/reviewers'), { headers: as('alice') });
    expect(res.statusCode).toBe(200);
    expect(logins(res.json())).toEqual(['adminc', 'reader', 'writer', 'alice']);
    expect(logins((await t.request('GET', url('alice/priv/reviewers'), { headers: as('reader') })).json())).toEqual([
      'adminc',
      'reader',
      'writer',
      'alice',
    ]);
    expect(logins((await t.request('GET', url('acme/orepo/reviewers'), { headers: as('preader') })).json())).toEqual([
      'orgowner',
      'preader',
    ]);
    // Neither a collaborator nor in a team that reads pull requests (a site admin neither), as Gitea.
    expectGiteaError(
      await t.request('GET', url('alice/pub/reviewers'), { headers: as('outsider') }),
      403,
      'doer has no permission to get reviewers',
    );
    expectGiteaError(
      await t.request('GET', url('acme/orepo/reviewers'), { headers: as('coder') }),
      403,
      'doer has no permission to get reviewers',
    );
    expectGiteaError(await t.request('GET', url('alice/priv/reviewers'), { headers: as('root') }), 403);
  });

  it('answers 404 for a private repository to outsiders, 401 to anonymous callers, 403 to a token without the scope', async () => {
    for (const path of ['assignees', 'assignees/writer', 'reviewers']) {
      const cases: Array<[string, string, number]> = [
        ['anon', 'alice/priv', 404],
        ['outsider', 'alice/priv', 404],
        ['anon', 'alice/pub', 401],
        ['ghost', 'alice/priv', 401],
        ['root', 'alice/priv', path === 'reviewers' ? 403 : path === 'assignees' ? 200 : 204],
      ];
      for (const [viewer, p, status] of cases) {
        const r = await t.request('GET', url(`${p}/${path}`), { headers: as(viewer) });
        expect({ path, viewer, p, status: r.statusCode }).toEqual({ path, viewer, p, status });
      }
      expectGiteaError(await t.request('GET', url(`alice/pub/${path}`)), 401, 'token is required');
      const noRepoScope = await t.createToken('alice', ['read:user']);
      expectGiteaError(
        await t.request('GET', url(`alice/priv/${path}`), { headers: tokenAuth(noRepoScope) }),
        403,
        /token does not have at least one of required scope\(s\)/,
      );
      const repoScope = await t.createToken('alice', ['read:repository']);
      expect((await t.request('GET', url(`alice/priv/${path}`), { headers: tokenAuth(repoScope) })).statusCode).toBeLessThan(300);
    }
  });
});
