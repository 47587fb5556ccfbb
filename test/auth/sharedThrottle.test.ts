import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { createDb, prepareDb, type Db } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? '';

/** With REDIS_URL, instances of one installation count failed sign-ins together (rate-limiter-flexible's Redis store). */
describe.skipIf(!REDIS_URL).each(PROVIDERS)('failed sign-ins counted across instances through Redis (%s)', (provider) => {
  let t: TestApp;
  let other: App;
  let otherDb: Db;
  const signIn = (app: App, password: string, address: string) =>
    app.server.inject({ method: 'GET', url: '/api/v1/user', headers: basic('alice', password), remoteAddress: address });

  beforeAll(async () => {
    t = await startTestApp(provider, { REDIS_URL, LOGIN_MAX_FAILS_PER_ACCOUNT: '3', LOGIN_BLOCK_SECONDS: '60' });
    await t.createUser('alice');
    otherDb = await createDb({ provider, url: t.config.databaseUrl });
    await prepareDb(otherDb, provider);
    other = await buildApp(t.config, { db: otherDb });
    await other.server.ready();
  });
  afterAll(async () => {
    await other?.close();
    await otherDb?.$disconnect();
    await t?.close();
  });

  it('three failures on one instance block the fourth attempt on the other, even with the right password', async () => {
    // A fresh address per run: Redis outlives the test database.
    const address = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    expect((await signIn(other, PASSWORD, address)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await signIn(t.app, `wrong-${i}`, address)).statusCode).toBe(401);
    const refused = await signIn(other, PASSWORD, address);
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body).message).toMatch(/too many failed sign-in attempts for this account/);
    // Another address is not affected.
    expect((await signIn(other, PASSWORD, '203.0.113.9')).statusCode).toBe(200);
  });
});
