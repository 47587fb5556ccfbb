import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { createAdapterFactory } from './adapterFactory.ts';
import { defaultMigrationsDir, type MigrationTarget } from './dbProvider.ts';
import { engineErrorMessage, toEngineError } from './engineError.ts';
import { NO_FILTERS, withSchemaEngine } from './engineSession.ts';
import { MigrationError } from './MigrationError.ts';
import { readMigrationList } from './migrationList.ts';
import { withMigrationLock } from './migrationLock.ts';
import { upToDate } from './upToDate.ts';
import { diagnoseHistory, type MigrationStatus } from './migrationStatus.ts';
import type { SchemaEngine } from './schemaEngineWasm.ts';

/**
 * Applies pending migrations under a cross-process lock and returns the names applied (none when
 * up to date). Unlike `prisma migrate deploy`, it refuses edited migrations too.
 * @throws MigrationError `DATABASE_NEWER` when the database has migrations this code does not know,
 *   `MIGRATION_FAILED` when a migration failed (now or on an earlier run), `MIGRATION_EDITED` when an
 *   applied migration was changed, `ENGINE_ERROR` otherwise (e.g. the database is unreachable).
 */
export async function deployMigrations(opts: MigrationTarget): Promise<string[]> {
  try {
    const list = await readMigrationList(opts.migrationsDir ?? defaultMigrationsDir(opts.provider));
    // The usual case (every start, every CLI command) without starting the engine.
    if (await upToDate(opts, list)) return [];
    return await withMigrationLock(opts.provider, opts.url, async () =>
      withSchemaEngine(await createAdapterFactory(opts.provider, opts.url), async (engine) => {
        const status = await diagnoseHistory(engine, list);
        assertDeployable(status);
        return status.pending.length === 0 ? [] : applyPending(engine, list);
      }),
    );
  } catch (err) {
    throw toEngineError(err, 'Applying migrations');
  }
}

/** Applies the pending migrations; a failure becomes MIGRATION_FAILED naming the failed migration. */
async function applyPending(engine: SchemaEngine, list: MigrationList): Promise<string[]> {
  try {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList: list, filters: NO_FILTERS });
    return appliedMigrationNames;
  } catch (err) {
    const after = await diagnoseHistory(engine, list).catch(() => null);
    if (after === null || after.failed.length === 0) throw err;
    throw new MigrationError(
      'MIGRATION_FAILED',
      `Migration ${after.failed.join(', ')} failed: ${engineErrorMessage(err).replace(/\s*\n\s*/g, ' ')}. ` +
        `The database may be partly migrated. ${repairHint(after.failed)}`,
      { migrations: after.failed },
      { cause: err },
    );
  }
}

/** Throws the MigrationError that explains why `status` must not be deployed, if any. */
export function assertDeployable(status: MigrationStatus): void {
  if (status.unknown.length > 0) {
    throw new MigrationError(
      'DATABASE_NEWER',
      `The database has migrations this version of Forgegraph does not know (${status.unknown.join(', ')}); ` +
        'it was migrated by a newer version. Run that version (or restore a backup) instead.',
      { migrations: status.unknown },
    );
  }
  if (status.failed.length > 0) {
    throw new MigrationError(
      'MIGRATION_FAILED',
      `Migration ${status.failed.join(', ')} failed on an earlier run and blocks further migrations. ${repairHint(status.failed)}`,
      { migrations: status.failed },
    );
  }
  if (status.edited.length > 0) {
    throw new MigrationError(
      'MIGRATION_EDITED',
      `Migration ${status.edited.join(', ')} was changed after it was applied to this database (checksum mismatch). ` +
        'Restore the original migration.sql; schema changes belong in a new migration.',
      { migrations: status.edited },
    );
  }
}

function repairHint(failed: string[]): string {
  const names = failed.map((n) => `'${n}'`).join(', ');
  return (
    'Repair the database by hand, then mark the migration rolled back ' +
    `(UPDATE _prisma_migrations SET rolled_back_at = CURRENT_TIMESTAMP WHERE migration_name IN (${names}) AND finished_at IS NULL) and deploy again.`
  );
}
