import type { LightMyRequestResponse } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, LoginThrottle } from '../../src/auth/loginThrottle.ts';
import { loadConfig } from '../../src/config.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { basic, isGiteaError, PASSWORD, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

// Lowered limits, read through the same environment variables an operator sets.
const ENV = { LOGIN_MAX_FAILS_PER_ACCOUNT: '3', LOGIN_BLOCK_SECONDS: '1', LOGIN_MAX_FAILS_PER_IP: '6', LOGIN_IP_BLOCK_SECONDS: '1' };
const INVALID = 'invalid username, password or token';
const UNKNOWN_TOKEN = '0123456789abcdef0123456789abcdef01234567';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('login throttle settings', () => {
  it('reads LOGIN_* and TRUST_PROXY from the environment, with Gitea-like defaults', () => {
    const dataDir = `/tmp/fg-throttle-config-${process.pid}`;
    const defaults = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x' });
    expect(defaults.loginThrottle).toEqual({
      maxFailsPerAccount: 10,
      accountBlockSeconds: 3600,
      maxFailsPerIp: 100,
      ipBlockSeconds: 86_400,
    });
    expect(defaults.trustProxy).toEqual(['loopback']);
    const set = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x', ...ENV, TRUST_PROXY: '10.0.0.0/8, loopback' });
    expect(set.loginThrottle).toEqual({ maxFailsPerAccount: 3, accountBlockSeconds: 1, maxFailsPerIp: 6, ipBlockSeconds: 1 });
    expect(set.trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
    expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x', TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x', LOGIN_MAX_FAILS_PER_IP: '-1' })).toThrow(/LOGIN_MAX_FAILS_PER_IP/);
    expect(() => loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x', LOGIN_BLOCK_SECONDS: '0' })).toThrow(/LOGIN_BLOCK_SECONDS/);
  });

  it('keys IPv4 as is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  });
});

