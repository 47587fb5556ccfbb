import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../helpers/db.ts';
import { authHeaders, basic, type CredentialForm, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';

const SWAGGER = 'http://localhost:3000/api/swagger';
const NOT_SELF = { message: 'doer should be the site admin or be same as the contextUser', url: SWAGGER };
const AUTH_REQUIRED = { message: 'auth required', url: SWAGGER };
const INVALID = { message: 'invalid username, password or token', url: SWAGGER };
const ALL_WRITES = ['activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user'].map(
  (c) => `write:${c}`,
);

interface ApiToken {
  id: number;
  name: string;
  sha1: string;
  token_last_eight: string;
  scopes: string[];
  created_at: string;
  last_used_at: string;
}

describe.each(PROVIDERS)('REST access tokens (%s)', (provider) => {
  let t: TestApp;
  let n = 0;
  const uniqueName = () => `token-${++n}`;

  const create = (owner: string, body: unknown, headers: Record<string, string> = basic(owner)) =>
    t.request('POST', `/api/v1/users/${owner}/tokens`, { headers, body });
  const created = (res: LightMyRequestResponse): ApiToken => {
    expect(res.statusCode).toBe(201);
    return res.json() as ApiToken;
  };
  const whoAmI = (secret: string) => t.request('GET', '/api/v1/user', { headers: tokenAuth(secret) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    await t.createUser('carol', { visibility: 'PRIVATE' });
    await t.createUser('root', { admin: true });
  });
  afterAll(() => t.close());

  describe('POST /users/{username}/tokens', () => {
    it('creates a token: 201, the secret shown once, normalized scopes; it authenticates', async () => {
      const body = created(await create('alice', { name: 'ci', scopes: ['write:user', 'read:repository'] }));
      expect(body).toEqual({
        id: expect.any(Number),
        name: 'ci',
        sha1: expect.stringMatching(/^[0-9a-f]{40}$/),
        token_last_eight: body.sha1.slice(-8),
        scopes: ['read:repository', 'write:user'],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        last_used_at: expect.any(String),
      });
      const me = await whoAmI(body.sha1);
      expect(me.statusCode).toBe(200);
      expect(me.json().login).toBe('alice');
    });

    it.each([
      [['read:user', 'write:user'], ['write:user']],
      [
        ['write:issue', 'read:activitypub', 'write:issue'],
        ['read:activitypub', 'write:issue'],
      ],
      [['read:user,write:issue'], ['write:issue', 'read:user']],
      [
        ['read:user', 'public-only'],
        ['public-only', 'read:user'],
      ],
      [['all', 'read:user'], ['all']],
      [ALL_WRITES, ['all']],
      [
        [...ALL_WRITES, 'public-only'],
        ['public-only', 'all'],
      ],
    ])('scopes %j are stored as %j', async (scopes, expected) => {
      const body = created(await create('alice', { name: uniqueName(), scopes }));
      expect(body.scopes).toEqual(expected);
      const listed = (await t.request('GET', '/api/v1/users/alice/tokens?limit=50', { headers: basic('alice') })).json() as ApiToken[];
      expect(listed.find((tok) => tok.id === body.id)?.scopes).toEqual(expected);
    });

    it.each([
      ['a name already used', 400, 'access token name has been used already', { name: 'ci', scopes: ['read:user'] }],
      ['a used name wins over a bad scope', 400, 'access token name has been used already', { name: 'ci', scopes: ['foo'] }],
      [
        'an unknown scope',
        400,
        'invalid access token scope provided: invalid access token scope: foo',
        { name: 'bad-scope', scopes: ['foo'] },
      ],
      [
        'a malformed scope',
        400,
        'invalid access token scope provided: invalid access token scope: admin:user',
        { name: 'bad', scopes: ['read:user', 'admin:user'] },
      ],
      ['empty scopes', 400, 'access token must have a scope', { name: 'no-scope', scopes: [] }],
      ['no scopes', 400, 'access token must have a scope', { name: 'no-scope' }],
      ['no name', 422, '[Name]: Required', { scopes: ['read:user'] }],
    ])('%s → %i', async (_label, status, message, body) => {
      const before = await t.db.accessToken.count();
      const res = await create('alice', body);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ message, url: SWAGGER });
      expect(await t.db.accessToken.count()).toBe(before);
    });

    it('the same name may be used by another user', async () => {
      created(await create('bob', { name: 'ci', scopes: ['read:user'] }));
    });

    it('the database never holds the secret', async () => {
      const secrets = [
        created(await create('alice', { name: uniqueName(), scopes: ['all'] })).sha1,
        created(await create('bob', { name: uniqueName(), scopes: ['read:user'] })).sha1,
      ];
      const rows = await t.db.accessToken.findMany();
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const row of rows) {
        expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
        for (const secret of secrets) expect(JSON.stringify(row)).not.toContain(secret);
      }
      for (const secret of secrets) {
        expect(rows.some((r) => r.tokenLastEight === secret.slice(-8))).toBe(true);
      }
    });
  });

  describe('GET /users/{username}/tokens', () => {
    it('lists the tokens without their secrets, with X-Total-Count', async () => {
      const res = await t.request('GET', '/api/v1/users/alice/tokens?limit=50', { headers: basic('alice') });
      expect(res.statusCode).toBe(200);
      const list = res.json() as ApiToken[];
      const count = await t.db.accessToken.count({ where: { user: { name: 'alice' } } });
      expect(list).toHaveLength(count);
      expect(res.headers['x-total-count']).toBe(String(count));
      expect(list.map((tok) => tok.name)).toContain('ci');
      for (const tok of list) {
        expect(tok.sha1).toBe('');
        expect(tok.token_last_eight).toMatch(/^[0-9a-f]{8}$/);
      }
    });

    it('is paginated', async () => {
      const res = await t.request('GET', '/api/v1/users/alice/tokens?limit=2&page=2', { headers: basic('alice') });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveLength(2);
      expect(Number(res.headers['x-total-count'])).toBeGreaterThan(4);
    });

    it('lists only the named user’s tokens', async () => {
      const list = (await t.request('GET', '/api/v1/users/bob/tokens', { headers: basic('bob') })).json() as ApiToken[];
      const ids = (await t.db.accessToken.findMany({ where: { user: { name: 'bob' } } })).map((r) => r.id);
      expect(list.map((tok) => tok.id).sort()).toEqual(ids.sort());
    });
  });

  describe('who may manage tokens', () => {
    const tokenForms: CredentialForm[] = ['token-header', 'bearer', 'query-token', 'query-access-token', 'basic-token', 'basic-token-user'];
    let aliceToken: string;
    beforeAll(async () => {
      aliceToken = await t.createToken('alice', ['all'], 'manager');
    });

    it.each(tokenForms.flatMap((form) => (['GET', 'POST', 'DELETE'] as const).map((method) => [method, form] as const)))(
      '%s with a token (%s) instead of a password → 401 auth required',
      async (method, form) => {
        const { headers, query } = authHeaders('alice', form, aliceToken);
        const path = method === 'DELETE' ? '/api/v1/users/alice/tokens/ci' : '/api/v1/users/alice/tokens';
        const body = method === 'POST' ? { name: uniqueName(), scopes: ['read:user'] } : undefined;
        const res = await t.request(method, query ? `${path}?${query}` : path, { headers, body });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual(AUTH_REQUIRED);
      },
    );

    it('a token without write:user is refused by its scope before anything else', async () => {
      const token = await t.createToken('alice', ['read:user']);
      const res = await create('alice', { name: uniqueName(), scopes: ['read:user'] }, tokenAuth(token));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'token does not have at least one of required scope(s), required=[write:user], token scope=read:user',
        url: SWAGGER,
      });
    });

    // Gitea checks self-or-admin before the credential kind, so these are 403 and not 401.
    it.each([
      ['GET', 'alice', 'bob (password)', () => basic('bob')],
      ['POST', 'alice', 'bob (password)', () => basic('bob')],
      ['DELETE', 'alice', 'bob (password)', () => basic('bob')],
      ['GET', 'bob', 'alice (token)', () => tokenAuth(aliceToken)],
      ['GET', 'alice', 'anonymous', () => ({})],
      ['POST', 'alice', 'anonymous', () => ({})],
    ] as const)('%s on %s’s tokens as %s → 403', async (method, owner, _viewer, headers) => {
      const path = method === 'DELETE' ? `/api/v1/users/${owner}/tokens/ci` : `/api/v1/users/${owner}/tokens`;
      const body = method === 'POST' ? { name: uniqueName(), scopes: ['read:user'] } : undefined;
      const res = await t.request(method, path, { headers: headers(), body });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(NOT_SELF);
    });

    it('a site admin manages another user’s tokens', async () => {
      const list = await t.request('GET', '/api/v1/users/alice/tokens', { headers: basic('root') });
      expect(list.statusCode).toBe(200);
      const token = created(await create('alice', { name: 'made-by-root', scopes: ['read:user'] }, basic('root')));
      expect((await whoAmI(token.sha1)).json().login).toBe('alice');
      const del = await t.request('DELETE', `/api/v1/users/alice/tokens/${token.id}`, { headers: basic('root') });
      expect(del.statusCode).toBe(204);
      expect((await whoAmI(token.sha1)).statusCode).toBe(401);
    });

    it.each([
      ['an unknown user', 'nobody', 'alice', 404],
      ['a private user, to another user', 'carol', 'bob', 404],
      ['a private user, to herself', 'carol', 'carol', 200],
      ['a private user, to an admin', 'carol', 'root', 200],
    ])('listing the tokens of %s → %i', async (_label, owner, viewer, status) => {
      const res = await t.request('GET', `/api/v1/users/${owner}/tokens`, { headers: basic(viewer) });
      expect(res.statusCode).toBe(status);
    });
  });

  describe('DELETE /users/{username}/tokens/{token}', () => {
    it.each(['id', 'name'] as const)('deletes by %s: 204, then the token no longer authenticates', async (by) => {
      const name = uniqueName();
      const token = created(await create('alice', { name, scopes: ['read:user'] }));
      expect((await whoAmI(token.sha1)).statusCode).toBe(200);
      const ref = by === 'id' ? String(token.id) : name;
      const res = await t.request('DELETE', `/api/v1/users/alice/tokens/${ref}`, { headers: basic('alice') });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      const after = await whoAmI(token.sha1);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual(INVALID);
      const again = await t.request('DELETE', `/api/v1/users/alice/tokens/${ref}`, { headers: basic('alice') });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ message: 'not found', url: SWAGGER });
    });

    it.each(['999999', 'no-such-token'])('an unknown token %s → 404', async (ref) => {
      const res = await t.request('DELETE', `/api/v1/users/alice/tokens/${ref}`, { headers: basic('alice') });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'not found', url: SWAGGER });
    });

    it('another user’s token cannot be deleted through one’s own path', async () => {
      const bobToken = created(await create('bob', { name: uniqueName(), scopes: ['read:user'] }));
      const res = await t.request('DELETE', `/api/v1/users/alice/tokens/${bobToken.id}`, { headers: basic('alice') });
      expect(res.statusCode).toBe(404);
      expect((await whoAmI(bobToken.sha1)).json().login).toBe('bob');
    });
  });
});
