// The database and environment of a `forgegraph serve` child process (test/helpers/serverProcess.ts): migrated,
// with the user alice, and a client of the test's own to compare the database with git after a crash.
import { afterAll, beforeAll } from 'vitest';
import { createDb, prepareDb, type Db } from '../../src/db/client.ts';
import { createSystemContext } from '../../src/services/context.ts';
import { createUser } from '../../src/services/user/user.ts';
import { startJobApp, type JobApp } from '../jobs/jobApp.ts';
import { PASSWORD, TEST_PASSWORD_HASH_ALGO } from './app.ts';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import { createMigratedDatabase, type TestDatabase } from './db.ts';

/** A fresh migrated database holding alice (password PASSWORD), and a client on it. */
export async function prepareServerDatabase(provider: DbProvider): Promise<{ database: TestDatabase; db: Db }> {
  // A copy of the migrated template: a migration run per crash suite cost ~1 s of CPU (test/db/migrate.test.ts runs them).
  const database = await createMigratedDatabase(provider);
  const setup = await startJobApp(provider, {}, database);
  await createUser(createSystemContext(setup.app.deps), {
    username: 'alice',
    email: 'alice@example.com',
    password: PASSWORD,
    mustChangePassword: false,
  });
  await setup.close();
  const db = await createDb({ provider, url: database.url });
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
    PASSWORD_HASH_ALGO: TEST_PASSWORD_HASH_ALGO,
    LOG_LEVEL: 'warn',
    CRON_ENABLED: 'false',
    JOBS_LEASE: '5s',
    JOBS_POLL_INTERVAL: '200ms',
    // A write waits up to 15 s by default, then answers 503: with every core busy (a suite beside this one), a
    // repository created with auto_init took longer, and the crash tests failed before their crash.
    DATABASE_TRANSACTION_TIMEOUT: '120s',
    SHUTDOWN_DELAY: '0',
    ...extra,
  };
}

/**
 * The site's instance in the test's own process, listening on the PORT of `env` (serverEnv) with its background
 * work started, as `forgegraph serve` runs it: for the steps of a crash test that only set the stage. Building it
 * costs ~0.5 s of CPU where a server process costs ~5 s (loading the bundle), over a minute on a loaded machine.
 * `close()` stops it and keeps the database.
 */
export async function startInProcessServer(provider: DbProvider, database: TestDatabase, env: Record<string, string>): Promise<JobApp> {
  const site = await startJobApp(provider, env, database);
  await site.app.server.listen({ port: Number(env.PORT), host: env.HOST ?? '127.0.0.1' });
  await site.app.startBackground();
  return site;
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
