import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createOrgRow, expectGiteaError, linkHeader } from '../../helpers/giteaAssert.ts';

const ROUTES = ['/api/v1/admin/emails', '/api/v1/admin/emails/search'];

describe.each(PROVIDERS)('admin e-mail REST (%s)', (provider) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let root: Models.User;
  let alice: Models.User;
  let bob: Models.User;
  const get = (url: string, headers: Record<string, string> = admin) => t.request('GET', url, { headers });
  const emails = (res: { json(): unknown }) => (res.json() as Array<{ email: string }>).map((e) => e.email);

  beforeAll(async () => {
    t = await startTestApp(provider);
    root = await t.createUser('root', { admin: true });
    alice = await t.createUser('alice', { fullName: 'Alice Liddell' });
    bob = await t.createUser('bob', { fullName: 'Robert Smith', email: 'bob@corp.test' });
    await t.db.emailAddress.createMany({
      data: [
        { userId: alice.id, email: 'Wonder@Land.test', lowerEmail: 'wonder@land.test', isActivated: false },
        { userId: bob.id, email: 'Zed@bob.test', lowerEmail: 'zed@bob.test', isActivated: true },
      ],
    });
    // An organization's contact address sorts first but is never listed.
    await createOrgRow(t, 'acme', 'contact@acme.test');
    admin = tokenAuth(await t.createToken('root', ['read:admin']));
  });
  afterAll(() => t.close());

  describe.each(ROUTES)('%s auth gates', (url) => {
    it('anonymous → 401 token is required', async () => {
      expectGiteaError(await get(url, {}), 401, 'token is required');
    });

    it('a non-admin → 403 (basic and an admin-scoped token alike)', async () => {
      expectGiteaError(await get(url, basic('alice')), 403, 'user should be the site admin');
      expectGiteaError(await get(url, tokenAuth(await t.createToken('alice', ['read:admin']))), 403, 'user should be the site admin');
    });

    it('an admin token without read:admin → 403 scope message', async () => {
      const res = await get(url, tokenAuth(await t.createToken('root', ['write:user', 'read:repository'])));
      expectGiteaError(
        res,
        403,
        'token does not have at least one of required scope(s), required=[read:admin], token scope=read:repository,write:user',
      );
    });

    it('an admin by password, or with read:admin or write:admin, may list', async () => {
      for (const headers of [basic('root'), admin, tokenAuth(await t.createToken('root', ['write:admin']))]) {
        const res = await get(url, headers);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toHaveLength(5);
      }
    });
  });

  it("GET /admin/emails lists individual users' addresses by address with owner id and name", async () => {
    const res = await get('/api/v1/admin/emails');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(res.headers['x-total-count']).toBe('5');
    expect(res.headers['access-control-expose-headers']).toContain('X-Total-Count');
    expect(res.headers.link).toBeUndefined();
    expect(res.json()).toEqual([
      { email: 'alice@example.com', verified: true, primary: true, user_id: alice.id, username: 'alice' },
      { email: 'bob@corp.test', verified: true, primary: true, user_id: bob.id, username: 'bob' },
      { email: 'root@example.com', verified: true, primary: true, user_id: root.id, username: 'root' },
      { email: 'Wonder@Land.test', verified: false, primary: false, user_id: alice.id, username: 'alice' },
      { email: 'Zed@bob.test', verified: true, primary: false, user_id: bob.id, username: 'bob' },
    ]);
  });

  it('GET /admin/emails ignores q (only /search filters)', async () => {
    const res = await get('/api/v1/admin/emails?q=alice');
    expect(emails(res)).toHaveLength(5);
    expect(res.headers['x-total-count']).toBe('5');
  });

  it.each([
    ['ALICE', ['alice@example.com', 'Wonder@Land.test']],
    ['liddell', ['alice@example.com', 'Wonder@Land.test']],
    ['Robert', ['bob@corp.test', 'Zed@bob.test']],
    ['sMiTh', ['bob@corp.test', 'Zed@bob.test']],
    ['LAND.test', ['Wonder@Land.test']],
    ['corp', ['bob@corp.test']],
    ['%20%20zed%20', ['Zed@bob.test']],
    ['ro', ['bob@corp.test', 'root@example.com', 'Zed@bob.test']],
    ['acme', []],
    ['nothing-matches', []],
    ['', ['alice@example.com', 'bob@corp.test', 'root@example.com', 'Wonder@Land.test', 'Zed@bob.test']],
  ])('search ?q=%s matches address, login or full name case-insensitively', async (q, expected) => {
    const res = await get(`/api/v1/admin/emails/search?q=${q}`);
    expect(res.statusCode).toBe(200);
    expect(emails(res)).toEqual(expected);
    expect(res.headers['x-total-count']).toBe(String(expected.length));
    expect(res.headers.link).toBeUndefined();
  });

  it('search results carry the owner', async () => {
    const res = await get('/api/v1/admin/emails/search?q=wonder');
    expect(res.json()).toEqual([{ email: 'Wonder@Land.test', verified: false, primary: false, user_id: alice.id, username: 'alice' }]);
  });

  const E = 'admin/emails';
  it.each([
    [
      'admin/emails?limit=2',
      ['alice@example.com', 'bob@corp.test'],
      '<http://localhost:3000/api/v1/admin/emails?limit=2&page=2>; rel="next",<http://localhost:3000/api/v1/admin/emails?limit=2&page=3>; rel="last"',
    ],
    [
      'admin/emails?page=2&limit=2',
      ['root@example.com', 'Wonder@Land.test'],
      linkHeader(E, { limit: '2' }, [
        ['next', 3],
        ['last', 3],
        ['first', 1],
        ['prev', 1],
      ]),
    ],
    [
      'admin/emails?limit=2&page=3',
      ['Zed@bob.test'],
      '<http://localhost:3000/api/v1/admin/emails?limit=2&page=1>; rel="first",<http://localhost:3000/api/v1/admin/emails?limit=2&page=2>; rel="prev"',
    ],
    [
      'admin/emails?limit=2&page=7',
      [],
      linkHeader(E, { limit: '2' }, [
        ['first', 1],
        ['prev', 2],
      ]),
    ],
    [
      'admin/emails?limit=0&page=0',
      ['alice@example.com', 'bob@corp.test', 'root@example.com', 'Wonder@Land.test', 'Zed@bob.test'],
      undefined,
    ],
    [
      'admin/emails/search?q=bob&limit=1',
      ['bob@corp.test'],
      '<http://localhost:3000/api/v1/admin/emails/search?limit=1&page=2&q=bob>; rel="next",<http://localhost:3000/api/v1/admin/emails/search?limit=1&page=2&q=bob>; rel="last"',
    ],
    [
      'admin/emails/search?page=2&q=bob&limit=1',
      ['Zed@bob.test'],
      linkHeader(`${E}/search`, { q: 'bob', limit: '1' }, [
        ['first', 1],
        ['prev', 1],
      ]),
    ],
  ])("%s pages with X-Total-Count and Gitea's Link header", async (path, expected, link) => {
    const res = await get(`/api/v1/${path}`);
    expect(res.statusCode).toBe(200);
    expect(emails(res)).toEqual(expected);
    expect(res.headers['x-total-count']).toBe(path.includes('q=bob') ? '2' : '5');
    expect(res.headers.link).toBe(link);
  });

  it('limit defaults to 30 and is clamped to 50', async () => {
    await t.db.emailAddress.createMany({
      data: Array.from({ length: 60 }, (_, i) => ({
        userId: alice.id,
        email: `bulk${String(i).padStart(2, '0')}@alice.test`,
        lowerEmail: `bulk${String(i).padStart(2, '0')}@alice.test`,
      })),
    });
    const dflt = await get('/api/v1/admin/emails');
    expect(dflt.json()).toHaveLength(30);
    expect(dflt.headers['x-total-count']).toBe('65');
    expect(dflt.headers.link).toBe(
      '<http://localhost:3000/api/v1/admin/emails?page=2>; rel="next",<http://localhost:3000/api/v1/admin/emails?page=3>; rel="last"',
    );
    const big = await get('/api/v1/admin/emails?limit=500');
    expect(big.json()).toHaveLength(50);
    expect(big.headers.link).toBe(
      '<http://localhost:3000/api/v1/admin/emails?limit=500&page=2>; rel="next",<http://localhost:3000/api/v1/admin/emails?limit=500&page=2>; rel="last"',
    );
  });
});
