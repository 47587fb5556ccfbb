// What the commands that open the database share: migrations applied first (explained in plain words when refused)
// and a system service context, the same the server builds, without the HTTP server.
import { LoginThrottle } from '../auth/loginThrottle.ts';
import { OAuthKeys } from '../auth/oauthKeys.ts';
import { describeDatabase, loadConfig, type Config } from '../config.ts';
import { createDb, prepareDb, type Db } from '../db/client.ts';
import { deployMigrations, MigrationError } from '../db/migrate/engine.ts';
import { readInstallation } from '../db/installation.ts';
import { RepoLocks } from '../db/repoLocks.ts';
import { JobWorker } from '../jobs/worker.ts';
import { LiveBus } from '../notify/liveBus.ts';
import { Notifier } from '../notify/notifier.ts';
import { createSystemContext, type ServiceContext } from '../services/context.ts';

/** Applies pending migrations, explaining any refusal in plain words. */
export async function migrate(config: Config): Promise<string[]> {
  try {
    return await deployMigrations({ provider: config.dbProvider, url: config.databaseUrl });
  } catch (err) {
    if (err instanceof MigrationError) {
      const hint: Record<MigrationError['code'], string> = {
        MIGRATION_FAILED: 'A migration failed earlier on this database; restore a backup or repair it by hand, then start again.',
        MIGRATION_EDITED: 'An already-applied migration file was changed; restore it from version control.',
        DATABASE_NEWER: 'This database was migrated by a newer Forgegraph; run that version (or restore a backup).',
        ENGINE_ERROR: 'Check DATABASE_URL and that the database is reachable.',
      };
      throw new Error(`Database migration refused (${err.code}): ${err.message}\n${hint[err.code]}`, { cause: err });
    }
    throw err;
  }
}

/**
 * Says on stderr which database a command opened (stdout stays the command's output). A database the command
 * had to create is flagged: it is usually not the server's (the server prints the DATA_DIR/DATABASE_URL it uses).
 */
function announceDatabase(config: Config, applied: string[]): void {
  const created = applied.some((name) => name.endsWith('_init'));
  const note = created
    ? ' (new: created by this command; the server prints the DATA_DIR/DATABASE_URL it uses)'
    : applied.length
      ? ` (applied ${applied.length} migration(s))`
      : '';
  process.stderr.write(`Database: ${describeDatabase(config)}${note}\n`);
}

/** A migrated database and a system context for the admin commands (works while the server runs). */
export async function withSystem<T>(fn: (cx: ServiceContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  announceDatabase(config, await migrate(config));
  const db: Db = await createDb({ provider: config.dbProvider, url: config.databaseUrl });
  await prepareDb(db, config.dbProvider);
  const notifier = new Notifier((s, e, err) => process.stderr.write(`subscriber ${s} failed on ${e.type}: ${String(err)}\n`));
  // Jobs the commands enqueue are run by the server's workers (this process starts none).
  const log = (obj: object, msg: string) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`);
  const jobs = new JobWorker(db, config.dbProvider, config.jobs, { debug: () => undefined, info: () => undefined, warn: log, error: log });
  const { lockClass } = await readInstallation(db);
  const repoLocks = new RepoLocks(config.dbProvider, config.databaseUrl, { lockClass, waitMs: config.repoLockTimeoutMs });
  try {
    return await fn(
      createSystemContext({
        db,
        config,
        notifier,
        jobs,
        live: new LiveBus(),
        repoLocks,
        loginThrottle: new LoginThrottle(config.loginThrottle),
        oauthKeys: new OAuthKeys(db, config.secretKey),
      }),
    );
  } finally {
    await notifier.drain();
    await repoLocks.close();
    await db.$disconnect();
  }
}
