import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/token.ts';
import { basic, isGiteaError, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

interface ApiApp {
  id: number;
  name: string;
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  confidential_client: boolean;
  skip_secondary_authorization: boolean;
  created: string;
}

const SWAGGER = 'http://localhost:3000/api/swagger';

/** Gitea's /user/applications/oauth2 API (routers/api/v1/user/app.go), and the grants extension. */
describe.each(PROVIDERS)('OAuth2 applications API (%s)', (provider) => {
  let t: TestApp;
  const base = '/api/v1/user/applications/oauth2';
  const create = (body: unknown, headers = basic('alice')) => t.request('POST', base, { headers, body });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
  });
  afterAll(() => t.close());

  it('creates an application: 201, Gitea’s shape, the secret shown once and stored only hashed', async () => {
    const res = await create({ name: 'ci', redirect_uris: ['https://ci.example.com/callback'], confidential_client: true });
    expect(res.statusCode).toBe(201);
    const app = res.json() as ApiApp;
    expect(app).toEqual({
      id: expect.any(Number),
      name: 'ci',
      client_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      client_secret: expect.stringMatching(/^gto_[a-z2-7]{52}$/),
      redirect_uris: ['https://ci.example.com/callback'],
      confidential_client: true,
      skip_secondary_authorization: false,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const row = await t.db.oAuth2Application.findUniqueOrThrow({ where: { id: app.id } });
    expect(row.clientSecretHash).toBe(hashToken(app.client_secret));
    expect(JSON.stringify(row)).not.toContain(app.client_secret);

    const got = await t.request('GET', `${base}/${app.id}`, { headers: basic('alice') });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ ...app, client_secret: '' });
    const list = await t.request('GET', base, { headers: basic('alice') });
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.json()).toEqual([{ ...app, client_secret: '' }]);
  });

  it('a token that looks like a JWT before any was issued is refused without making the signing key', async () => {
    const res = await t.request('GET', '/api/v1/user', { headers: { authorization: 'Bearer a.b.c' } });
    expect(res.statusCode).toBe(401);
    expect(await t.db.oAuth2SigningKey.count()).toBe(0);
  });

  it('defaults to a public client, as Gitea’s API does', async () => {
    const app = (await create({ name: 'cli', redirect_uris: ['http://127.0.0.1/callback'] })).json() as ApiApp;
    expect(app.confidential_client).toBe(false);
  });

  it('updates every field and regenerates the secret (the old one stops matching)', async () => {
    const before = (await create({ name: 'old', redirect_uris: ['https://a.example/cb'], confidential_client: true })).json() as ApiApp;
    const res = await t.request('PATCH', `${base}/${before.id}`, {
      headers: basic('alice'),
      body: { name: 'new', redirect_uris: ['https://b.example/cb', 'https://c.example/cb'], skip_secondary_authorization: true },
    });
    expect(res.statusCode).toBe(200);
    const after = res.json() as ApiApp;
    expect(after).toMatchObject({
      id: before.id,
      name: 'new',
      client_id: before.client_id,
      redirect_uris: ['https://b.example/cb', 'https://c.example/cb'],
      confidential_client: false,
      skip_secondary_authorization: true,
    });
    expect(after.client_secret).toMatch(/^gto_/);
    expect(after.client_secret).not.toBe(before.client_secret);
    const row = await t.db.oAuth2Application.findUniqueOrThrow({ where: { id: before.id } });
    expect(row.clientSecretHash).toBe(hashToken(after.client_secret));
  });

  it('refuses bad input with Gitea’s binding errors (422) and bad redirect URIs', async () => {
    const cases: Array<[unknown, string]> = [
      [{ redirect_uris: ['https://x.example/cb'] }, '[Name]: Required'],
      [{ name: 'x' }, '[RedirectURIs]: Required'],
      [{ name: 'x', redirect_uris: [] }, '[RedirectURIs]: Required'],
      [{ name: 'x', redirect_uris: ['not a url'] }, '[RedirectURIs]: invalid redirect URI: not a url'],
      [{ name: 'x', redirect_uris: ['https://x.example/cb#frag'] }, '[RedirectURIs]: invalid redirect URI: https://x.example/cb#frag'],
      [{ name: 'x', redirect_uris: ['javascript:alert(1)'] }, '[RedirectURIs]: invalid redirect URI: javascript:alert(1)'],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toEqual({ message, url: SWAGGER });
    }
    const bad = await t.request('POST', base, { headers: { ...basic('alice'), 'content-type': 'application/json' }, payload: '{"name":' });
    expect(bad.statusCode).toBe(422);
    expect(isGiteaError(bad.json())).toBe(true);
  });

  it('hides other users’ applications (404) and needs a signed-in user (401)', async () => {
    const app = (await create({ name: 'mine', redirect_uris: ['https://m.example/cb'] })).json() as ApiApp;
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x', redirect_uris: ['https://x.example/cb'] }], ['DELETE']] as const) {
      const res = await t.request(method, `${base}/${app.id}`, { headers: basic('bob'), ...(body ? { body } : {}) });
      expect(res.statusCode, method).toBe(404);
      expect(isGiteaError(res.json())).toBe(true);
    }
    expect((await t.request('GET', `${base}/999999`, { headers: basic('alice') })).statusCode).toBe(404);
    expect((await t.request('GET', `${base}/abc`, { headers: basic('alice') })).statusCode).toBe(404);
    const bobs = await t.request('GET', base, { headers: basic('bob') });
    expect(bobs.json()).toEqual([]);
    const anon = await t.request('GET', base);
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ message: 'token is required', url: SWAGGER });
  });

  it('enforces token scopes: read:user to read, write:user to write', async () => {
    const reader = await t.createToken('alice', ['read:user']);
    const list = await t.request('GET', base, { headers: tokenAuth(reader) });
    expect(list.statusCode).toBe(200);
    const denied = await create({ name: 'x', redirect_uris: ['https://x.example/cb'] }, tokenAuth(reader));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toContain('required=[write:user]');
    const other = await t.createToken('alice', ['read:repository']);
    expect((await t.request('GET', base, { headers: tokenAuth(other) })).statusCode).toBe(403);
  });

  it('deletes an application with its grants (204), then it is gone', async () => {
    const app = (await create({ name: 'gone', redirect_uris: ['https://g.example/cb'] })).json() as ApiApp;
    const bob = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'bob' } });
    await t.db.oAuth2Grant.create({ data: { userId: bob.id, applicationId: app.id, scope: 'openid' } });
    const del = await t.request('DELETE', `${base}/${app.id}`, { headers: basic('alice') });
    expect(del.statusCode).toBe(204);
    expect((await t.request('GET', `${base}/${app.id}`, { headers: basic('alice') })).statusCode).toBe(404);
    expect(await t.db.oAuth2Grant.count({ where: { applicationId: app.id } })).toBe(0);
    expect((await t.request('DELETE', `${base}/${app.id}`, { headers: basic('alice') })).statusCode).toBe(404);
  });

  it('lists and revokes the viewer’s grants (extension); another user’s grant is 404', async () => {
    const app = (await create({ name: 'granted', redirect_uris: ['https://gr.example/cb'] })).json() as ApiApp;
    const bob = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'bob' } });
    const grant = await t.db.oAuth2Grant.create({ data: { userId: bob.id, applicationId: app.id, scope: 'openid profile' } });
    const list = await t.request('GET', '/api/v1/user/oauth2/grants', { headers: basic('bob') });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      {
        id: grant.id,
        application_id: app.id,
        application_name: 'granted',
        client_id: app.client_id,
        scope: 'openid profile',
        created: expect.any(String),
        updated: expect.any(String),
      },
    ]);
    expect((await t.request('DELETE', `/api/v1/user/oauth2/grants/${grant.id}`, { headers: basic('alice') })).statusCode).toBe(404);
    expect((await t.request('DELETE', `/api/v1/user/oauth2/grants/${grant.id}`, { headers: basic('bob') })).statusCode).toBe(204);
    expect(await t.db.oAuth2Grant.count({ where: { id: grant.id } })).toBe(0);
  });
});
