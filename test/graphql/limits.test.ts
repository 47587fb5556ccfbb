import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTION_SIZE } from '../../src/graphql/builder.ts';
import { LIMITS } from '../../src/graphql/limits/limits.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql } from '../helpers/graphql.ts';

const HEAVY = 'users(first: 100) { nodes { accessTokens(first: 100) { nodes { name } } } }';
const aliased = (n: number, body = HEAVY) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${body}`).join(' ')} }`;
/** `__type(name: "User") { ofType { … name } }` with `levels` ofType levels: depth levels + 2. */
const introspectionChain = (levels: number) => {
  let inner = 'name';
  for (let i = 0; i < levels; i++) inner = `ofType { ${inner} }`;
  return `{ __type(name: "User") { ${inner} } }`;
};

describe.each(PROVIDERS)('GraphQL limits and endpoints (%s)', (provider) => {
  let t: TestApp;
  const admin = basic('limitadmin');

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('limitadmin', { admin: true });
    await t.createToken('limitadmin', ['all'], 'one');
  });
  afterAll(() => t.close());

  describe('query cost', () => {
    it('accepts two aliases of a 100×100 connection query (GitHub formula: about 20k each)', async () => {
      const res = await gql<Record<string, { nodes: { accessTokens: { nodes: { name: string }[] } }[] }>>(t, aliased(2), {
        headers: admin,
      });
      expect(res.errors).toBeUndefined();
      expect(res.data?.a0?.nodes).toEqual([{ accessTokens: { nodes: [{ name: 'one' }] } }]);
    });

    it('rejects the same query under enough aliases, naming the complexity limit', async () => {
      const res = await gql<unknown>(t, aliased(3), { headers: admin });
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)[0]).toBe('QUERY_TOO_COMPLEX');
      const err = res.errors?.[0];
      expect(err?.message).toMatch(new RegExp(`complexity limit.*maximum of ${LIMITS.complexity}`));
      expect(err?.extensions).toMatchObject({ limit: 'complexity', max: LIMITS.complexity });
      expect(Number(err?.extensions?.value)).toBeGreaterThan(LIMITS.complexity);
    });

    it('applies before anything runs (no SQL beyond authentication)', async () => {
      t.queries.length = 0;
      await gql<unknown>(t, '{ __typename }', { headers: admin });
      const authOnly = [...t.queries];
      t.queries.length = 0;
      const res = await gql<unknown>(t, aliased(3), { headers: admin });
      expect(errorCodes(res)[0]).toBe('QUERY_TOO_COMPLEX');
      expect(t.queries).toEqual(authOnly);
    });

    it('rejects a query wider than the breadth limit', async () => {
      const res = await gql<unknown>(t, aliased(Math.ceil(LIMITS.breadth / 2) + 1, 'user(login: "limitadmin") { login }'), {
        headers: admin,
      });
      expect(errorCodes(res)[0]).toBe('QUERY_TOO_COMPLEX');
      expect(res.errors?.[0]?.message).toMatch(new RegExp(`breadth limit.*maximum of ${LIMITS.breadth}`));
    });
  });

  describe('depth', () => {
    it(`accepts a query exactly ${LIMITS.depth} deep`, async () => {
      const res = await gql<{ __type: unknown }>(t, introspectionChain(LIMITS.depth - 2));
      expect(res.errors).toBeUndefined();
      expect(res.data?.__type).toEqual({ ofType: null });
    });

    it('rejects a deeper query with an error naming the depth limit', async () => {
      const res = await gql<unknown>(t, introspectionChain(LIMITS.depth - 1));
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(res.errors?.[0]?.message).toBe(
        `Query exceeds the depth limit: depth ${LIMITS.depth + 1} is more than the maximum of ${LIMITS.depth}`,
      );
      expect(res.errors?.[0]?.extensions).toMatchObject({ limit: 'depth', value: LIMITS.depth + 1, max: LIMITS.depth });
    });

    it('counts depth through fragments', async () => {
      const half = (n: number) => Array.from({ length: n }).reduce<string>((inner) => `ofType { ${inner} }`, 'name');
      const q = `query { __type(name: "User") { ...Deep } } fragment Deep on __Type { ${half(LIMITS.depth)} }`;
      const res = await gql<unknown>(t, q);
      expect(errorCodes(res)).toEqual(['QUERY_TOO_COMPLEX']);
      expect(res.errors?.[0]?.message).toMatch(/depth limit/);
    });

    it("accepts GraphiQL's full introspection query", async () => {
      const res = await gql<{ __schema: { types: { name: string }[] } }>(t, getIntrospectionQuery());
      expect(res.errors).toBeUndefined();
      expect(res.data?.__schema.types.map((ty) => ty.name)).toContain('User');
    });
  });

  describe('page size', () => {
    it.each([
      ['first', '{ users(first: 101) { totalCount } }', 'users'],
      ['last', '{ users(last: 101) { totalCount } }', 'users'],
      ['first', '{ viewer { accessTokens(first: 101) { totalCount } } }', 'accessTokens'],
    ])(`rejects %s: 101 (max ${MAX_CONNECTION_SIZE}) on %s`, async (arg, query, connection) => {
      const res = await gql<unknown>(t, query, { headers: admin });
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)).toEqual(['EXCESSIVE_PAGINATION']);
      expect(res.errors?.[0]?.message).toBe(
        `Requesting 101 records on the \`${connection}\` connection exceeds the \`${arg}\` limit of 100 records.`,
      );
    });

    it('rejects an oversized page passed through a variable', async () => {
      const res = await gql<unknown>(t, 'query($n: Int) { users(first: $n) { totalCount } }', { variables: { n: 101 }, headers: admin });
      expect(errorCodes(res)).toEqual(['EXCESSIVE_PAGINATION']);
    });

    it('rejects a negative page size', async () => {
      const res = await gql<unknown>(t, '{ users(first: -1) { totalCount } }', { headers: admin });
      expect(errorCodes(res)).toEqual(['INVALID_ARGUMENT']);
    });

    it('accepts first: 100', async () => {
      const res = await gql<{ users: { totalCount: number } }>(t, '{ users(first: 100) { totalCount nodes { login } } }', {
        headers: admin,
      });
      expect(res.errors).toBeUndefined();
      expect(res.data?.users.totalCount).toBe(1);
    });
  });

  describe('endpoints', () => {
    const EXTERNAL_ASSET = /<(script|link)\b[^>]*\b(src|href)\s*=\s*["']?(https?:)?\/\//i;
    const CDN_URL = /https?:\/\/[^\s"'`)]*(unpkg|cdn)/i;

    it.each(['/api/graphql', '/graphql'])('GET %s from a browser is GraphiQL, self-contained (works offline)', async (url) => {
      const res = await t.request('GET', url, { headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>Forgegraph GraphQL</title>');
      expect(res.body).not.toMatch(CDN_URL);
      expect(res.body).not.toMatch(EXTERNAL_ASSET);
    });

    it('/graphql answers POST like /api/graphql', async () => {
      const viaAlias = await gql<{ viewer: { login: string } }>(t, '{ viewer { login } }', { headers: admin, path: '/graphql' });
      expect(viaAlias.status).toBe(200);
      expect(viaAlias.data).toEqual({ viewer: { login: 'limitadmin' } });
      const anonymous = await gql<unknown>(t, '{ viewer { login } }', { path: '/graphql' });
      expect(errorCodes(anonymous)).toEqual(['UNAUTHENTICATED']);
    });

    it('/graphql answers GET queries with credentials in the query string', async () => {
      const token = await t.createToken('limitadmin', ['read:user'], 'get-alias');
      const res = await t.request('GET', `/graphql?query=${encodeURIComponent('{ viewer { login } }')}&token=${token}`, {
        headers: { accept: 'application/json' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { viewer: { login: 'limitadmin' } } });
    });

    it('GET does not run mutations', async () => {
      const q = 'mutation { deleteUser(input: { login: "limitadmin" }) { __typename } }';
      const res = await t.request('GET', `/api/graphql?query=${encodeURIComponent(q)}`, {
        headers: { ...admin, accept: 'application/json' },
      });
      expect(res.statusCode).toBe(405);
      expect((await gql<{ viewer: { login: string } }>(t, '{ viewer { login } }', { headers: admin })).data?.viewer.login).toBe(
        'limitadmin',
      );
    });
  });
});