describe.each(PROVIDERS)('failed sign-in throttling (%s)', (provider) => {
  let t: TestApp;
  let aliceToken: string;
  let port: number;
  let git: GitClient;

  /** A request from a given client address (app.inject's remoteAddress). */
  const from = (
    address: string,
    method: string,
    url: string,
    headers: Record<string, string> = {},
    payload?: string,
  ): Promise<LightMyRequestResponse> =>
    t.app.server.inject({ method: method as 'GET', url, headers, remoteAddress: address, ...(payload !== undefined ? { payload } : {}) });
  const rest = (address: string, headers: Record<string, string>) => from(address, 'GET', '/api/v1/user', headers);
  const graphql = (address: string, headers: Record<string, string>) =>
    from(
      address,
      'POST',
      '/api/graphql',
      { ...headers, 'content-type': 'application/json' },
      JSON.stringify({ query: '{ viewer { login } }' }),
    );
  const gitRefs = (address: string, headers: Record<string, string>) =>
    from(address, 'GET', '/alice/demo.git/info/refs?service=git-upload-pack', headers);

  /** Retry-After as a number of seconds within the configured block. */
  const retryAfter = (res: LightMyRequestResponse) => Number(res.headers['retry-after']);

  beforeAll(async () => {
    t = await startTestApp(provider);
    // Tests plug their own counters with lowered limits (as an operator's environment would set them).
    t.app.deps.loginThrottle = new LoginThrottle(loadConfig({ DATA_DIR: t.config.dataDir, SECRET_KEY: 'x', ...ENV }).loginThrottle);
    const alice = await t.createUser('alice');
    for (const name of ['bob', 'carol', 'dave']) await t.createUser(name);
    const erin = await t.createUser('erin');
    aliceToken = await t.createToken('alice');
    await createRepoFixture(t, alice, 'demo');
    // Private, so that git sends credentials (a public repository is read anonymously).
    await createRepoFixture(t, erin, 'private', { isPrivate: true });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as AddressInfo).port;
    git = new GitClient();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('REST: after 3 wrong passwords the pair gets 429 with Retry-After and a Gitea error naming the limit, even with the right password', async () => {
    const address = '192.0.2.1';
    for (let i = 0; i < 3; i++) {
      const res = await rest(address, basic('alice', `wrong-${i}`));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(INVALID);
    }
    const throttled = await rest(address, basic('alice', 'wrong-3'));
    expect(throttled.statusCode).toBe(429);
    expect(retryAfter(throttled)).toBe(1);
    expect(isGiteaError(throttled.json())).toBe(true);
    expect(throttled.json().message).toBe(
      'too many failed sign-in attempts for this account from your address (limit 3); retry after 1 seconds',
    );
    // The right password from the throttled pair is refused too, without being checked.
    const right = await rest(address, basic('alice'));
    expect(right.statusCode).toBe(429);
    // Another address is not affected: the attacker cannot lock alice out.
    const elsewhere = await rest('192.0.2.2', basic('alice'));
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json().login).toBe('alice');
    // So is the same account through its e-mail address (one counter per account).
    expect((await rest(address, basic('alice@example.com'))).statusCode).toBe(429);
    // Once the block ends, the right password works again from the pair.
    await sleep(1100);
    const after = await rest(address, basic('alice'));
    expect(after.statusCode).toBe(200);
  });

  it('a success resets the pair: failures before it do not add up with failures after it', async () => {
    const address = '192.0.2.3';
    for (const round of [0, 1]) {
      for (let i = 0; i < 2; i++) expect((await rest(address, basic('bob', `wrong-${round}-${i}`))).statusCode).toBe(401);
      expect((await rest(address, basic('bob'))).statusCode).toBe(200);
    }
    expect((await rest(address, basic('bob', 'wrong-again'))).statusCode).toBe(401);
  });

  it('GraphQL: Basic failures are throttled the same way: HTTP 429, Retry-After, extensions.code RATE_LIMITED', async () => {
    const address = '192.0.2.4';
    for (let i = 0; i < 3; i++) {
      const res = await graphql(address, basic('carol', `wrong-${i}`));
      expect(res.statusCode).toBe(401);
      expect(res.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
    for (const password of ['wrong-3', PASSWORD]) {
      const res = await graphql(address, basic('carol', password));
      expect(res.statusCode).toBe(429);
      expect(retryAfter(res)).toBe(1);
      const [error] = res.json().errors;
      expect(error.extensions.code).toBe('RATE_LIMITED');
      expect(error.message).toContain('(limit 3)');
      expect(res.json().data ?? null).toBeNull();
    }
    // The counters are shared between doors: REST refuses the same pair.
    expect((await rest(address, basic('carol'))).statusCode).toBe(429);
    const other = await graphql('192.0.2.5', basic('carol'));
    expect(other.statusCode).toBe(200);
    expect(other.json().data.viewer.login).toBe('carol');
  });

  it('git smart HTTP: bad Basic credentials on info/refs are throttled (429 with Retry-After, the reason in the text body)', async () => {
    const address = '192.0.2.6';
    for (let i = 0; i < 3; i++) {
      const res = await gitRefs(address, basic('dave', `wrong-${i}`));
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="Gitea"');
    }
    for (const password of ['wrong-3', PASSWORD]) {
      const res = await gitRefs(address, basic('dave', password));
      expect(res.statusCode).toBe(429);
      expect(retryAfter(res)).toBe(1);
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.body).toContain('too many failed sign-in attempts for this account from your address (limit 3)');
    }
    expect((await gitRefs('192.0.2.7', basic('dave'))).statusCode).toBe(200);
  });

  it('the real git client reports the refusal once its pair is throttled', async () => {
    // The listening server sees git's requests from 127.0.0.1; throttle erin from there first.
    for (let i = 0; i < 3; i++) expect((await gitRefs('127.0.0.1', basic('erin', `wrong-${i}`))).statusCode).toBe(401);
    const url = gitUrl(port, 'erin', 'private', { user: 'erin', secret: PASSWORD });
    const r = await git.run(['ls-remote', url]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('429');
    expect(r.stderr).toContain('too many failed sign-in attempts for this account from your address');
    await sleep(1100);
    const ok = await git.run(['ls-remote', url]);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  });

  it('per address: 6 failures over different accounts block the address for every password, whatever the account', async () => {
    const address = '198.51.100.1';
    const names = ['bob', 'carol', 'nobody-1', 'dave', 'nobody-2', 'erin'];
    for (const name of names) expect((await rest(address, basic(name, 'wrong'))).statusCode).toBe(401);
    for (const headers of [basic('nobody-3', 'wrong'), basic('bob')]) {
      const res = await rest(address, headers);
      expect(res.statusCode).toBe(429);
      expect(retryAfter(res)).toBe(1);
      expect(res.json().message).toBe('too many failed sign-in attempts from your address (limit 6 per day); retry after 1 seconds');
    }
    // Tokens cannot be guessed: a valid one still works from the blocked address; an unknown one is refused.
    const valid = await rest(address, tokenAuth(aliceToken));
    expect(valid.statusCode).toBe(200);
    expect((await rest(address, tokenAuth(UNKNOWN_TOKEN))).statusCode).toBe(429);
    // Other addresses are not affected.
    expect((await rest('198.51.100.2', basic('bob'))).statusCode).toBe(200);
    await sleep(1100);
    expect((await rest(address, basic('bob'))).statusCode).toBe(200);
  });

  it('unknown tokens count against the address only', async () => {
    const address = '198.51.100.3';
    for (let i = 0; i < 6; i++) expect((await rest(address, tokenAuth(UNKNOWN_TOKEN))).statusCode).toBe(401);
    const res = await from(address, 'GET', `/api/v1/user?token=${UNKNOWN_TOKEN}`);
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toContain('from your address (limit 6 per day)');
    expect((await rest(address, tokenAuth(aliceToken))).statusCode).toBe(200);
  });

  it('concurrent sign-ins with the right password are never refused (nothing is counted before the check)', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => rest('192.0.2.77', basic('dave'))));
    expect(results.map((r) => r.statusCode)).toEqual(Array.from({ length: 30 }, () => 200));
  });

  it('IPv6 clients are counted per /64', async () => {
    for (let i = 1; i <= 6; i++) expect((await rest(`2001:db8:7:7::${i}`, basic(`v6-${i}`, 'wrong'))).statusCode).toBe(401);
    expect((await rest('2001:db8:7:7:abcd::1', basic('bob'))).statusCode).toBe(429);
    expect((await rest('2001:db8:7:8::1', basic('bob'))).statusCode).toBe(200);
  });

  it('X-Forwarded-For is honoured from a loopback proxy only, so a remote client cannot rotate its address', async () => {
    const address = '203.0.113.9';
    for (let i = 0; i < 3; i++) {
      const res = await rest(address, { ...basic('alice', `wrong-${i}`), 'x-forwarded-for': `10.9.9.${i}` });
      expect(res.statusCode).toBe(401);
    }
    const spoofed = await rest(address, { ...basic('alice', 'wrong-3'), 'x-forwarded-for': '10.9.9.99' });
    expect(spoofed.statusCode).toBe(429);
    // Behind a proxy on the same host, the forwarded client address is the one counted.
    for (let i = 0; i < 3; i++) {
      expect((await rest('127.0.0.1', { ...basic('alice', `wrong-${i}`), 'x-forwarded-for': '10.8.8.8' })).statusCode).toBe(401);
    }
    expect((await rest('127.0.0.1', { ...basic('alice', 'wrong'), 'x-forwarded-for': '10.8.8.8' })).statusCode).toBe(429);
    expect((await rest('127.0.0.1', { ...basic('alice'), 'x-forwarded-for': '10.8.8.9' })).statusCode).toBe(200);
  });
});
