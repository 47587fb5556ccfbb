import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createOrgAs } from '../../helpers/org.ts';
import { GitClient, gitUrl } from '../../githttp/gitClient.ts';
import { listenBase } from '../../runner/runnerClient.ts';

/** POST /admin/users/{username}/rename (Gitea RenameUser): checks, repositories and their files follow, the old name redirects. */
describe.each(PROVIDERS)('admin rename user (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  const rename = (user: string, body: unknown, who = 'root') =>
    t.request('POST', `/api/v1/admin/users/${user}/rename`, { headers: basic(who), body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    git = new GitClient();
    await t.createUser('root', { admin: true });
    const alice = await t.createUser('alice');
    await t.createUser('bob');
    await t.createUser('hidden', { visibility: 'PRIVATE' });
    await createOrgAs(t, alice, 'acme');
    for (const body of [
      { name: 'proj', auto_init: true },
      { name: 'proj.wiki-less', private: true },
    ]) {
      expect((await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body })).statusCode).toBe(201);
    }
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('refuses non-admins, unknown users, organizations and names Gitea would not accept', async () => {
    expectGiteaError(await t.request('POST', '/api/v1/admin/users/alice/rename', { body: { new_username: 'x' } }), 401);
    expectGiteaError(await rename('alice', { new_username: 'alicia' }, 'bob'), 403);
    expectGiteaError(await rename('nobody', { new_username: 'alicia' }), 404);
    expectGiteaError(await rename('acme', { new_username: 'acme2' }), 422, 'acme is an organization not a user');
    expectGiteaError(await rename('alice', {}), 422);
    expectGiteaError(await rename('alice', { new_username: 'bad name' }), 422);
    expectGiteaError(await rename('alice', { new_username: 'api' }), 422, 'name is reserved [name: api]');
    expectGiteaError(await rename('alice', { new_username: 'x.keys' }), 422, 'name pattern is not allowed [pattern: *.keys]');
    expectGiteaError(await rename('alice', { new_username: 'BOB' }), 422, 'user already exists [name: BOB]');
    expect((await t.request('GET', '/api/v1/users/alice')).statusCode).toBe(200);
  });

  it('renames: repositories, their files and sign-in follow; the old name answers 307 to the new one', async () => {
    const before = repoPath(t.config.repositoriesDir, 'alice', 'proj');
    expect(existsSync(before)).toBe(true);
    const res = await rename('alice', { new_username: 'alicia' });
    expect(res.statusCode, res.body).toBe(204);

    expect((await t.request('GET', '/api/v1/users/alicia')).json()).toMatchObject({ login: 'alicia' });
    expect(existsSync(before)).toBe(false);
    expect(existsSync(repoPath(t.config.repositoriesDir, 'alicia', 'proj'))).toBe(true);
    const repo = await t.request('GET', '/api/v1/repos/alicia/proj');
    expect(repo.json()).toMatchObject({ full_name: 'alicia/proj', owner: { login: 'alicia' } });
    const branches = await t.request('GET', '/api/v1/repos/alicia/proj/branches');
    expect(branches.json<Array<{ name: string }>>().map((b) => b.name)).toEqual(['main']);
    const mine = await t.request('GET', '/api/v1/user/repos', { headers: basic('alicia') });
    expect(
      mine
        .json<Array<{ full_name: string }>>()
        .map((r) => r.full_name)
        .sort(),
    ).toEqual(['alicia/proj', 'alicia/proj.wiki-less']);

    const old = await t.request('GET', '/api/v1/users/alice/repos?limit=1');
    expect(old.statusCode).toBe(307);
    expect(old.headers.location).toBe('/api/v1/users/alicia/repos?limit=1');
    const oldRepo = await t.request('GET', '/api/v1/repos/alice/proj/branches');
    expect([oldRepo.statusCode, oldRepo.headers.location]).toEqual([307, '/api/v1/repos/alicia/proj/branches']);
    const adminOld = await t.request('PATCH', '/api/v1/admin/users/alice', { headers: basic('root'), body: { login_name: 'a' } });
    expect([adminOld.statusCode, adminOld.headers.location]).toEqual([307, '/api/v1/admin/users/alicia']);
    // The private repository stays invisible under the old owner name to those who cannot see it.
    expectGiteaError(await t.request('GET', '/api/v1/repos/alicia/proj.wiki-less', { headers: basic('bob') }), 404);

    // git over HTTP: the old clone URL redirects (git follows the first request's redirect).
    const port = Number(new URL(await listenBase(t)).port);
    const dir = git.dir('clone');
    await git.ok(['clone', '-q', gitUrl(port, 'alice', 'proj', { user: 'alicia', secret: PASSWORD }), dir]);
    expect((await git.ok(['log', '--format=%s'], { cwd: dir })).trim()).not.toBe('');
  });

  it('a case-only change rewrites the name without a redirect; a new account may take an old name', async () => {
    expect((await rename('alicia', { new_username: 'Alicia' })).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/users/alicia')).json()).toMatchObject({ login: 'Alicia' });
    expect((await t.request('GET', '/api/v1/repos/alicia/proj')).json()).toMatchObject({ full_name: 'Alicia/proj' });
    expect(await t.db.userRedirect.count({ where: { lowerName: 'alicia' } })).toBe(0);
    expect((await rename('Alicia', { new_username: 'Alicia' })).statusCode).toBe(204);

    await t.createUser('alice', { email: 'second-alice@example.com' });
    expect((await t.request('GET', '/api/v1/users/alice')).json()).toMatchObject({ login: 'alice' });
    expect((await t.request('GET', '/api/v1/repos/alice/proj')).statusCode).toBe(404);
  });

  it("does not reveal a private account's new name", async () => {
    expect((await rename('hidden', { new_username: 'hidden2' })).statusCode).toBe(204);
    expectGiteaError(await t.request('GET', '/api/v1/users/hidden'), 404);
    const admin = await t.request('GET', '/api/v1/users/hidden', { headers: basic('root') });
    expect([admin.statusCode, admin.headers.location]).toEqual([307, '/api/v1/users/hidden2']);
  });
});
