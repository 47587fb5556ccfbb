// The provider's refusals, from the attacker's side: redirect URIs, CSRF, codes, PKCE, scopes, refresh replay,
// client authentication, forged tokens. Forms are driven without a browser (FormBrowser over app.inject).
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { authorizeUrl, FormBrowser, hiddenFields, pkce, registerApp, tokenRequest, type RegisteredApp } from './oauthFixtures.ts';

const CB = 'https://app.example/cb';

describe.each(PROVIDERS)('OAuth2 provider refusals (%s)', (provider) => {
  let t: TestApp;
  let app: RegisteredApp;
  let other: RegisteredApp;
  let pub: RegisteredApp;

  const params = (over: Record<string, string> = {}, client = app) => ({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: CB,
    scope: 'openid',
    state: 'st-1',
    ...over,
  });

  /** Signs `user` in on a fresh browser and brings it to the consent page of `p`; returns the browser and the form. */
  async function toConsent(p: Record<string, string>, user = 'alice') {
    const browser = new FormBrowser(t);
    const signInPage = await browser.get(authorizeUrl(p));
    expect(signInPage.statusCode).toBe(200);
    const signedIn = await browser.post('/login/oauth/authorize', {
      ...hiddenFields(signInPage.body),
      user_name: user,
      password: PASSWORD,
    });
    expect(signedIn.statusCode).toBe(303);
    const consent = await browser.get(`/login/oauth/${signedIn.headers.location}`);
    return { browser, consent, form: hiddenFields(consent.body) };
  }

  /** A code for `p` (consented by alice), from the redirect's query. */
  async function codeFor(p: Record<string, string>): Promise<string> {
    const { browser, consent, form } = await toConsent(p);
    // A confidential client the user already granted these scopes gets its code without the consent page.
    const answer = consent.statusCode === 302 ? consent : await browser.post('/login/oauth/grant', { ...form, granted: 'true' });
    expect(answer.statusCode).toBe(consent.statusCode === 302 ? 302 : 303);
    return new URL(String(answer.headers.location)).searchParams.get('code') ?? '';
  }

  const exchange = (code: string, over: Record<string, string> = {}, client = app) =>
    tokenRequest(t, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CB,
      client_id: client.clientId,
      client_secret: client.clientSecret,
      ...over,
    });
  const me = (token: string, path = '/api/v1/user') => t.request('GET', path, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    t = await startTestApp(provider, { LOGIN_MAX_FAILS_PER_ACCOUNT: '3' });
    await t.createUser('alice');
    await t.createUser('mallory');
    await t.createUser('victim');
    await t.createUser('dev');
    app = await registerApp(t, 'dev', { redirectUris: [CB, 'https://app.example/other'], confidential: true });
    other = await registerApp(t, 'dev', { name: 'other', redirectUris: [CB], confidential: true });
    pub = await registerApp(t, 'dev', { name: 'public', redirectUris: [CB, 'http://127.0.0.1/cb'], confidential: false });
  });
  afterAll(() => t.close());

  describe('authorization requests', () => {
    it('refuses redirect URIs that are not exactly registered, on an error page, never redirecting', async () => {
      const browser = new FormBrowser(t);
      for (const uri of [
        'https://app.example/cb/extra',
        'https://app.example/cbx',
        'https://app.example/cb/',
        'https://APP.example/cb',
        'https://app.example/CB',
        'https://app.example/cb?next=https://evil.example/',
        'https://app.example.evil.example/cb',
        'https://evil.example/cb',
        'http://app.example/cb',
        '//evil.example/cb',
        '',
      ]) {
        const res = await browser.get(authorizeUrl(params({ redirect_uri: uri })));
        expect(res.statusCode, uri).toBe(400);
        expect(res.headers.location, uri).toBeUndefined();
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.body).toContain('Unregistered Redirect URI');
      }
      const unknown = await browser.get(authorizeUrl(params({ client_id: 'nope' })));
      expect(unknown.statusCode).toBe(400);
      expect(unknown.headers.location).toBeUndefined();
      // Confidential clients get no loopback port leniency; nor does a public client on a non-loopback host.
      expect((await browser.get(authorizeUrl(params({ redirect_uri: 'http://127.0.0.1:8080/cb' })))).statusCode).toBe(400);
      expect((await browser.get(authorizeUrl(params({ redirect_uri: 'https://app.example:444/cb' }, pub)))).statusCode).toBe(400);
    });

    it('sends other refusals to the registered redirect URI with the state (RFC 6749 §4.1.2.1)', async () => {
      const browser = new FormBrowser(t);
      const cases: Array<[Record<string, string>, RegisteredApp, string]> = [
        [{ response_type: 'token' }, app, 'unsupported_response_type'],
        [{}, pub, 'invalid_request'], // a public client without PKCE
        [{ code_challenge: pkce().challenge, code_challenge_method: 'S512' }, app, 'invalid_request'],
        [{ code_challenge: 'short' }, app, 'invalid_request'],
      ];
      for (const [over, client, error] of cases) {
        const res = await browser.get(authorizeUrl(params(over, client)));
        expect(res.statusCode, JSON.stringify(over)).toBe(302);
        const location = new URL(String(res.headers.location));
        expect(`${location.origin}${location.pathname}`).toBe(CB);
        expect(location.searchParams.get('error')).toBe(error);
        expect(location.searchParams.get('state')).toBe('st-1');
        expect(location.searchParams.get('code')).toBeNull();
      }
    });

    it('lets a public client vary the port of its loopback redirect URI (RFC 8252 §7.3), as Gitea does', async () => {
      const { consent } = await toConsent(params({ redirect_uri: 'http://127.0.0.1:49152/cb', ...challenge() }, pub));
      expect(consent.statusCode).toBe(200);
      expect(consent.body).toContain('http://127.0.0.1:49152/cb');
    });

    it('serves its pages with secure headers and cookies (HttpOnly, SameSite=Lax, Path)', async () => {
      const res = await new FormBrowser(t).get(authorizeUrl(params()));
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['cache-control']).toBe('no-store');
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^fg_oauth_csrf=[\w-]{43}; Path=\/login\/oauth; HttpOnly; SameSite=Lax$/);
      expect(res.body).not.toContain('<script');
    });

    it('denying consent answers access_denied with the state', async () => {
      const { browser, form } = await toConsent(params());
      const res = await browser.post('/login/oauth/grant', { ...form, granted: 'false' });
      expect(res.statusCode).toBe(303);
      const location = new URL(String(res.headers.location));
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('st-1');
    });
  });

  describe('CSRF', () => {
    it('refuses a sign-in form without its token or with another browser’s cookie', async () => {
      const browser = new FormBrowser(t);
      const page = await browser.get(authorizeUrl(params()));
      const fields = hiddenFields(page.body);
      const { _csrf: _, ...withoutToken } = fields;
      expect((await browser.post('/login/oauth/authorize', { ...withoutToken, user_name: 'alice', password: PASSWORD })).statusCode).toBe(
        400,
      );
      const attacker = new FormBrowser(t);
      const res = await attacker.post('/login/oauth/authorize', { ...fields, user_name: 'alice', password: PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Invalid CSRF token');
      expect(attacker.cookies.has('fg_oauth_session')).toBe(false);
    });

    it('refuses a consent without its token, with a tampered request, or from another session: no code is issued', async () => {
      const { browser, form } = await toConsent(params());
      const codes = await t.db.oAuth2AuthorizationCode.count();
      const { _csrf: _, ...withoutToken } = form;
      expect((await browser.post('/login/oauth/grant', { ...withoutToken, granted: 'true' })).statusCode).toBe(400);
      const tampered = await browser.post('/login/oauth/grant', { ...form, redirect_uri: 'https://app.example/other', granted: 'true' });
      expect(tampered.statusCode).toBe(400);
      expect((await browser.post('/login/oauth/grant', { ...form, scope: 'openid write:admin', granted: 'true' })).statusCode).toBe(400);
      // Mallory's consent form replayed in Alice's browser: bound to Mallory's session, so refused.
      const mallory = await toConsent(params(), 'mallory');
      expect((await browser.post('/login/oauth/grant', { ...mallory.form, granted: 'true' })).statusCode).toBe(400);
      expect(await t.db.oAuth2AuthorizationCode.count()).toBe(codes);
    });

    it('throttles failed sign-ins on the form like the API (429 with Retry-After)', async () => {
      const browser = new FormBrowser(t);
      const fields = hiddenFields((await browser.get(authorizeUrl(params()))).body);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await browser.post('/login/oauth/authorize', { ...fields, user_name: 'victim', password: 'wrong' })).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const res = await browser.post('/login/oauth/authorize', { ...fields, user_name: 'victim', password: PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  const challenge = () => {
    const p = pkce();
    return { code_challenge: p.challenge, code_challenge_method: 'S256' };
  };

  describe('the token endpoint', () => {
    it('exchanges a code once: a replay is refused and revokes the grant, ending the first tokens', async () => {
      const code = await codeFor(params());
      const first = await exchange(code);
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      const tokens = first.json() as { access_token: string };
      expect((await me(tokens.access_token)).statusCode).toBe(200);
      const replay = await exchange(code);
      expect(replay.statusCode).toBe(400);
      expect(replay.json().error).toBe('invalid_grant');
      expect((await me(tokens.access_token)).statusCode).toBe(401);
    });

    it('refuses an expired code', async () => {
      const code = await codeFor(params());
      await t.db.oAuth2AuthorizationCode.updateMany({ where: { usedAt: null }, data: { validUntil: new Date(Date.now() - 1000) } });
      const res = await exchange(code);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'invalid_grant', error_description: 'the authorization code has expired' });
    });

    it('checks PKCE: a missing or wrong verifier is refused, the right one then works', async () => {
      const p = pkce();
      const code = await codeFor(params({ code_challenge: p.challenge, code_challenge_method: 'S256' }));
      for (const verifier of ['', pkce().verifier, p.challenge]) {
        const res = await exchange(code, { code_verifier: verifier });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('invalid_grant');
      }
      expect((await exchange(code, { code_verifier: p.verifier })).statusCode).toBe(200);
    });

    it('refuses a code sent with another redirect URI, or by another client', async () => {
      const code = await codeFor(params());
      expect((await exchange(code, { redirect_uri: 'https://app.example/other' })).json().error).toBe('invalid_grant');
      expect((await exchange(code, {}, other)).json().error).toBe('invalid_grant');
      expect((await exchange(code)).statusCode).toBe(200);
    });

    it('authenticates clients by body or Basic; a wrong secret is 401 invalid_client', async () => {
      const wrong = await exchange('whatever', { client_secret: 'gto_wrong' });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().error).toBe('invalid_client');
      const basicWrong = await tokenRequest(
        t,
        { grant_type: 'authorization_code', code: 'x', redirect_uri: CB },
        { id: app.clientId, secret: 'nope' },
      );
      expect(basicWrong.statusCode).toBe(401);
      expect(basicWrong.headers['www-authenticate']).toMatch(/^Basic /);
      const code = await codeFor(params());
      const viaBasic = await tokenRequest(
        t,
        { grant_type: 'authorization_code', code, redirect_uri: CB },
        { id: app.clientId, secret: app.clientSecret },
      );
      expect(viaBasic.statusCode).toBe(200);
      const conflicting = await tokenRequest(
        t,
        { grant_type: 'authorization_code', code, redirect_uri: CB, client_id: other.clientId },
        { id: app.clientId, secret: app.clientSecret },
      );
      expect(conflicting.json().error).toBe('invalid_request');
      expect((await tokenRequest(t, { grant_type: 'password', client_id: app.clientId })).json().error).toBe('unsupported_grant_type');
    });

    it('never widens a token beyond the scopes asked for; unknown scope names are ignored, not promoted to `all`', async () => {
      const code = await codeFor(params({ scope: 'openid read:repository read:user bogus:scope' }));
      const { access_token: token, refresh_token: refresh } = (await exchange(code)).json() as {
        access_token: string;
        refresh_token: string;
      };
      expect((await me(token, '/api/v1/repos/search')).statusCode).toBe(200);
      expect((await me(token)).statusCode).toBe(200);
      const write = await t.request('POST', '/api/v1/user/repos', { headers: { authorization: `Bearer ${token}` }, body: { name: 'x' } });
      expect(write.statusCode).toBe(403);
      // Refreshing cannot add scopes (RFC 6749 §6), by name or by effect (`openid` alone would be `all`), but may narrow them.
      const refreshWith = (scope: string) =>
        tokenRequest(t, {
          grant_type: 'refresh_token',
          refresh_token: refresh,
          scope,
          client_id: app.clientId,
          client_secret: app.clientSecret,
        });
      for (const scope of ['openid write:repository', 'openid', 'openid read:repository read:user email']) {
        const wider = await refreshWith(scope);
        expect(wider.statusCode, scope).toBe(400);
        expect(wider.json().error).toBe('invalid_scope');
      }
      const narrower = await refreshWith('openid read:repository');
      expect(narrower.statusCode).toBe(200);
      const narrowed = narrower.json().access_token as string;
      expect((await me(narrowed, '/api/v1/repos/search')).statusCode).toBe(200);
      expect((await me(narrowed)).statusCode).toBe(403);
    });

    it('asks for consent again when a request would reach further than the grant, even with fewer scope names', async () => {
      await codeFor(params({ scope: 'openid read:repository' }, other));
      const { consent } = await toConsent(params({ scope: 'openid' }, other));
      expect(consent.statusCode).toBe(200);
      expect(consent.body).toContain('API access of its tokens: <code>all</code>');
      const again = await toConsent(params({ scope: 'openid read:repository' }, other));
      expect(again.consent.statusCode).toBe(302);
    });

    it('a scope the user cannot use gives nothing: write:admin for a non-admin', async () => {
      const code = await codeFor(params({ scope: 'write:admin' }));
      const { access_token: token } = (await exchange(code)).json() as { access_token: string };
      expect((await me(token, '/api/v1/admin/users')).statusCode).toBe(403);
    });

    it('refuses ID tokens, refresh tokens and foreign JWTs as access tokens', async () => {
      const code = await codeFor(params());
      const tokens = (await exchange(code)).json() as { id_token: string; refresh_token: string };
      expect((await me(tokens.id_token)).statusCode).toBe(401);
      expect((await me(tokens.refresh_token)).statusCode).toBe(401);
      const { privateKey } = await generateKeyPair('RS256');
      const grant = await t.db.oAuth2Grant.findFirstOrThrow();
      const forged = await new SignJWT({ gnt: grant.id, tt: 0, scope: 'all' })
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      expect((await me(forged)).statusCode).toBe(401);
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ gnt: grant.id, tt: 0, scope: 'all' })).toString('base64url')}.`;
      expect((await me(unsigned)).statusCode).toBe(401);
    });
  });

  describe('introspection and userinfo', () => {
    it('introspects for the token’s own client only, authenticated', async () => {
      const code = await codeFor(params());
      const { access_token: token } = (await exchange(code)).json() as { access_token: string };
      const ask = (client: RegisteredApp, secret = client.clientSecret) =>
        t.app.server.inject({
          method: 'POST',
          url: '/login/oauth/introspect',
          headers: {
            authorization: `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: `token=${token}`,
        });
      const mine = await ask(app);
      expect(mine.statusCode).toBe(200);
      expect(mine.json()).toMatchObject({
        active: true,
        scope: 'openid',
        client_id: app.clientId,
        username: 'alice',
        token_type: 'access_token',
      });
      expect((await ask(other)).json()).toEqual({ active: false });
      expect((await ask(app, 'gto_wrong')).statusCode).toBe(401);
    });

    it('userinfo needs a token (401 with a Bearer challenge), not a password', async () => {
      const none = await t.app.server.inject({ method: 'GET', url: '/login/oauth/userinfo' });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer /);
      const password = await t.app.server.inject({ method: 'GET', url: '/login/oauth/userinfo', headers: basic('alice') });
      expect(password.statusCode).toBe(401);
    });
  });

  describe('sessions', () => {
    it('a password change ends the browser session', async () => {
      const { browser } = await toConsent(params({ scope: 'openid profile' }), 'mallory');
      expect((await browser.get(authorizeUrl(params({ scope: 'openid profile' })))).body).toContain('asks for access');
      await t.db.user.update({ where: { lowerName: 'mallory' }, data: { passwordHash: 'changed' } });
      expect((await browser.get(authorizeUrl(params({ scope: 'openid profile' })))).body).toContain('Sign in to');
    });
  });
});

describe.each(PROVIDERS)('OAuth2 provider behind https (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider, { ROOT_URL: 'https://forge.example/' });
  });
  afterAll(() => t.close());

  it('marks its cookies Secure and publishes the https issuer', async () => {
    const dev = 'dev';
    await t.createUser(dev);
    const app = await registerApp(t, dev, { redirectUris: [CB] });
    const res = await new FormBrowser(t).get(authorizeUrl({ response_type: 'code', client_id: app.clientId, redirect_uri: CB }));
    expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const meta = (await t.app.server.inject({ method: 'GET', url: '/.well-known/openid-configuration' })).json() as { issuer: string };
    expect(meta.issuer).toBe('https://forge.example/');
  });
});
