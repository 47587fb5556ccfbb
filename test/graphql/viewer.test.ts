import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, basic, CREDENTIAL_FORMS, tokenAuth, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql } from '../helpers/graphql.ts';

interface UserFields {
  id?: string;
  login: string;
  email?: string;
  isSiteAdmin?: boolean;
  isActive?: boolean | null;
  lastLoginAt?: string | null;
  visibility?: string;
  isViewer?: boolean;
}

const PRIVATE_FIELDS = 'login email isSiteAdmin isActive lastLoginAt isViewer';

describe.each(PROVIDERS)('GraphQL viewer, user, users, node (%s)', (provider) => {
  let t: TestApp;
  let aliceToken: string;
  const lastLogin = new Date('2024-05-06T07:08:09.000Z');

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('vadmin', { admin: true });
    await t.createUser('alice');
    const bob = await t.createUser('bob');
    await t.createUser('priv', { visibility: 'PRIVATE' });
    await t.createUser('lim', { visibility: 'LIMITED' });
    const secretive = await t.createUser('secretive');
    // Fixture-only columns the services do not expose: a private address and a recorded sign-in.
    await t.db.user.update({ where: { id: secretive.id }, data: { keepEmailPrivate: true } });
    await t.db.user.update({ where: { id: bob.id }, data: { lastLoginAt: lastLogin } });
    aliceToken = await t.createToken('alice', ['all'], 'viewer-all');
  });
  afterAll(() => t.close());

  describe('viewer', () => {
    it.each(CREDENTIAL_FORMS)('works with the %s credential form', async (form) => {
      const auth = authHeaders('alice', form, aliceToken);
      const res = await gql<{ viewer: UserFields }>(t, '{ viewer { login isViewer } }', { headers: auth.headers, query: auth.query });
      expect(res.status).toBe(200);
      expect(res.errors).toBeUndefined();
      expect(res.data?.viewer).toEqual({ login: 'alice', isViewer: true });
    });

    it('is UNAUTHENTICATED for an anonymous request', async () => {
      const res = await gql<{ viewer: UserFields }>(t, '{ viewer { login } }');
      expect(res.data).toBeNull();
      expect(errorCodes(res)).toEqual(['UNAUTHENTICATED']);
      expect(res.errors?.[0]?.path).toEqual(['viewer']);
    });

    it.each([
      ['a wrong password', basic('alice', 'wrong-password')],
      ['an unknown token', tokenAuth('0123456789abcdef0123456789abcdef01234567')],
      ['a Basic header for an unknown user', basic('nobody-here')],
    ])('refuses %s with HTTP 401 and UNAUTHENTICATED', async (_label, headers) => {
      const res = await gql<{ viewer: UserFields }>(t, '{ viewer { login } }', { headers });
      expect(res.status).toBe(401);
      expect(res.data ?? null).toBeNull();
      expect(errorCodes(res)).toEqual(['UNAUTHENTICATED']);
      expect(res.errors?.[0]?.message).toBe('invalid username, password or token');
    });

    it('refuses bad credentials even for a query that needs none', async () => {
      const res = await gql<{ user: UserFields | null }>(t, '{ user(login: "alice") { login } }', { query: 'token=not-a-token' });
      expect(res.status).toBe(401);
      expect(errorCodes(res)).toEqual(['UNAUTHENTICATED']);
    });
  });

  describe('user(login:)', () => {
    const lookup = (login: string, headers: Record<string, string> = {}) =>
      gql<{ user: UserFields | null }>(t, 'query($login: String!) { user(login: $login) { login visibility } }', {
        variables: { login },
        headers,
      });

    it('returns a public user to anyone, case-insensitively', async () => {
      for (const headers of [{}, basic('bob')]) {
        const res = await lookup('ALICE', headers);
        expect(res.errors).toBeUndefined();
        expect(res.data?.user).toEqual({ login: 'alice', visibility: 'PUBLIC' });
      }
    });

    it('returns null, without an error, for a missing user', async () => {
      const res = await lookup('no-such-user', basic('alice'));
      expect(res.errors).toBeUndefined();
      expect(res.data).toEqual({ user: null });
    });

    it('returns null for a private user seen by another non-admin user, and the user to itself and admins', async () => {
      const asBob = await lookup('priv', basic('bob'));
      expect(asBob.errors).toBeUndefined();
      expect(asBob.data).toEqual({ user: null });
      expect((await lookup('priv')).data).toEqual({ user: null });
      expect((await lookup('priv', basic('priv'))).data?.user).toEqual({ login: 'priv', visibility: 'PRIVATE' });
      expect((await lookup('priv', basic('vadmin'))).data?.user).toEqual({ login: 'priv', visibility: 'PRIVATE' });
    });

    it('shows a limited user to signed-in users only', async () => {
      expect((await lookup('lim')).data).toEqual({ user: null });
      expect((await lookup('lim', basic('bob'))).data?.user).toEqual({ login: 'lim', visibility: 'LIMITED' });
    });
  });

  describe('private fields', () => {
    const fields = (login: string, headers: Record<string, string>) =>
      gql<{ user: UserFields | null }>(t, `query($login: String!) { user(login: $login) { ${PRIVATE_FIELDS} } }`, {
        variables: { login },
        headers,
      });

    it('hides isSiteAdmin, isActive and lastLoginAt from other users', async () => {
      const admin = await fields('vadmin', basic('alice'));
      expect(admin.errors).toBeUndefined();
      expect(admin.data?.user).toMatchObject({ login: 'vadmin', isSiteAdmin: false, isActive: null, lastLoginAt: null, isViewer: false });
      const bob = await fields('bob', basic('alice'));
      expect(bob.data?.user).toMatchObject({ isActive: null, lastLoginAt: null });
    });

    it('shows them to the user and to site admins', async () => {
      const self = await fields('vadmin', basic('vadmin'));
      expect(self.data?.user).toMatchObject({ isSiteAdmin: true, isActive: true, isViewer: true });
      const bobByAdmin = await fields('bob', basic('vadmin'));
      expect(bobByAdmin.data?.user).toMatchObject({ isSiteAdmin: false, isActive: true, lastLoginAt: lastLogin.toISOString() });
      const bobBySelf = await fields('bob', basic('bob'));
      expect(bobBySelf.data?.user?.lastLoginAt).toBe(lastLogin.toISOString());
    });

    it('hides the e-mail of a keep-email-private user from others, not from itself or admins', async () => {
      expect((await fields('secretive', basic('alice'))).data?.user?.email).toBe('');
      expect((await fields('secretive', basic('secretive'))).data?.user?.email).toBe('secretive@example.com');
      expect((await fields('secretive', basic('vadmin'))).data?.user?.email).toBe('secretive@example.com');
      expect((await fields('bob', basic('alice'))).data?.user?.email).toBe('bob@example.com');
    });

    it('shows no e-mail address to anonymous viewers', async () => {
      const res = await gql<{ user: UserFields | null }>(t, '{ user(login: "bob") { email } }');
      expect(res.data?.user?.email).toBe('');
    });
  });

  describe('users connection', () => {
    interface UsersPage {
      users: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: { login: string }[] };
    }
    const PAGE =
      'query($after: String) { users(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { login } } }';

    it('pages through every individual user for a site admin', async () => {
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      for (;;) {
        const res: Awaited<ReturnType<typeof gql<UsersPage>>> = await gql<UsersPage>(t, PAGE, {
          variables: { after },
          headers: basic('vadmin'),
        });
        expect(res.errors).toBeUndefined();
        const users = res.data?.users;
        if (!users) throw new Error('no users connection');
        expect(users.totalCount).toBe(6);
        expect(users.nodes.length).toBeLessThanOrEqual(2);
        seen.push(...users.nodes.map((n) => n.login));
        pages++;
        if (!users.pageInfo.hasNextPage) break;
        after = users.pageInfo.endCursor;
        expect(pages).toBeLessThan(10);
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(['vadmin', 'alice', 'bob', 'priv', 'lim', 'secretive']);
    });

    it('filters by query', async () => {
      const res = await gql<UsersPage>(t, '{ users(query: "secret") { totalCount nodes { login } } }', { headers: basic('vadmin') });
      expect(res.data?.users.totalCount).toBe(1);
      expect(res.data?.users.nodes).toEqual([{ login: 'secretive' }]);
    });

    it.each([
      ['a non-admin user', basic('alice')],
      ['an anonymous viewer', {}],
    ])('is FORBIDDEN for %s', async (_label, headers) => {
      const res = await gql<UsersPage>(t, '{ users(first: 5) { totalCount nodes { login } } }', { headers });
      expect(res.data).toBeNull();
      expect(errorCodes(res)).toEqual(['FORBIDDEN']);
    });
  });

  describe('node(id:) and nodes(ids:)', () => {
    const idOf = async (login: string) => {
      const res = await gql<{ user: UserFields | null }>(t, 'query($l: String!) { user(login: $l) { id } }', {
        variables: { l: login },
        headers: basic('vadmin'),
      });
      const id = res.data?.user?.id;
      if (!id) throw new Error(`no id for ${login}`);
      return id;
    };
    const node = (id: string, headers: Record<string, string>) =>
      gql<{ node: (UserFields & { __typename: string }) | null }>(
        t,
        'query($id: ID!) { node(id: $id) { __typename id ... on User { login } } }',
        { variables: { id }, headers },
      );

    it('round-trips a User global id', async () => {
      const id = await idOf('bob');
      expect(id).not.toMatch(/^\d+$/);
      const res = await node(id, basic('alice'));
      expect(res.errors).toBeUndefined();
      expect(res.data?.node).toEqual({ __typename: 'User', id, login: 'bob' });
    });

    it("returns null for a private user's id unless the viewer may see it", async () => {
      const id = await idOf('priv');
      const asBob = await node(id, basic('bob'));
      expect(asBob.errors).toBeUndefined();
      expect(asBob.data).toEqual({ node: null });
      expect((await node(id, {})).data).toEqual({ node: null });
      expect((await node(id, basic('priv'))).data?.node?.login).toBe('priv');
      expect((await node(id, basic('vadmin'))).data?.node?.login).toBe('priv');
    });

    it("returns null for a limited user's id to anonymous viewers", async () => {
      const id = await idOf('lim');
      const anonymous = await node(id, {});
      expect(anonymous.errors).toBeUndefined();
      expect(anonymous.data).toEqual({ node: null });
      expect((await node(id, basic('bob'))).data?.node?.login).toBe('lim');
    });

    it('nodes(ids:) keeps order and nulls out what the viewer may not see', async () => {
      const ids = [await idOf('bob'), await idOf('priv'), await idOf('alice')];
      const q = 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on User { login } } }';
      const asBob = await gql<{ nodes: (UserFields | null)[] }>(t, q, { variables: { ids }, headers: basic('bob') });
      expect(asBob.errors).toBeUndefined();
      expect(asBob.data?.nodes).toEqual([{ login: 'bob' }, null, { login: 'alice' }]);
      const asAdmin = await gql<{ nodes: (UserFields | null)[] }>(t, q, { variables: { ids }, headers: basic('vadmin') });
      expect(asAdmin.data?.nodes).toEqual([{ login: 'bob' }, { login: 'priv' }, { login: 'alice' }]);
    });
  });

  describe('token scopes', () => {
    it('a read:repository token cannot read User fields (FORBIDDEN)', async () => {
      const token = await t.createToken('alice', ['read:repository'], 'repo-only');
      const viewer = await gql<{ viewer: UserFields }>(t, '{ viewer { login } }', { headers: tokenAuth(token) });
      expect(viewer.data).toBeNull();
      expect(errorCodes(viewer)).toEqual(['FORBIDDEN']);
      const other = await gql<{ user: UserFields | null }>(t, '{ user(login: "bob") { login } }', { headers: tokenAuth(token) });
      expect(other.data?.user ?? null).toBeNull();
      expect(errorCodes(other)).toEqual(['FORBIDDEN']);
      const id = (await gql<{ user: UserFields | null }>(t, '{ user(login: "bob") { id } }', { headers: basic('alice') })).data?.user?.id;
      const viaNode = await gql<{ node: UserFields | null }>(t, 'query($id: ID!) { node(id: $id) { ... on User { login } } }', {
        variables: { id },
        headers: tokenAuth(token),
      });
      expect(viaNode.data?.node ?? null).toBeNull();
      expect(errorCodes(viaNode)).toEqual(['FORBIDDEN']);
    });

    it('a read:user token can', async () => {
      const token = await t.createToken('alice', ['read:user'], 'user-only');
      const res = await gql<{ viewer: UserFields }>(t, '{ viewer { login } }', { headers: tokenAuth(token) });
      expect(res.errors).toBeUndefined();
      expect(res.data?.viewer.login).toBe('alice');
    });
  });
});
