import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

/** DELETE /repos/{owner}/{repo}. */
describe.each(PROVIDERS)('REST repository delete (%s)', (provider) => {
  let t: TestApp;
  const owner = basic('dlowner');
  const collab = basic('dlcollab');
  const teamAdmin = basic('dlteamadmin');
  const outsider = basic('dloutsider');
  const admin = basic('dladmin');
  const gitdir = (o: string, r: string) => path.join(t.config.repositoriesDir, o, `${r}.git`);
  const create = async (url: string, name: string, extra: Record<string, unknown> = {}) => {
    const res = await t.request('POST', `/api/v1${url}`, { headers: owner, body: { name, auto_init: true, ...extra } });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };
  const del = (full: string, headers: Record<string, string>) => t.request('DELETE', `/api/v1/repos/${full}`, { headers });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const u of ['dlowner', 'dlcollab', 'dlteamadmin', 'dloutsider']) await t.createUser(u);
    await t.createUser('dladmin', { admin: true });
    expect((await t.request('POST', '/api/v1/orgs', { headers: owner, body: { username: 'dlorg' } })).statusCode).toBe(201);
    const team = await t.request('POST', '/api/v1/orgs/dlorg/teams', {
      headers: owner,
      body: { name: 'admins', permission: 'admin', includes_all_repositories: true },
    });
    expect(
      (await t.request('PUT', `/api/v1/teams/${(team.json() as { id: number }).id}/members/dlteamadmin`, { headers: owner })).statusCode,
    ).toBe(204);
  });
  afterAll(() => t.close());

  it('the owner deletes: row, directory and counter go; the name can be reused', async () => {
    const id = await create('/user/repos', 'gone', { private: true });
    const collabUser = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'dlcollab' } });
    await t.db.collaboration.create({ data: { repoId: id, userId: collabUser.id, mode: 'ADMIN' } });
    expect(existsSync(gitdir('dlowner', 'gone'))).toBe(true);
    expectGiteaError(await del('dlowner/gone', {}), 401);
    expectGiteaError(await del('dlowner/gone', outsider), 404);
    expectGiteaError(await del('dlowner/gone', collab), 403, 'user should be the owner of the repo');
    const res = await del('dlowner/gone', owner);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.db.repository.count({ where: { id } })).toBe(0);
    expect(existsSync(gitdir('dlowner', 'gone'))).toBe(false);
    expect((await t.db.user.findUniqueOrThrow({ where: { lowerName: 'dlowner' } })).numRepos).toBe(0);
    expectGiteaError(await t.request('GET', '/api/v1/repos/dlowner/gone', { headers: owner }), 404);
    expectGiteaError(await del('dlowner/gone', owner), 404);
    await create('/user/repos', 'gone');
    expect((await t.request('GET', '/api/v1/repos/dlowner/gone', { headers: owner })).json()).toMatchObject({
      empty: false,
      branch_count: 1,
    });
  });

  it('organization repositories: org owners and site admins may delete, team admins may not', async () => {
    await create('/orgs/dlorg/repos', 'r1');
    await create('/orgs/dlorg/repos', 'r2');
    expectGiteaError(await del('dlorg/r1', teamAdmin), 403, 'Given user is not owner of organization.');
    expectGiteaError(await del('dlorg/r1', outsider), 403, 'user should be the owner of the repo');
    expect((await del('dlorg/r1', owner)).statusCode).toBe(204);
    expect((await del('dlorg/r2', admin)).statusCode).toBe(204);
    expect(existsSync(gitdir('dlorg', 'r1'))).toBe(false);
    expect(existsSync(gitdir('dlorg', 'r2'))).toBe(false);
    const org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'dlorg' } });
    expect(org.numRepos).toBe(0);
    const teams = await t.db.team.findMany({ where: { orgId: org.id } });
    expect(teams.map((x) => x.numRepos)).toEqual([0, 0]);
  });

  it('site admins delete any user repository', async () => {
    await create('/user/repos', 'byadmin');
    expect((await del('dlowner/byadmin', admin)).statusCode).toBe(204);
    expect(existsSync(gitdir('dlowner', 'byadmin'))).toBe(false);
  });
});
