// PASSWORD_HASH_ALGO (Gitea `[security]`): the argon2id parameters of new password hashes. The default is OWASP's
// (19 MiB, 2 passes, 1 lane); the tests' apps run with a cheap setting (TEST_PASSWORD_HASH_ALGO), so this file is
// where the default is seen; a hash made with other parameters keeps working after the setting changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/password.ts';
import { DEFAULT_PASSWORD_HASH, parsePasswordHashAlgo } from '../../src/auth/passwordHashSettings.ts';
import { loadConfig } from '../../src/config.ts';
import { basic, PASSWORD, startTestApp, TEST_PASSWORD_HASH_ALGO, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/** The parameter part of a PHC string: `$argon2id$v=19$m=19456,t=2,p=1`. */
const params = (phc: string) => phc.split('$').slice(0, 4).join('$');

describe('PASSWORD_HASH_ALGO', () => {
  it('is OWASP argon2id when unset or `argon2`; takes Gitea’s argon2$time$memory$threads$keylen spelling', () => {
    expect(parsePasswordHashAlgo(undefined)).toEqual({ timeCost: 2, memoryCost: 19_456, parallelism: 1, outputLen: 32 });
    expect(parsePasswordHashAlgo('')).toBe(DEFAULT_PASSWORD_HASH);
    expect(parsePasswordHashAlgo('argon2')).toBe(DEFAULT_PASSWORD_HASH);
    expect(parsePasswordHashAlgo('argon2$2$65536$8$50')).toEqual({ timeCost: 2, memoryCost: 65_536, parallelism: 8, outputLen: 50 });
  });

  it.each([
    ['pbkdf2', /unsupported algorithm "pbkdf2"/],
    ['bcrypt$10', /unsupported algorithm "bcrypt"/],
    ['argon2$2$65536$8', /expected argon2 or argon2\$<time>/],
    ['argon2$2$lots$8$50', /expected argon2 or argon2\$<time>/],
    ['argon2$0$65536$8$50', /time must be at least 1/],
    ['argon2$1$64$0$32', /threads must be between 1 and 255/],
    ['argon2$1$64$16$32', /memory must be at least 8 KiB per thread/],
    ['argon2$1$64$1$2', /key length must be between 4 and 1024/],
  ])('refuses %s at start, naming the setting', (value, message) => {
    expect(() => parsePasswordHashAlgo(value)).toThrow(/^PASSWORD_HASH_ALGO: /);
    expect(() => parsePasswordHashAlgo(value)).toThrow(message);
    expect(() => loadConfig({ DATA_DIR: '/tmp/forgegraph-password-hash-test', SECRET_KEY: 'k', PASSWORD_HASH_ALGO: value })).toThrow(
      message,
    );
  });
});

describe.each(PROVIDERS)('password hashes follow PASSWORD_HASH_ALGO (%s)', (provider) => {
  let byDefault: TestApp;
  let cheap: TestApp;

  beforeAll(async () => {
    byDefault = await startTestApp(provider, { PASSWORD_HASH_ALGO: '' });
    cheap = await startTestApp(provider);
  });
  afterAll(async () => {
    await byDefault.close();
    await cheap.close();
  });

  it('new accounts get a hash of the configured parameters, and sign in with it', async () => {
    expect(params((await byDefault.createUser('alice')).passwordHash)).toBe('$argon2id$v=19$m=19456,t=2,p=1');
    expect(TEST_PASSWORD_HASH_ALGO).toBe('argon2$1$64$1$32');
    expect(params((await cheap.createUser('alice')).passwordHash)).toBe('$argon2id$v=19$m=64,t=1,p=1');
    for (const t of [byDefault, cheap]) {
      expect((await t.request('GET', '/api/v1/user', { headers: basic('alice') })).statusCode).toBe(200);
      expect((await t.request('GET', '/api/v1/user', { headers: basic('alice', 'wrong-password') })).statusCode).toBe(401);
    }
  });

  it('a password set through the API is hashed with them too', async () => {
    await cheap.createUser('root', { admin: true });
    await cheap.createUser('bob');
    const res = await cheap.request('PATCH', '/api/v1/admin/users/bob', {
      headers: basic('root'),
      body: { login_name: 'bob', source_id: 0, password: 'another-password-1' },
    });
    expect(res.statusCode).toBe(200);
    const bob = await cheap.db.user.findUniqueOrThrow({ where: { lowerName: 'bob' } });
    expect(params(bob.passwordHash)).toBe('$argon2id$v=19$m=64,t=1,p=1');
    expect((await cheap.request('GET', '/api/v1/user', { headers: basic('bob', 'another-password-1') })).statusCode).toBe(200);
  });

  it('a hash made with other parameters still signs in after the setting changed', async () => {
    const carol = await cheap.createUser('carol');
    await cheap.db.user.update({ where: { id: carol.id }, data: { passwordHash: await hashPassword(PASSWORD, DEFAULT_PASSWORD_HASH) } });
    expect((await cheap.request('GET', '/api/v1/user', { headers: basic('carol') })).statusCode).toBe(200);
    expect((await cheap.request('GET', '/api/v1/user', { headers: basic('carol', 'wrong-password') })).statusCode).toBe(401);
  });
});
