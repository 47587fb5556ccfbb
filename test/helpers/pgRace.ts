import pg from 'pg';
import { expect } from 'vitest';
import { basic, startTestApp, type TestApp } from './app.ts';

/**
 * What the PostgreSQL race tests share: an app with `owner`'s repository `owner/r`, requests on it as `owner`, and an
 * observer connection that counts the statements waiting for a lock (each test forces its interleaving by holding a
 * row from a connection of its own until the request under test waits for it).
 */
export interface PgRace {
  t: TestApp;
  /** A request as `owner` on `/api/v1/repos/owner/r{url}`. */
  call(method: string, url: string, body?: unknown): ReturnType<TestApp['request']>;
  /** Statements of this database waiting for a lock now. */
  lockWaiters(): Promise<number>;
  /** Waits until `ok` holds (polling every 10 ms), failing after 4 s with `what`. */
  until(what: string, ok: () => Promise<boolean>): Promise<void>;
  close(): Promise<void>;
}

export async function startPgRace(): Promise<PgRace> {
  const t = await startTestApp('postgresql');
  await t.createUser('owner');
  const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name: 'r' } });
  expect(res.statusCode).toBe(201);
  const observer = new pg.Client({ connectionString: t.config.databaseUrl });
  await observer.connect();
  return {
    t,
    call: (method, url, body) =>
      t.request(method, `/api/v1/repos/owner/r${url}`, { headers: basic('owner'), ...(body === undefined ? {} : { body }) }),
    async lockWaiters() {
      const sql = `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`;
      return Number((await observer.query<{ n: string }>(sql)).rows[0]!.n);
    },
    async until(what, ok) {
      for (let i = 0; i < 400; i++) {
        if (await ok()) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`timed out waiting for ${what}`);
    },
    async close() {
      await observer.end();
      await t.close();
    },
  };
}
