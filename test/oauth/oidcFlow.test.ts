// A real OpenID Connect client (openid-client) against the provider, the user's side driven by headless Chromium
// (playwright-core): discovery, authorization code + PKCE through the sign-in and consent pages, then the access
// token on every door (REST, GraphQL, git smart HTTP, packages), refresh, and revocation.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { addMember, createOrgAs } from '../helpers/org.ts';
import { freePort } from '../helpers/serverProcess.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { registerApp, type RegisteredApp } from './oauthFixtures.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** The client's redirect target: answers the browser; the test reads the callback URL from the browser itself. */
class Callback {
  readonly server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('done');
  });
  port = 0;
  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
}

/** How long one browser step may take before the test names it and fails (a hang, not slowness). */
const STEP_TIMEOUT = 60_000;

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

describe.each(CLIENT_PROVIDERS)('OpenID Connect with openid-client and Chromium (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let root: string;
  let callback: Callback;
  let git: GitClient;
  let alice: Models.User;
  let app: RegisteredApp;
  let config: oidc.Configuration;
  let context: BrowserContext;
  const insecure = { execute: [oidc.allowInsecureRequests] };

  /** Runs the browser through an authorization; signs in (when asked) and grants consent (when asked). */
  async function authorize(cfg: oidc.Configuration, scope: string, expect: { signIn: boolean; consent: boolean }) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(cfg, {
      redirect_uri: `http://127.0.0.1:${callback.port}/callback`,
      scope,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    let callbackUrl: URL;
    try {
      const arrived = page.waitForURL((u) => u.port === String(callback.port) && u.pathname === '/callback');
      arrived.catch(() => undefined); // awaited below; a step before it may fail first
      await page.goto(url.href);
      if (expect.signIn) {
        await page.fill('#user_name', 'alice');
        await page.fill('#password', PASSWORD);
        await page.click('button[type=submit]');
      }
      if (expect.consent) {
        await page.waitForSelector('button[value=true]');
        const text = await page.textContent('body');
        if (!text?.includes('asks for access to your account')) throw new Error(`not the consent page: ${text}`);
        await page.click('button[value=true]');
      }
      await arrived;
      callbackUrl = new URL(page.url());
    } finally {
      await page.close();
    }
    const tokens = await oidc.authorizationCodeGrant(cfg, callbackUrl, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: scope.includes('openid'),
    });
    return { tokens, callbackUrl };
  }

  const api = (token: string, path = '/api/v1/user') =>
    fetch(`${root}${path.slice(1)}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(STEP_TIMEOUT) });
  const viewer = async (token: string) => {
    const res = await fetch(`${root}api/graphql`, {
      method: 'POST',
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { login } }' }),
      signal: AbortSignal.timeout(STEP_TIMEOUT),
    });
    return { status: res.status, body: (await res.json()) as { data?: { viewer: { login: string } | null }; errors?: unknown[] } };
  };
  const clone = (token: string, dir: string) =>
    git.run(['clone', '-q', gitUrl(port, 'alice', 'secret', { user: 'oauth2', secret: token }), git.dir(dir)]);

  beforeAll(async () => {
    port = await freePort();
    root = `http://127.0.0.1:${port}/`;
    t = await startTestApp(provider, { ROOT_URL: root });
    await t.app.server.listen({ port, host: '127.0.0.1' });
    callback = new Callback();
    await callback.listen();
    git = new GitClient();
    alice = await t.createUser('alice', { fullName: 'Alice Liddell' });
    const dev = await t.createUser('dev');
    const acme = await createOrgAs(t, dev, 'acme', 'PRIVATE');
    await addMember(t, acme, alice, { team: 'Devs' });
    await createRepoFixture(t, alice, 'secret', { isPrivate: true });
    const seed = git.dir('seed');
    await git.ok(['init', '-q', seed]);
    await git.commit(seed, 'README.md', '# secret\n');
    await git.ok(['push', '-q', gitUrl(port, 'alice', 'secret', { user: 'alice', secret: PASSWORD }), 'main'], { cwd: seed });
    app = await registerApp(t, 'dev', {
      name: 'Dev Portal',
      redirectUris: [`http://127.0.0.1:${callback.port}/callback`],
      confidential: true,
    });
    config = await oidc.discovery(new URL(root), app.clientId, app.clientSecret, undefined, insecure);
    context = await browser.newContext();
  });
  afterAll(async () => {
    await context?.close();
    git?.dispose();
    await new Promise((resolve) => callback?.server.close(resolve));
    await t?.close();
  });

  it('discovers the issuer: Gitea’s endpoints, RS256 keys', async () => {
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(root);
    expect(meta.authorization_endpoint).toBe(`${root}login/oauth/authorize`);
    expect(meta.token_endpoint).toBe(`${root}login/oauth/access_token`);
    expect(meta.userinfo_endpoint).toBe(`${root}login/oauth/userinfo`);
    expect(meta.code_challenge_methods_supported).toContain('S256');
    const jwks = (await (await fetch(`${root}login/oauth/keys`)).json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB', kid: expect.any(String) });
  });

  let first: Awaited<ReturnType<typeof authorize>>['tokens'];

  it('signs in and consents in the browser; the code comes back with PKCE, state and an ID token with Gitea’s claims', async () => {
    const { tokens, callbackUrl } = await authorize(config, 'openid profile email groups', { signIn: true, consent: true });
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();
    first = tokens;
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    const claims = tokens.claims();
    expect(claims).toMatchObject({
      iss: root,
      sub: String(alice.id),
      aud: app.clientId,
      name: 'Alice Liddell',
      preferred_username: 'alice',
      profile: `${root}alice`,
      email: 'alice@example.com',
      email_verified: true,
      groups: ['acme', 'acme:devs'],
    });
    expect(claims?.picture).toMatch(new RegExp(`^${root}avatars/`));
    const info = await oidc.fetchUserInfo(config, tokens.access_token, String(alice.id));
    expect(info).toMatchObject({
      sub: String(alice.id),
      preferred_username: 'alice',
      email: 'alice@example.com',
      groups: ['acme', 'acme:devs'],
    });
  });

  it('the access token works on REST, GraphQL, git smart HTTP and packages like an access token', async () => {
    const token = first.access_token;
    const me = await api(token);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { login: string }).login).toBe('alice');
    const headerForm = await fetch(`${root}api/v1/repos/alice/secret`, { headers: { authorization: `token ${token}` } });
    expect(headerForm.status).toBe(200);
    expect((await viewer(token)).body.data?.viewer?.login).toBe('alice');
    const cloned = await clone(token, 'clone-ok');
    expect(cloned.code, cloned.stderr).toBe(0);
    const put = await fetch(`${root}api/packages/alice/generic/tool/1.0.0/tool.txt`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
      body: 'tool',
    });
    expect(put.status).toBe(201);
    const got = await fetch(`${root}api/packages/alice/generic/tool/1.0.0/tool.txt`, { headers: { authorization: `Bearer ${token}` } });
    expect(await got.text()).toBe('tool');
  });

  it('a second authorization with the same scopes skips the consent page (confidential client, remembered grant)', async () => {
    const { tokens } = await authorize(config, 'openid profile', { signIn: false, consent: false });
    expect(tokens.claims()?.preferred_username).toBe('alice');
    expect(await t.db.oAuth2Grant.count({ where: { applicationId: app.id } })).toBe(1);
  });

  it('refreshes with a rotating refresh token; replaying the old one revokes the grant', async () => {
    const refreshed = await oidc.refreshTokenGrant(config, first.refresh_token ?? '');
    expect(refreshed.refresh_token).not.toBe(first.refresh_token);
    expect((await api(refreshed.access_token)).status).toBe(200);
    const replay = await oidc.refreshTokenGrant(config, first.refresh_token ?? '').catch((err: unknown) => err);
    expect(replay).toBeInstanceOf(oidc.ResponseBodyError);
    expect((replay as oidc.ResponseBodyError).error).toBe('invalid_grant');
    expect((await api(refreshed.access_token)).status).toBe(401);
    expect((await api(first.access_token)).status).toBe(401);
    const again = await oidc.refreshTokenGrant(config, refreshed.refresh_token ?? '').catch((err: unknown) => err);
    expect((again as oidc.ResponseBodyError).error).toBe('invalid_grant');
  });

  it('the user revoking the grant ends its tokens on REST, GraphQL and git at once', async () => {
    // The grant went with the replay: the user is asked again.
    const { tokens } = await authorize(config, 'openid', { signIn: false, consent: true });
    expect((await api(tokens.access_token)).status).toBe(200);
    expect((await clone(tokens.access_token, 'clone-before-revoke')).code).toBe(0);
    const grants = (await (await fetch(`${root}api/v1/user/oauth2/grants`, { headers: basic('alice') })).json()) as Array<{ id: number }>;
    expect(grants).toHaveLength(1);
    const del = await fetch(`${root}api/v1/user/oauth2/grants/${grants[0]?.id}`, { method: 'DELETE', headers: basic('alice') });
    expect(del.status).toBe(204);
    expect((await api(tokens.access_token)).status).toBe(401);
    expect((await viewer(tokens.access_token)).status).toBe(401);
    const refused = await clone(tokens.access_token, 'clone-after-revoke');
    expect(refused.code).not.toBe(0);
    const refresh = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '').catch((err: unknown) => err);
    expect((refresh as oidc.ResponseBodyError).error).toBe('invalid_grant');
  });

  it('deleting the application ends its tokens', async () => {
    const { tokens } = await authorize(config, 'openid', { signIn: false, consent: true });
    expect((await api(tokens.access_token)).status).toBe(200);
    const del = await fetch(`${root}api/v1/user/applications/oauth2/${app.id}`, { method: 'DELETE', headers: basic('dev') });
    expect(del.status).toBe(204);
    expect((await api(tokens.access_token)).status).toBe(401);
  });

  it('a public client (no secret) completes PKCE on a loopback redirect URI registered without a port; consent is asked each time', async () => {
    const cli = await registerApp(t, 'dev', { name: 'CLI', redirectUris: ['http://127.0.0.1/callback'], confidential: false });
    const cfg = await oidc.discovery(new URL(root), cli.clientId, undefined, oidc.None(), insecure);
    const { tokens } = await authorize(cfg, 'openid read:repository', { signIn: false, consent: true });
    expect(tokens.claims()?.sub).toBe(String(alice.id));
    expect((await api(tokens.access_token, '/api/v1/repos/alice/secret')).status).toBe(200);
    // read:repository only: the user endpoints need read:user.
    expect((await api(tokens.access_token)).status).toBe(403);
    const second = await authorize(cfg, 'openid read:repository', { signIn: false, consent: true });
    expect(second.tokens.access_token).toBeTruthy();
  });
});
