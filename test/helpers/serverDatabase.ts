// The database and environment of a `forgegraph serve` child process (test/helpers/serverProcess.ts): migrated,
// with the user alice, and a client of the test's own to compare the database with git after a crash.
import { afterAll, beforeAll } from 'vitest';
import { createDb, prepareDb, type Db } from '../../src/db/client.ts';
import { deployMigrations } from '../../src/db/migrate/engine.ts';
import { createSystemContext } from '../../src/services/context.ts';
import { createUser } from '../../src/services/user/user.ts';
import { startJobApp } from '../jobs/jobApp.ts';
import { PASSWORD } from './app.ts';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

/** A fresh migrated database holding alice (password PASSWORD), and a client on it. */
export async function prepareServerDatabase(provider: DbProvider): Promise<{ database: TestDatabase; db: Db }> {
  const database = await createTestDatabase(provider);
  await deployMigrations({ provider, url: database.url });
  const setup = await startJobApp(provider, {}, database);
  await createUser(createSystemContext(setup.app.deps), {
    username: 'alice',
    email: 'alice@example.com',
    password: PASSWORD,
    mustChangePassword: false,
  });
  await setup.close();
  const db = createDb({ provider, url: database.url });
  await prepareDb(db, provider);
  return { database, db };
}

/** The environment of a server on `database` listening on 127.0.0.1:`port` (no cron; short job leases; SIGTERM stops at once). */
export function serverEnv(database: TestDatabase, port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    ROOT_URL: `http://127.0.0.1:${port}/`,
    SECRET_KEY: 'test-secret',
    LOG_LEVEL: 'warn',
    CRON_ENABLED: 'false',
    JOBS_LEASE: '5s',
    JOBS_POLL_INTERVAL: '200ms',
    SHUTDOWN_DELAY: '0',
    ...extra,
  };
}

/** prepareServerDatabase for the enclosing suite (dropped after it); `suite.database` inside its tests. */
export function serverDatabaseForSuite(provider: DbProvider): { database: TestDatabase } {
  const suite = {} as { database: TestDatabase; db: Db };
  beforeAll(async () => {
    Object.assign(suite, await prepareServerDatabase(provider));
  });
  afterAll(async () => {
    await suite.db.$disconnect();
    await suite.database.drop();
  });
  return suite;
}
