import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import { createMigratedDatabase, type TestDatabase } from '../helpers/db.ts';
import { TEST_PASSWORD_HASH_ALGO } from '../helpers/app.ts';

/** An app built with extra environment (job and cron settings) on a given or fresh database. */
export interface JobApp {
  app: App;
  config: Config;
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * Builds an app whose configuration includes `env` (JOBS_*, CRON_*), on `database` when given (a second
 * instance of the same site: same database and data directory) or on a fresh migrated one.
 */
export async function startJobApp(provider: DbProvider, env: Record<string, string> = {}, database?: TestDatabase): Promise<JobApp> {
  const owned = !database;
  const db = database ?? (await createMigratedDatabase(provider));
  const config = loadConfig({
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.url,
    SECRET_KEY: 'test-secret',
    PASSWORD_HASH_ALGO: TEST_PASSWORD_HASH_ALGO,
    ROOT_URL: 'http://localhost:3000/',
    ...env,
  });
  const app = await buildApp(config);
  await app.server.ready();
  return {
    app,
    config,
    database: db,
    async close() {
      await app.close();
      if (owned) await db.drop();
    },
  };
}
