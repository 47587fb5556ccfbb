import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createOrgAs } from '../../helpers/org.ts';

describe.each(PROVIDERS)('REST GET /admin/orgs, POST /admin/users/{username}/orgs (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  beforeAll(async () => {
    t = await startTestApp(provider);
    users.root = await t.createUser('root', { admin: true });
    for (const n of ['alice', 'bob']) users[n] = await t.createUser(n);
    await createOrgAs(t, users.alice!, 'zeta');
    await createOrgAs(t, users.alice!, 'beta', 'PRIVATE');
    await createOrgAs(t, users.alice!, 'Alpha', 'LIMITED');
  });
  afterAll(() => t.close());

  it('lists every organization, whatever its visibility, alphabetically, for site admins only', async () => {
    const res = await t.request('GET', '/api/v1/admin/orgs', { headers: basic('root') });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Array<{ username: string }>).map((o) => o.username)).toEqual(['Alpha', 'beta', 'zeta']);
    expect(res.headers['x-total-count']).toBe('3');
    const page = await t.request('GET', '/api/v1/admin/orgs?limit=1&page=2', { headers: basic('root') });
    expect((page.json() as Array<{ username: string }>).map((o) => o.username)).toEqual(['beta']);
    expect(page.headers.link).toContain('rel="next"');
    expectGiteaError(await t.request('GET', '/api/v1/admin/orgs', { headers: basic('alice') }), 403, 'user should be the site admin');
    expectGiteaError(await t.request('GET', '/api/v1/admin/orgs'), 401);
    const noAdmin = await t.createToken('root', ['read:organization']);
    expectGiteaError(await t.request('GET', '/api/v1/admin/orgs', { headers: tokenAuth(noAdmin) }), 403, /required scope/);
  });

  it('creates an organization owned by the named user, who joins its Owners team', async () => {
    const res = await t.request('POST', '/api/v1/admin/users/bob/orgs', {
      headers: basic('root'),
      body: { username: 'bobco', full_name: 'Bob & Co', visibility: 'limited' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ username: 'bobco', full_name: 'Bob & Co', visibility: 'limited' });
    const org = await t.db.user.findFirstOrThrow({ where: { lowerName: 'bobco' } });
    const owners = await t.db.teamUser.findMany({ where: { orgId: org.id, team: { authorize: 'OWNER' } }, select: { userId: true } });
    expect(owners.map((o) => o.userId)).toEqual([users.bob!.id]);
    expect((await t.request('GET', '/api/v1/orgs/bobco/members/bob', { headers: basic('bob') })).statusCode).toBe(204);
    expectGiteaError(
      await t.request('POST', '/api/v1/admin/users/bob/orgs', { headers: basic('root'), body: { username: 'zeta' } }),
      422,
      /already exists/,
    );
    expectGiteaError(await t.request('POST', '/api/v1/admin/users/ghost/orgs', { headers: basic('root'), body: { username: 'g1' } }), 404);
    expectGiteaError(await t.request('POST', '/api/v1/admin/users/zeta/orgs', { headers: basic('root'), body: { username: 'g2' } }), 422);
    expectGiteaError(await t.request('POST', '/api/v1/admin/users/bob/orgs', { headers: basic('alice'), body: { username: 'g3' } }), 403);
    const readAdmin = await t.createToken('root', ['read:admin']);
    expectGiteaError(
      await t.request('POST', '/api/v1/admin/users/bob/orgs', { headers: tokenAuth(readAdmin), body: { username: 'g4' } }),
      403,
      /required scope/,
    );
    expect(await t.db.user.count({ where: { lowerName: { in: ['g1', 'g2', 'g3', 'g4'] } } })).toBe(0);
  });
});
