import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { addMember, createOrgAs } from '../../helpers/org.ts';

describe.each(PROVIDERS)('REST DELETE /orgs/{org}/repos (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const orgs: Record<string, Models.User> = {};

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['orgowner', 'member', 'outsider']) users[n] = await t.createUser(n);
    orgs.acme = await createOrgAs(t, users.orgowner!, 'acme');
    orgs.other = await createOrgAs(t, users.orgowner!, 'other');
    orgs.hidden = await createOrgAs(t, users.orgowner!, 'hidden', 'PRIVATE');
    await addMember(t, orgs.acme, users.member!);
    for (const name of ['one', 'two']) await createRepo(t, users.orgowner!, name, { org: orgs.acme, autoInit: true });
    await createRepo(t, users.orgowner!, 'keep', { org: orgs.other, autoInit: true });
    await createRepo(t, users.orgowner!, 'secret', { org: orgs.hidden });
  });
  afterAll(() => t.close());

  it("deletes every repository of the organization, its git directories too, and nobody else's", async () => {
    const dirs = ['one', 'two'].map((n) => repoPath(t.config.repositoriesDir, 'acme', n));
    expect(dirs.every((d) => existsSync(d))).toBe(true);
    expectGiteaError(
      await t.request('DELETE', '/api/v1/orgs/acme/repos', { headers: basic('member') }),
      403,
      'Must be an organization owner',
    );
    expect(await t.db.repository.count({ where: { ownerId: orgs.acme!.id } })).toBe(2);
    const res = await t.request('DELETE', '/api/v1/orgs/acme/repos', { headers: basic('orgowner') });
    expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
    expect(await t.db.repository.count({ where: { ownerId: orgs.acme!.id } })).toBe(0);
    expect(dirs.some((d) => existsSync(d))).toBe(false);
    expect((await t.request('GET', '/api/v1/repos/acme/one', { headers: basic('orgowner') })).statusCode).toBe(404);
    expect((await t.request('GET', '/api/v1/repos/other/keep', { headers: basic('orgowner') })).statusCode).toBe(200);
    // Nothing left: still 204.
    expect((await t.request('DELETE', '/api/v1/orgs/acme/repos', { headers: basic('orgowner') })).statusCode).toBe(204);
  });

  it('answers 404 for a private organization to outsiders, 401 anonymous, 403 without both write scopes', async () => {
    expectGiteaError(await t.request('DELETE', '/api/v1/orgs/hidden/repos', { headers: basic('outsider') }), 404);
    expectGiteaError(await t.request('DELETE', '/api/v1/orgs/hidden/repos'), 404);
    expectGiteaError(await t.request('DELETE', '/api/v1/orgs/nosuch/repos', { headers: basic('orgowner') }), 404);
    expectGiteaError(await t.request('DELETE', '/api/v1/orgs/other/repos'), 401);
    for (const scopes of [['write:organization'], ['write:repository'], ['read:organization', 'read:repository']]) {
      const token = await t.createToken('orgowner', scopes);
      expectGiteaError(await t.request('DELETE', '/api/v1/orgs/hidden/repos', { headers: tokenAuth(token) }), 403, /required scope/);
    }
    expect(await t.db.repository.count({ where: { ownerId: orgs.hidden!.id } })).toBe(1);
    const both = await t.createToken('orgowner', ['write:organization', 'write:repository']);
    expect((await t.request('DELETE', '/api/v1/orgs/hidden/repos', { headers: tokenAuth(both) })).statusCode).toBe(204);
    expect(await t.db.repository.count({ where: { ownerId: orgs.hidden!.id } })).toBe(0);
  });
});
