import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql, mutationError, type MutationError } from '../helpers/graphql.ts';

/** A mutation's outcome: the payload (`<Name>Payload`) or, for a refused mutation, the error at its path. */
interface Result<P> {
  payload: (P & { __typename: string; clientMutationId: string | null }) | null;
  error: MutationError | null;
}

interface UserOut {
  login: string;
  name?: string | null;
  location?: string | null;
  email?: string;
  isSiteAdmin?: boolean;
}

describe.each(PROVIDERS)('GraphQL mutations (%s)', (provider) => {
  let t: TestApp;

  /** Runs `name(input: $input)` selecting `fields` on `<Name>Payload`, and returns the payload or the refusal. */
  async function mutate<P>(
    name: string,
    fields: string,
    input: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<Result<P>> {
    const type = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${type}Input!) { ${name}(input: $input) { __typename clientMutationId ${fields} } }`;
    const res = await gql<Record<string, Result<P>['payload']>>(t, q, { variables: { input }, headers });
    const error = mutationError(res, name);
    const payload = res.data?.[name] ?? null;
    if (!error && !payload) throw new Error(`no ${name} result`);
    return { payload, error };
  }

  const restUser = async (login: string, headers: Record<string, string> = basic('gadmin')) =>
    t.request('GET', `/api/v1/users/${login}`, { headers });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('gadmin', { admin: true });
    await t.createUser('alice');
    await t.createUser('bob');
  });
  afterAll(() => t.close());

  describe('createUser', () => {
    it('creates a user through the admin service, echoes clientMutationId, and REST sees it', async () => {
      const r = await mutate<{ user: UserOut }>(
        'createUser',
        'user { login name isSiteAdmin }',
        { login: 'carol', email: 'carol@example.com', password: PASSWORD, name: 'Carol C', clientMutationId: 'cm-1' },
        basic('gadmin'),
      );
      expect(r).toEqual({
        payload: {
          __typename: 'CreateUserPayload',
          clientMutationId: 'cm-1',
          user: { login: 'carol', name: 'Carol C', isSiteAdmin: false },
        },
        error: null,
      });
      const rest = await restUser('carol');
      expect(rest.statusCode).toBe(200);
      expect(rest.json()).toMatchObject({ login: 'carol', full_name: 'Carol C', email: 'carol@example.com' });
      // mustChangePassword defaults to true, as in Gitea: the new account cannot use the API yet.
      expect((await t.request('GET', '/api/v1/user', { headers: basic('carol') })).statusCode).toBe(403);
    });

    it('honours mustChangePassword: false', async () => {
      const r = await mutate<{ user: UserOut }>(
        'createUser',
        'user { login }',
        { login: 'dave', email: 'dave@example.com', password: PASSWORD, mustChangePassword: false },
        basic('gadmin'),
      );
      expect(r.error).toBeNull();
      expect(r.payload?.user.login).toBe('dave');
      expect(r.payload?.clientMutationId).toBeNull();
      const me = await t.request('GET', '/api/v1/user', { headers: basic('dave') });
      expect(me.statusCode).toBe(200);
      expect(me.json().login).toBe('dave');
    });

    it('is refused with PERMISSION_DENIED for a non-admin', async () => {
      const r = await mutate<{ user: UserOut }>(
        'createUser',
        'user { login }',
        { login: 'eve', email: 'eve@example.com', password: PASSWORD },
        basic('alice'),
      );
      expect(r.error).toMatchObject({ code: 'PERMISSION_DENIED', message: 'user should be the site admin' });
      expect((await restUser('eve')).statusCode).toBe(404);
    });

    it('is refused with UNAUTHENTICATED for an anonymous viewer', async () => {
      const r = await mutate<{ user: UserOut }>(
        'createUser',
        'user { login }',
        { login: 'eve', email: 'eve@example.com', password: PASSWORD },
        {},
      );
      expect(r.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it('is refused with VALIDATION naming the input field for a bad login', async () => {
      const r = await mutate<{ user: UserOut }>(
        'createUser',
        'user { login }',
        { login: 'bad name!', email: 'x@example.com', password: PASSWORD },
        basic('gadmin'),
      );
      expect(r.error).toMatchObject({ code: 'VALIDATION', field: 'login' });
    });

    it('is refused with VALIDATION for a duplicate login, and INVALID_ARGUMENT for a short password', async () => {
      const dup = await mutate<{ user: UserOut }>(
        'createUser',
        'user { login }',
        { login: 'Alice', email: 'alice2@example.com', password: PASSWORD },
        basic('gadmin'),
      );
      expect(dup.error).toMatchObject({ code: 'VALIDATION', message: 'user already exists [name: Alice]' });
      const short = await mutate<{ user: UserOut }>(
        'createUser',
        'user { login }',
        { login: 'frank', email: 'frank@example.com', password: 'short' },
        basic('gadmin'),
      );
      expect(short.error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    });
  });

  describe('updateUser', () => {
    it('edits a user, and the change is visible through REST', async () => {
      const r = await mutate<{ user: UserOut }>(
        'updateUser',
        'user { login name location }',
        { login: 'bob', name: 'Robert', location: 'Lyon', clientMutationId: 'cm-u' },
        basic('gadmin'),
      );
      expect(r).toEqual({
        payload: {
          __typename: 'UpdateUserPayload',
          clientMutationId: 'cm-u',
          user: { login: 'bob', name: 'Robert', location: 'Lyon' },
        },
        error: null,
      });
      const rest = await restUser('bob', basic('alice'));
      expect(rest.json()).toMatchObject({ login: 'bob', full_name: 'Robert', location: 'Lyon' });
    });

    it('changes the primary e-mail the way PATCH /admin/users does', async () => {
      const r = await mutate<{ user: UserOut }>(
        'updateUser',
        'user { email }',
        { login: 'bob', email: 'robert@example.com' },
        basic('gadmin'),
      );
      expect(r.payload?.user.email).toBe('robert@example.com');
      const emails = await t.request('GET', '/api/v1/user/emails', { headers: basic('bob') });
      expect(emails.json()).toMatchObject([{ email: 'robert@example.com', verified: true, primary: true }]);
    });

    it('is refused with PERMISSION_DENIED for a non-admin, and NOT_FOUND for a missing user', async () => {
      const denied = await mutate<{ user: UserOut }>('updateUser', 'user { login }', { login: 'bob', name: 'Hacked' }, basic('alice'));
      expect(denied.error).toMatchObject({ code: 'PERMISSION_DENIED' });
      expect((await restUser('bob')).json().full_name).toBe('Robert');
      const missing = await mutate<{ user: UserOut }>('updateUser', 'user { login }', { login: 'nobody', name: 'X' }, basic('gadmin'));
      expect(missing.error).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('is refused with VALIDATION naming the input field for a bad website', async () => {
      const r = await mutate<{ user: UserOut }>(
        'updateUser',
        'user { login }',
        { login: 'bob', websiteUrl: 'ftp://example.com' },
        basic('gadmin'),
      );
      expect(r.error).toMatchObject({ code: 'VALIDATION', field: 'websiteUrl' });
    });
  });

  describe('deleteUser', () => {
    it('deletes a user; REST then answers 404', async () => {
      await t.createUser('doomed');
      const r = await mutate<{ deletedLogin: string }>(
        'deleteUser',
        'deletedLogin',
        { login: 'doomed', clientMutationId: 'cm-d' },
        basic('gadmin'),
      );
      expect(r).toEqual({ payload: { __typename: 'DeleteUserPayload', clientMutationId: 'cm-d', deletedLogin: 'doomed' }, error: null });
      expect((await restUser('doomed')).statusCode).toBe(404);
    });

    it('refuses non-admins and self-deletion', async () => {
      const denied = await mutate<{ deletedLogin: string }>('deleteUser', 'deletedLogin', { login: 'bob' }, basic('alice'));
      expect(denied.error?.code).toBe('PERMISSION_DENIED');
      const self = await mutate<{ deletedLogin: string }>('deleteUser', 'deletedLogin', { login: 'gadmin' }, basic('gadmin'));
      expect(self.error).toMatchObject({ code: 'VALIDATION', message: 'you cannot delete yourself' });
      expect((await restUser('bob')).statusCode).toBe(200);
    });
  });

  describe('access tokens', () => {
    interface Created {
      token: string;
      accessToken: { name: string; scopes: string[]; tokenLastEight: string };
    }
    const CREATED = 'token accessToken { name scopes tokenLastEight }';

    it('creates a token that authenticates a REST call, and lists it', async () => {
      const r = await mutate<Created>(
        'createAccessToken',
        CREATED,
        { login: 'alice', name: 'ci', scopes: ['read:user', 'write:repository'], clientMutationId: 'cm-t' },
        basic('alice'),
      );
      expect(r.error).toBeNull();
      expect(r.payload?.__typename).toBe('CreateAccessTokenPayload');
      const data = { ...r.payload, token: r.payload?.token ?? '' };
      expect(data.clientMutationId).toBe('cm-t');
      expect(data.token).toMatch(/^[0-9a-f]{40}$/);
      expect(data.accessToken).toEqual({ name: 'ci', scopes: ['write:repository', 'read:user'], tokenLastEight: data.token.slice(-8) });
      const me = await t.request('GET', '/api/v1/user', { headers: tokenAuth(data.token) });
      expect(me.statusCode).toBe(200);
      expect(me.json().login).toBe('alice');
      const rest = await t.request('GET', '/api/v1/users/alice/tokens', { headers: basic('alice') });
      expect(rest.json()).toEqual([expect.objectContaining({ name: 'ci', token_last_eight: data.token.slice(-8) })]);
      const listed = await gql<{ viewer: { accessTokens: { totalCount: number; nodes: { name: string }[] } } }>(
        t,
        '{ viewer { accessTokens { totalCount nodes { name } } } }',
        { headers: basic('alice') },
      );
      expect(listed.data?.viewer.accessTokens).toEqual({ totalCount: 1, nodes: [{ name: 'ci' }] });
    });

    it('is refused with INVALID_ARGUMENT for a duplicate name or a bad scope', async () => {
      const dup = await mutate<Created>('createAccessToken', CREATED, { login: 'alice', name: 'ci', scopes: ['all'] }, basic('alice'));
      expect(dup.error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'access token name has been used already',
      });
      const bad = await mutate<Created>(
        'createAccessToken',
        CREATED,
        { login: 'alice', name: 'bad', scopes: ['write:everything'] },
        basic('alice'),
      );
      expect(bad.error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('is refused with UNAUTHENTICATED when the request is authenticated by a token', async () => {
      const token = await t.createToken('alice', ['all'], 'full');
      const r = await mutate<Created>(
        'createAccessToken',
        CREATED,
        { login: 'alice', name: 'via-token', scopes: ['all'] },
        tokenAuth(token),
      );
      expect(r.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    });

    it("is refused with PERMISSION_DENIED for another user's tokens, allowed for a site admin", async () => {
      const denied = await mutate<Created>('createAccessToken', CREATED, { login: 'bob', name: 'steal', scopes: ['all'] }, basic('alice'));
      expect(denied.error).toMatchObject({ code: 'PERMISSION_DENIED' });
      const byAdmin = await mutate<Created>(
        'createAccessToken',
        CREATED,
        { login: 'bob', name: 'granted', scopes: ['read:user'] },
        basic('gadmin'),
      );
      expect(byAdmin.payload?.accessToken.name).toBe('granted');
    });

    it('deletes a token by name; it no longer authenticates', async () => {
      const created = await mutate<Created>(
        'createAccessToken',
        CREATED,
        { login: 'alice', name: 'short-lived', scopes: ['read:user'] },
        basic('alice'),
      );
      const secret = created.payload?.token ?? '';
      expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(secret) })).statusCode).toBe(200);
      const r = await mutate<{ deleted: boolean }>(
        'deleteAccessToken',
        'deleted',
        { login: 'alice', token: 'short-lived', clientMutationId: 'cm-x' },
        basic('alice'),
      );
      expect(r).toEqual({ payload: { __typename: 'DeleteAccessTokenPayload', clientMutationId: 'cm-x', deleted: true }, error: null });
      expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(secret) })).statusCode).toBe(401);
      const again = await mutate<{ deleted: boolean }>(
        'deleteAccessToken',
        'deleted',
        { login: 'alice', token: 'short-lived' },
        basic('alice'),
      );
      expect(again.error).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('e-mail addresses', () => {
    interface Email {
      email: string;
      isPrimary: boolean;
      isVerified: boolean;
    }

    it('addEmails adds addresses the REST list then shows', async () => {
      const r = await mutate<{ emails: Email[] }>(
        'addEmails',
        'emails { email isPrimary isVerified }',
        { emails: ['alice.work@example.com'], clientMutationId: 'cm-e' },
        basic('alice'),
      );
      expect(r).toEqual({
        payload: {
          __typename: 'AddEmailsPayload',
          clientMutationId: 'cm-e',
          emails: [
            { email: 'alice@example.com', isPrimary: true, isVerified: true },
            { email: 'alice.work@example.com', isPrimary: false, isVerified: true },
          ],
        },
        error: null,
      });
      const rest = await t.request('GET', '/api/v1/user/emails', { headers: basic('alice') });
      expect(rest.json().map((e: { email: string }) => e.email)).toEqual(['alice@example.com', 'alice.work@example.com']);
    });

    it('addEmails is refused with VALIDATION for an invalid or used address, UNAUTHENTICATED when anonymous', async () => {
      const invalid = await mutate<{ emails: Email[] }>('addEmails', 'emails { email }', { emails: ['not-an-address'] }, basic('alice'));
      expect(invalid.error).toMatchObject({ code: 'VALIDATION' });
      const used = await mutate<{ emails: Email[] }>('addEmails', 'emails { email }', { emails: ['gadmin@example.com'] }, basic('alice'));
      expect(used.error).toMatchObject({ code: 'VALIDATION', message: 'Email address has been used: gadmin@example.com' });
      const anonymous = await mutate<{ emails: Email[] }>('addEmails', 'emails { email }', { emails: ['x@example.com'] }, {});
      expect(anonymous.error?.code).toBe('UNAUTHENTICATED');
    });

    it('addEmails honours token scopes', async () => {
      const token = await t.createToken('alice', ['read:user'], 'read-user');
      const r = await mutate<{ emails: Email[] }>('addEmails', 'emails { email }', { emails: ['scoped@example.com'] }, tokenAuth(token));
      expect(r.error).toMatchObject({ code: 'PERMISSION_DENIED' });
    });

    it('deleteEmails removes an address; the primary one is INVALID_ARGUMENT, an unknown one NOT_FOUND', async () => {
      const r = await mutate<{ user: UserOut | null }>(
        'deleteEmails',
        'user { login }',
        { emails: ['alice.work@example.com'], clientMutationId: 'cm-de' },
        basic('alice'),
      );
      expect(r).toEqual({
        payload: { __typename: 'DeleteEmailsPayload', clientMutationId: 'cm-de', user: { login: 'alice' } },
        error: null,
      });
      const rest = await t.request('GET', '/api/v1/user/emails', { headers: basic('alice') });
      expect(rest.json().map((e: { email: string }) => e.email)).toEqual(['alice@example.com']);
      const primary = await mutate<{ user: UserOut | null }>(
        'deleteEmails',
        'user { login }',
        { emails: ['alice@example.com'] },
        basic('alice'),
      );
      expect(primary.error).toMatchObject({ code: 'INVALID_ARGUMENT' });
      const unknown = await mutate<{ user: UserOut | null }>(
        'deleteEmails',
        'user { login }',
        { emails: ['bob@example.com'] },
        basic('alice'),
      );
      expect(unknown.error).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  it('an unknown input field is a GraphQL validation error, not a refusal of the mutation', async () => {
    const res = await gql<unknown>(
      t,
      'mutation { createUser(input: { login: "x", email: "x@example.com", password: "p", bogus: 1 }) { __typename } }',
      { headers: basic('gadmin') },
    );
    expect(res.data ?? null).toBeNull();
    expect(res.errors?.[0]?.message).toMatch(/bogus/);
    expect(errorCodes(res)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});
