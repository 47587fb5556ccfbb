import { access } from 'node:fs/promises';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { createAdapterFactory } from './adapterFactory.ts';
import { defaultMigrationsDir, type MigrationTarget } from './dbProvider.ts';
import { engineErrorCode, toEngineError } from './engineError.ts';
import { NO_FILTERS, withSchemaEngine } from './engineSession.ts';
import { migrationNames, readMigrationList } from './migrationList.ts';
import type { SchemaEngine } from './schemaEngineWasm.ts';
import { pgDatabaseExists } from './pgDatabase.ts';
import { parsePgUrl } from './pgConnectionConfig.ts';
import { sqliteFilePath } from './sqliteAdapterFactory.ts';

/** Where a database stands relative to the migrations this code ships. */
export interface MigrationStatus {
  /** Known migrations applied successfully (edited ones included). */
  applied: string[];
  /** Known migrations not yet applied. */
  pending: string[];
  /** Migrations that failed on this database and block further deploys. */
  failed: string[];
  /** Applied migrations whose `migration.sql` changed since (checksum mismatch). */
  edited: string[];
  /** Migrations applied to the database that this code does not have (database is newer). */
  unknown: string[];
}

const MIGRATIONS_TABLE_MISSING = 'P1014';

/**
 * Reports applied, pending, failed, edited and unknown migrations without changing the database
 * (a missing database or migrations table means everything is pending).
 * @throws MigrationError `ENGINE_ERROR` when the database cannot be read.
 */
export async function migrationStatus(opts: MigrationTarget): Promise<MigrationStatus> {
  try {
    const list = await readMigrationList(opts.migrationsDir ?? defaultMigrationsDir(opts.provider));
    if (!(await databaseExists(opts))) return allPending(list);
    return await withSchemaEngine(await createAdapterFactory(opts.provider, opts.url), (engine) => diagnoseHistory(engine, list));
  } catch (err) {
    throw toEngineError(err, 'Reading the migration status');
  }
}

/** Compares the database's `_prisma_migrations` with `list` through the engine (no shadow database). */
export async function diagnoseHistory(engine: SchemaEngine, list: MigrationList): Promise<MigrationStatus> {
  let diagnosis: Awaited<ReturnType<SchemaEngine['diagnoseMigrationHistory']>>;
  try {
    diagnosis = await engine.diagnoseMigrationHistory({ migrationsList: list, optInToShadowDatabase: false, filters: NO_FILTERS });
  } catch (err) {
    if (engineErrorCode(err) === MIGRATIONS_TABLE_MISSING) return allPending(list);
    throw err;
  }
  const history = diagnosis.history;
  const pending = history === null || history.diagnostic === 'migrationsDirectoryIsBehind' ? [] : history.unappliedMigrationNames;
  const unknown = history === null || history.diagnostic === 'databaseIsBehind' ? [] : history.unpersistedMigrationNames;
  const failed = diagnosis.failedMigrationNames;
  const notApplied = new Set([...pending, ...failed]);
  return {
    applied: migrationNames(list).filter((name) => !notApplied.has(name)),
    pending,
    failed,
    edited: diagnosis.editedMigrationNames,
    unknown,
  };
}

function allPending(list: MigrationList): MigrationStatus {
  return { applied: [], pending: migrationNames(list), failed: [], edited: [], unknown: [] };
}

async function databaseExists({ provider, url }: MigrationTarget): Promise<boolean> {
  if (provider === 'postgresql') return pgDatabaseExists(parsePgUrl(url).config);
  const file = sqliteFilePath(url);
  if (file === ':memory:') return true;
  return access(file).then(
    () => true,
    () => false,
  );
}
