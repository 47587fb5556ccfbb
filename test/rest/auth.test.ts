import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../helpers/db.ts';
import { createOrgAs } from '../helpers/org.ts';
import { authHeaders, basic, CREDENTIAL_FORMS, isGiteaError, PASSWORD, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';

const SWAGGER = 'http://localhost:3000/api/swagger';
const INVALID = { message: 'invalid username, password or token', url: SWAGGER };
const PROHIBITED = { message: 'This account is prohibited from signing in, please contact your site administrator.' };
const CHANGE_PASSWORD = { message: 'You must change your password. Change it at: http://localhost:3000//user/change_password' };
const WARNING =
  'token and access_token API authentication is deprecated and will be removed in gitea 1.23. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization.';
const UNKNOWN_TOKEN = '0123456789abcdef0123456789abcdef01234567';

/** Appends a query string to a path. */
function withQuery(path: string, query: string): string {
  if (!query) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

describe.each(PROVIDERS)('REST authentication (%s)', (provider) => {
  let t: TestApp;
  let aliceToken: string;
  let rootToken: string;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice', { fullName: 'Alice' });
    await t.createUser('bob');
    await t.createUser('root', { admin: true });
    aliceToken = await t.createToken('alice');
    rootToken = await t.createToken('root');
  });
  afterAll(() => t.close());

  describe('credential forms', () => {
    it.each(CREDENTIAL_FORMS)('GET /user accepts %s', async (form) => {
      const { headers, query } = authHeaders('alice', form, aliceToken);
      const res = await t.request('GET', withQuery('/api/v1/user', query), { headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().login).toBe('alice');
      // Only the deprecated query forms carry the warning.
      expect(res.headers['x-gitea-warning']).toBe(form.startsWith('query-') ? WARNING : undefined);
    });

    it.each([
      ['the token as username with an empty password', () => basic(aliceToken, '')],
      ['the token as password under any username', () => basic('somebody-else', aliceToken)],
      ['a lower-case bearer scheme', () => ({ authorization: `bearer ${aliceToken}` })],
      ['an upper-case TOKEN scheme', () => ({ authorization: `TOKEN ${aliceToken}` })],
    ])('Basic/token variants: %s', async (_label, headers) => {
      const res = await t.request('GET', '/api/v1/user', { headers: headers() });
      expect(res.statusCode).toBe(200);
      expect(res.json().login).toBe('alice');
    });

    it.each(['alice@example.com', 'ALICE@Example.COM'])('Basic login by e-mail address %s', async (login) => {
      const res = await t.request('GET', '/api/v1/user', { headers: basic(login) });
      expect(res.statusCode).toBe(200);
      expect(res.json().login).toBe('alice');
    });

    it('Basic login by an e-mail address that is not activated is refused', async () => {
      const user = await t.createUser('eve');
      await t.db.emailAddress.create({
        data: { userId: user.id, email: 'eve-2@example.com', lowerEmail: 'eve-2@example.com', isActivated: false },
      });
      const res = await t.request('GET', '/api/v1/user', { headers: basic('eve-2@example.com') });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID);
    });
  });

  describe('bad credentials are 401 on every route', () => {
    const cases: [string, () => { headers: Record<string, string>; query: string }][] = [
      ['wrong password', () => ({ headers: basic('alice', 'wrong-password'), query: '' })],
      ['unknown user', () => ({ headers: basic('nobody', PASSWORD), query: '' })],
      ['organization login', () => ({ headers: basic('acme', PASSWORD), query: '' })],
      ['unknown token header', () => ({ headers: tokenAuth(UNKNOWN_TOKEN), query: '' })],
      ['unknown bearer', () => ({ headers: { authorization: `Bearer ${UNKNOWN_TOKEN}` }, query: '' })],
      ['unknown ?token=', () => ({ headers: {}, query: `token=${UNKNOWN_TOKEN}` })],
      ['unknown ?access_token=', () => ({ headers: {}, query: `access_token=${UNKNOWN_TOKEN}` })],
      ['unknown token as Basic username', () => ({ headers: basic(UNKNOWN_TOKEN, 'x-oauth-basic'), query: '' })],
      ['unknown token as Basic username, empty password', () => ({ headers: basic(UNKNOWN_TOKEN, ''), query: '' })],
    ];
    beforeAll(async () => {
      await createOrgAs(t, await t.db.user.findUniqueOrThrow({ where: { lowerName: 'root' } }), 'acme');
    });

    it.each(cases.flatMap(([label, creds]) => ['/api/v1/user', '/api/v1/version'].map((path) => [label, path, creds] as const)))(
      '%s on %s',
      async (_label, path, creds) => {
        const { headers, query } = creds();
        const res = await t.request('GET', withQuery(path, query), { headers });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(INVALID);
      },
    );

    it.each([
      ['an unknown scheme', { authorization: 'Digest username="alice"' }],
      ['a token scheme with two fields', { authorization: `token ${aliceToken} extra` }],
      ['a bare scheme', { authorization: 'token' }],
    ])('%s is treated as anonymous', async (_label, headers) => {
      const version = await t.request('GET', '/api/v1/version', { headers });
      expect(version.statusCode).toBe(200);
      const user = await t.request('GET', '/api/v1/user', { headers });
      expect(user.statusCode).toBe(401);
      expect(user.json()).toEqual({ message: 'token is required', url: SWAGGER });
    });
  });

  describe('account gates', () => {
    type Flags = { isActive?: boolean; prohibitLogin?: boolean; mustChangePassword?: boolean };
    const cases: [string, 'token' | 'password', number, Record<string, string>, Flags][] = [
      ['inactive', 'token', 403, PROHIBITED, { isActive: false }],
      ['inactive', 'password', 403, PROHIBITED, { isActive: false }],
      ['prohibit_login', 'token', 403, PROHIBITED, { prohibitLogin: true }],
      ['prohibit_login', 'password', 401, INVALID, { prohibitLogin: true }],
      ['must_change_password', 'token', 403, CHANGE_PASSWORD, { mustChangePassword: true }],
      ['must_change_password', 'password', 403, CHANGE_PASSWORD, { mustChangePassword: true }],
    ];

    it.each(cases)('%s user authenticating by %s → %i', async (flag, method, status, body, data) => {
      const name = `${flag.replace(/_/g, '-')}-${method}`;
      await t.createUser(name);
      const token = await t.createToken(name);
      await t.db.user.update({ where: { lowerName: name }, data });
      const headers = method === 'token' ? tokenAuth(token) : basic(name);
      for (const path of ['/api/v1/user', '/api/v1/version']) {
        const res = await t.request('GET', path, { headers });
        expect(res.statusCode).toBe(status);
        // The 403 gates are sent without the `url` field, exactly as Gitea does.
        expect(res.json()).toEqual(body);
      }
    });

    it('an account that is allowed again works again', async () => {
      await t.createUser('revived');
      const token = await t.createToken('revived');
      await t.db.user.update({ where: { lowerName: 'revived' }, data: { prohibitLogin: true } });
      expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(token) })).statusCode).toBe(403);
      await t.db.user.update({ where: { lowerName: 'revived' }, data: { prohibitLogin: false } });
      expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(token) })).statusCode).toBe(200);
    });
  });

  describe('sudo', () => {
    it.each([
      ['?sudo= with Basic', () => ({ url: '/api/v1/user?sudo=alice', headers: basic('root') })],
      ['Sudo: header with Basic', () => ({ url: '/api/v1/user', headers: { ...basic('root'), sudo: 'alice' } })],
      ['?sudo= with a token', () => ({ url: '/api/v1/user?sudo=ALICE', headers: tokenAuth(rootToken) })],
      ['Sudo: header with a token', () => ({ url: '/api/v1/user', headers: { ...tokenAuth(rootToken), sudo: 'alice' } })],
      ['?sudo= wins over the header', () => ({ url: '/api/v1/user?sudo=alice', headers: { ...basic('root'), sudo: 'bob' } })],
    ])('an admin impersonates alice via %s', async (_label, req) => {
      const { url, headers } = req();
      const res = await t.request('GET', url, { headers });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.login).toBe('alice');
      // The response is alice's own view of herself, not the admin's.
      expect(body.is_admin).toBe(false);
      expect(body.email).toBe('alice@example.com');
    });

    it.each([
      ['a non-admin (query)', () => ({ url: '/api/v1/user?sudo=root', headers: basic('alice') })],
      ['a non-admin (header)', () => ({ url: '/api/v1/user', headers: { ...tokenAuth(aliceToken), sudo: 'root' } })],
      ['an anonymous caller', () => ({ url: '/api/v1/version?sudo=alice', headers: {} })],
    ])('%s may not sudo → 403 without url', async (_label, req) => {
      const { url, headers } = req();
      const res = await t.request('GET', url, { headers });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Only administrators allowed to sudo.' });
    });

    it('sudo to an unknown user is 404', async () => {
      const res = await t.request('GET', '/api/v1/user?sudo=ghost-user', { headers: basic('root') });
      expect(res.statusCode).toBe(404);
      expect(isGiteaError(res.json())).toBe(true);
    });
  });

  describe('token scopes', () => {
    const scopeError = (required: string, scope: string) => ({
      message: `token does not have at least one of required scope(s), required=[${required}], token scope=${scope}`,
      url: SWAGGER,
    });
    let n = 0;
    const addEmail = async (headers: Record<string, string>) =>
      t.request('POST', '/api/v1/user/emails', { headers, body: { emails: [`scoped-${++n}@example.com`] } });

    it.each([
      [['read:user'], 200, 403],
      [['write:user'], 200, 201],
      [['all'], 200, 201],
      [['read:repository', 'write:user'], 200, 201],
    ])('a %j token: GET /user → %i, POST /user/emails → %i', async (scopes, getStatus, postStatus) => {
      const token = await t.createToken('bob', scopes);
      const get = await t.request('GET', '/api/v1/user', { headers: tokenAuth(token) });
      expect(get.statusCode).toBe(getStatus);
      const post = await addEmail(tokenAuth(token));
      expect(post.statusCode).toBe(postStatus);
      if (postStatus === 403) expect(post.json()).toEqual(scopeError('write:user', scopes.join(',')));
    });

    it('a token without the user category cannot read /user; the message shows the normalized scope', async () => {
      const token = await t.createToken('bob', ['write:issue', 'read:repository', 'read:issue']);
      const res = await t.request('GET', '/api/v1/user', { headers: tokenAuth(token) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(scopeError('read:user', 'write:issue,read:repository'));
    });

    it('scopes apply to a token sent as the Basic password', async () => {
      const token = await t.createToken('bob', ['read:user']);
      const res = await addEmail(basic('bob', token));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(scopeError('write:user', 'read:user'));
    });

    it('scopes never apply to password authentication', async () => {
      const res = await addEmail(basic('bob'));
      expect(res.statusCode).toBe(201);
    });

    it.each([
      ['GET', ['public-only', 'read:user']],
      ['POST', ['public-only', 'write:user']],
      ['DELETE', ['public-only', 'all']],
    ])('a public-only token is refused by %s /user/emails', async (method, scopes) => {
      const token = await t.createToken('bob', scopes);
      const body = method === 'GET' ? undefined : { emails: ['bob@example.com'] };
      const res = await t.request(method, '/api/v1/user/emails', { headers: tokenAuth(token), body });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'this endpoint is not available for public-only tokens', url: SWAGGER });
    });

    it('a public-only token still needs the category scope first', async () => {
      const token = await t.createToken('bob', ['public-only', 'read:issue']);
      const res = await t.request('GET', '/api/v1/user/emails', { headers: tokenAuth(token) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(scopeError('read:user', 'public-only,read:issue'));
    });
  });
});

describe.each(PROVIDERS)('public-only tokens and non-public users (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('open');
    await t.createUser('hidden', { visibility: 'LIMITED' });
  });
  afterAll(() => t.close());

  it('a public-only token may read public users but not limited ones, nor a limited self', async () => {
    const openToken = await t.createToken('open', ['public-only', 'read:user']);
    expect((await t.request('GET', '/api/v1/users/open', { headers: tokenAuth(openToken) })).statusCode).toBe(200);
    const res = await t.request('GET', '/api/v1/users/hidden', { headers: tokenAuth(openToken) });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('token scope is limited to public users');
    const hiddenToken = await t.createToken('hidden', ['public-only', 'read:user']);
    expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(hiddenToken) })).statusCode).toBe(403);
    const fullToken = await t.createToken('hidden', ['read:user']);
    expect((await t.request('GET', '/api/v1/user', { headers: tokenAuth(fullToken) })).statusCode).toBe(200);
  });
});
