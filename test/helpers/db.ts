import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DbProvider } from '../../src/db/migrate/engine.ts';

/**
 * The databases the suite runs on: SQLite always, PostgreSQL too when TEST_DATABASE_URL is set;
 * TEST_PROVIDERS (comma list) narrows it, e.g. CI's PostgreSQL-only second pass.
 */
export const PROVIDERS: DbProvider[] = (() => {
  const all: DbProvider[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgresql'] : ['sqlite'];
  const only = process.env.TEST_PROVIDERS?.split(',').map((s) => s.trim());
  return only ? all.filter((p) => only.includes(p)) : all;
})();

/** A fresh, empty database for one suite, and how to throw it away. */
export interface TestDatabase {
  provider: DbProvider;
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

/** Creates a new SQLite file or a new PostgreSQL database (on the TEST_DATABASE_URL server). */
export async function createTestDatabase(provider: DbProvider): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'forgegraph-test-'));
  if (provider === 'sqlite') {
    return {
      provider,
      url: `file:${path.join(dataDir, 'forgegraph.db')}`,
      dataDir,
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `fg_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    provider,
    url: url.toString(),
    dataDir,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
