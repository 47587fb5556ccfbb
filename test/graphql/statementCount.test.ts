import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';

const USERS_WITH_TOKENS = '{ users(first: 50) { totalCount nodes { login email accessTokens(first: 5) { totalCount nodes { name } } } } }';

interface UsersWithTokens {
  users: { totalCount: number; nodes: { login: string; email: string; accessTokens: { totalCount: number; nodes: { name: string }[] } }[] };
}

/**
 * The N+1 guard (DESIGN §6): a request's SQL statement count depends on the query's shape, never on how many
 * nodes it returns. Counts include authentication (Basic: a token lookup, then the user).
 */
describe.each(PROVIDERS)('GraphQL SQL statement count (%s)', (provider) => {
  let t: TestApp;
  const admin = basic('countadmin');
  let created = 0;

  /** Adds users (each with two tokens, the admin with none) until there are `n` individual users. */
  async function growTo(n: number): Promise<void> {
    while (created < n - 1) {
      const login = `u${String(created).padStart(2, '0')}`;
      await t.createUser(login);
      await t.createToken(login, ['read:user'], 'first');
      await t.createToken(login, ['read:user'], 'second');
      created++;
    }
  }

  /** Runs the query, checks its answer, and returns how many SQL statements it took. */
  async function count(n: number): Promise<{ statements: number; sql: string[] }> {
    t.queries.length = 0;
    const res = await gql<UsersWithTokens>(t, USERS_WITH_TOKENS, { headers: admin });
    const sql = [...t.queries];
    expect(res.errors).toBeUndefined();
    const users = res.data?.users;
    expect(users?.totalCount).toBe(n);
    expect(users?.nodes).toHaveLength(n);
    expect(users?.nodes[0]).toEqual({ login: 'countadmin', email: 'countadmin@example.com', accessTokens: { totalCount: 0, nodes: [] } });
    for (const u of users?.nodes.slice(1) ?? []) {
      expect(u.accessTokens).toEqual({ totalCount: 2, nodes: [{ name: 'second' }, { name: 'first' }] });
    }
    return { statements: sql.length, sql };
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('countadmin', { admin: true });
  });
  afterAll(() => t.close());

  it('users → accessTokens costs the same number of statements for 3 and for 30 users', async () => {
    await growTo(3);
    const small = await count(3);
    await growTo(30);
    const large = await count(30);
    // Logged so the figures are visible in CI output.
    console.info(
      `[${provider}] users(first: 50) with accessTokens: ${small.statements} statements for 3 users, ${large.statements} for 30`,
    );
    expect(large.statements, large.sql.join('\n')).toBe(small.statements);
    expect(small.statements).toBeLessThanOrEqual(8);
  });

  it('a page of users with tokens beyond the nested page size reports the true totalCount', async () => {
    for (const name of ['third', 'fourth', 'fifth', 'sixth']) await t.createToken('u00', ['read:user'], name);
    t.queries.length = 0;
    const res = await gql<UsersWithTokens>(
      t,
      '{ users(first: 2) { nodes { login accessTokens(first: 5) { totalCount nodes { name } } } } }',
      { headers: admin },
    );
    const statements = t.queries.length;
    expect(res.errors).toBeUndefined();
    expect(res.data?.users.nodes[1]).toEqual({
      login: 'u00',
      accessTokens: { totalCount: 6, nodes: ['sixth', 'fifth', 'fourth', 'third', 'second'].map((name) => ({ name })) },
    });
    type Paged = { user: { accessTokens: { pageInfo: { endCursor: string; hasNextPage: boolean }; nodes: { name: string }[] } } };
    const q =
      'query($after: String) { user(login: "u00") { accessTokens(first: 2, after: $after) { pageInfo { endCursor hasNextPage } nodes { name } } } }';
    const first = await gql<Paged>(t, q, { headers: admin });
    expect(first.data?.user.accessTokens.nodes).toEqual([{ name: 'sixth' }, { name: 'fifth' }]);
    const second = await gql<Paged>(t, q, { headers: admin, variables: { after: first.data?.user.accessTokens.pageInfo.endCursor } });
    expect(second.data?.user.accessTokens.nodes).toEqual([{ name: 'fourth' }, { name: 'third' }]);
    expect(second.data?.user.accessTokens.pageInfo.hasNextPage).toBe(true);
    expect(statements).toBeLessThanOrEqual(8);
  });

  it('viewer { login } is a small constant', async () => {
    t.queries.length = 0;
    const res = await gql<{ viewer: { login: string } }>(t, '{ viewer { login } }', { headers: admin });
    expect(res.data?.viewer.login).toBe('countadmin');
    const statements = t.queries.length;
    console.info(`[${provider}] viewer { login }: ${statements} statements`);
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(3);
  });

  it('user(login:) → accessTokens for another user is refused without running per-token SQL', async () => {
    await t.createUser('plain');
    t.queries.length = 0;
    const res = await gql<{ user: unknown }>(t, '{ user(login: "u00") { accessTokens(first: 5) { totalCount } } }', {
      headers: basic('plain'),
    });
    expect(res.data).toEqual({ user: null });
    expect(res.errors?.[0]?.extensions?.code).toBe('PERMISSION_DENIED');
    expect(t.queries.filter((q) => /AccessToken/.test(q) && !/tokenHash/.test(q))).toEqual([]);
  });
});
