import * as argon2 from '@node-rs/argon2';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

// A pass-through spy on argon2's verify: it still does the real work, the test only counts the calls.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify) };
});
const verify = vi.mocked(argon2.verify);

/** The parameter part of a PHC string: `$argon2id$v=19$m=19456,t=2,p=1`. */
const params = (phc: string) => phc.split('$').slice(0, 4).join('$');

/**
 * User enumeration by timing: every failed password sign-in pays exactly one argon2 verification with
 * the same parameters, whether the account exists or not (bench/loginThrottle.ts measures the times).
 */
describe.each(PROVIDERS)('unknown users cost one argon2 verification like wrong passwords (%s)', (provider) => {
  let t: TestApp;
  let storedHash: string;
  let address = 0;

  /** A sign-in from a fresh address each time, so the throttle never interferes. */
  const signIn = (login: string, password: string) =>
    t.app.server.inject({ method: 'GET', url: '/api/v1/user', headers: basic(login, password), remoteAddress: `10.77.0.${++address}` });

  beforeAll(async () => {
    // The default parameters (the tests' apps otherwise hash cheaply: TEST_PASSWORD_HASH_ALGO).
    t = await startTestApp(provider, { PASSWORD_HASH_ALGO: '' });
    const alice = await t.createUser('alice');
    storedHash = alice.passwordHash;
    const nopass = await t.createUser('nopass');
    await t.db.user.update({ where: { id: nopass.id }, data: { passwordHash: '' } });
    await t.db.user.create({
      data: { name: 'acme', lowerName: 'acme', type: 'ORGANIZATION', email: 'acme@example.com', passwordHash: '' },
    });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    verify.mockClear();
  });

  it('a wrong password verifies once against the stored hash', async () => {
    const res = await signIn('alice', 'wrong-password');
    expect(res.statusCode).toBe(401);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0]?.[0]).toBe(storedHash);
  });

  it.each([
    ['an unknown login', 'nobody'],
    ['an unknown e-mail address', 'nobody@example.com'],
    ['an organization', 'acme'],
    ['a user without a password', 'nopass'],
  ])('%s verifies once against a dummy hash with the same parameters', async (_label, login) => {
    const res = await signIn(login, 'wrong-password');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('invalid username, password or token');
    expect(verify).toHaveBeenCalledTimes(1);
    const used = String(verify.mock.calls[0]?.[0]);
    expect(used).not.toBe(storedHash);
    expect(params(used)).toBe(params(storedHash));
    expect(params(used)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1$/);
  });
});
