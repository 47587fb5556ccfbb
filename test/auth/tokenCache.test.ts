import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { createDb, prepareDb, type Db } from '../../src/db/client.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { editUser } from '../helpers/fixtures.ts';

/** Waits until the app's invalidation source is live (PostgreSQL: its LISTEN connection is up). */
async function cacheReady(app: App): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const g = app.deps.tokenCache?.generation();
    if (g !== null && g !== undefined) return g;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('token cache never became usable');
}

/** Waits until `app` saw a change after generation `from` (PostgreSQL: the NOTIFY arrived; SQLite: at once). */
async function changedSince(app: App, from: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (app.deps.tokenCache?.generation() !== from) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the change never reached the instance');
}

describe.each(PROVIDERS)('token → user cache (%s)', (provider) => {
  let t: TestApp;
  /** A second instance on the same database (its own Prisma client, cache and invalidation source). */
  let other: App;
  let otherDb: Db;

  const tokenQueries = () => t.queries.filter((q) => /AccessToken/.test(q));
  const me = (app: App, token: string) => app.server.inject({ method: 'GET', url: '/api/v1/user', headers: tokenAuth(token) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('root', { admin: true });
    otherDb = await createDb({ provider, url: t.config.databaseUrl });
    await prepareDb(otherDb, provider);
    other = await buildApp(t.config, { db: otherDb });
    await other.server.ready();
    await cacheReady(t.app);
    await cacheReady(other);
  });
  afterAll(async () => {
    await other.close();
    await otherDb.$disconnect();
    await t.close();
  });

  it('a warm token request runs no statement for the token', async () => {
    const token = await t.createToken('alice');
    expect((await me(t.app, token)).statusCode).toBe(200);
    t.queries.length = 0;
    const res = await me(t.app, token);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).login).toBe('alice');
    expect(tokenQueries()).toEqual([]);
  });

  it('revoking a token takes effect on the next request, on this instance and on another one', async () => {
    const token = await t.createToken('alice', ['all'], 'revoked');
    expect((await me(t.app, token)).statusCode).toBe(200);
    expect((await me(other, token)).statusCode).toBe(200);
    const before = other.deps.tokenCache!.generation()!;
    const del = await t.request('DELETE', '/api/v1/users/alice/tokens/revoked', { headers: basic('alice') });
    expect(del.statusCode).toBe(204);
    expect((await me(t.app, token)).statusCode).toBe(401);
    await changedSince(other, before);
    expect((await me(other, token)).statusCode).toBe(401);
  });

  it('a change to the user made by another process (the CLI) is seen at once', async () => {
    const token = await t.createToken('alice', ['all'], 'cli');
    expect((await me(t.app, token)).statusCode).toBe(200);
    expect((await me(other, token)).statusCode).toBe(200);
    const before = t.app.deps.tokenCache!.generation()!;
    // Another Prisma client, as `forgegraph admin user …` writes: the server hears of it through the database.
    await otherDb.user.update({ where: { lowerName: 'alice' }, data: { prohibitLogin: true } });
    await changedSince(t.app, before);
    expect((await me(t.app, token)).statusCode).toBe(403);
    await otherDb.user.update({ where: { lowerName: 'alice' }, data: { prohibitLogin: false } });
  });

  it('an admin edit (made admin, renamed full name) is what the next request sees', async () => {
    const token = await t.createToken('alice', ['all'], 'edit');
    expect(JSON.parse((await me(t.app, token)).body).is_admin).toBe(false);
    await editUser(t, { name: 'alice' }, { loginName: 'alice', sourceId: 0, admin: true, fullName: 'Alice A.' });
    const after = JSON.parse((await me(t.app, token)).body);
    expect(after.is_admin).toBe(true);
    expect(after.full_name).toBe('Alice A.');
  });

  it('deleting the user ends its tokens', async () => {
    await t.createUser('bob');
    const token = await t.createToken('bob');
    expect((await me(t.app, token)).statusCode).toBe(200);
    const del = await t.request('DELETE', '/api/v1/admin/users/bob', { headers: basic('root') });
    expect(del.statusCode).toBe(204);
    expect((await me(t.app, token)).statusCode).toBe(401);
  });
});
