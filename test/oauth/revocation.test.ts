// OAuth2 access tokens in the token cache: a warm token costs no statement, and revoking its grant (the user, the
// application's deletion, a replayed refresh token) ends it at once here and on another instance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { createDb, prepareDb, type Db } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { authorizeUrl, FormBrowser, hiddenFields, registerApp, tokenRequest, type RegisteredApp } from './oauthFixtures.ts';

const CB = 'https://app.example/cb';

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(PROVIDERS)('OAuth2 token revocation across instances (%s)', (provider) => {
  let t: TestApp;
  let other: App;
  let otherDb: Db;
  let app: RegisteredApp;

  const me = (instance: App, token: string) =>
    instance.server.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${token}` } });
  const generation = (instance: App) => instance.deps.tokenCache?.generation() ?? null;

  /** Tokens for alice through the sign-in and consent forms on the first instance. */
  async function tokens(client = app): Promise<{ access_token: string; refresh_token: string }> {
    const browser = new FormBrowser(t);
    const p = { response_type: 'code', client_id: client.clientId, redirect_uri: CB, scope: 'openid', state: 's' };
    const signIn = await browser.get(authorizeUrl(p));
    const signedIn = await browser.post('/login/oauth/authorize', { ...hiddenFields(signIn.body), user_name: 'alice', password: PASSWORD });
    const next = await browser.get(`/login/oauth/${signedIn.headers.location}`);
    const answer =
      next.statusCode === 302 ? next : await browser.post('/login/oauth/grant', { ...hiddenFields(next.body), granted: 'true' });
    const code = new URL(String(answer.headers.location)).searchParams.get('code') ?? '';
    const res = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CB,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { access_token: string; refresh_token: string };
  }

  /** Both instances accept `token`, then `revoke` runs on the first; both refuse it right after. */
  async function revokedEverywhere(token: string, revoke: () => Promise<void>): Promise<void> {
    expect((await me(t.app, token)).statusCode).toBe(200);
    expect((await me(other, token)).statusCode).toBe(200);
    const before = generation(other);
    await revoke();
    expect((await me(t.app, token)).statusCode).toBe(401);
    await until(() => generation(other) !== before, 'the revocation to reach the other instance');
    expect((await me(other, token)).statusCode).toBe(401);
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('dev');
    app = await registerApp(t, 'dev', { redirectUris: [CB] });
    otherDb = await createDb({ provider, url: t.config.databaseUrl });
    await prepareDb(otherDb, provider);
    other = await buildApp(t.config, { db: otherDb });
    await other.server.ready();
    await until(() => generation(t.app) !== null && generation(other) !== null, 'the token caches');
  });
  afterAll(async () => {
    await other?.close();
    await otherDb?.$disconnect();
    await t?.close();
  });

  it('a warm OAuth2 token runs no statement for authentication; both instances verify with the one stored key', async () => {
    const { access_token: token } = await tokens();
    expect((await me(other, token)).statusCode).toBe(200);
    expect((await me(t.app, token)).statusCode).toBe(200);
    t.queries.length = 0;
    expect((await me(t.app, token)).statusCode).toBe(200);
    expect(t.queries.filter((q) => /OAuth2/.test(q))).toEqual([]);
    expect(await t.db.oAuth2SigningKey.count()).toBe(1);
  });

  it('the user revoking the grant', async () => {
    const { access_token: token } = await tokens();
    await revokedEverywhere(token, async () => {
      const [grant] = (await t.request('GET', '/api/v1/user/oauth2/grants', { headers: basic('alice') })).json() as Array<{ id: number }>;
      expect((await t.request('DELETE', `/api/v1/user/oauth2/grants/${grant?.id}`, { headers: basic('alice') })).statusCode).toBe(204);
    });
  });

  it('a replayed refresh token', async () => {
    const first = await tokens();
    const refresh = (refreshToken: string) =>
      tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      });
    const second = (await refresh(first.refresh_token)).json() as { access_token: string };
    await revokedEverywhere(second.access_token, async () => {
      expect((await refresh(first.refresh_token)).json().error).toBe('invalid_grant');
    });
  });

  it('deleting the application', async () => {
    const doomed = await registerApp(t, 'dev', { name: 'doomed', redirectUris: [CB] });
    const { access_token: token } = await tokens(doomed);
    await revokedEverywhere(token, async () => {
      expect((await t.request('DELETE', `/api/v1/user/applications/oauth2/${doomed.id}`, { headers: basic('dev') })).statusCode).toBe(204);
    });
  });
});
