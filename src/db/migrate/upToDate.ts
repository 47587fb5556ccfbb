import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { pgModule } from '../../lazyPackage.ts';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { MigrationTarget } from './dbProvider.ts';
import { parsePgUrl } from './pgConnectionConfig.ts';
import { sqliteFilePath } from './sqliteAdapterFactory.ts';

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

const QUERY = 'SELECT migration_name, checksum, finished_at, rolled_back_at FROM';

/** Every row of `_prisma_migrations`, read with the plain driver; throws when the database or the table is missing. */
async function appliedRows({ provider, url }: MigrationTarget): Promise<AppliedRow[]> {
  if (provider === 'sqlite') {
    const db = new Database(sqliteFilePath(url), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(`${QUERY} _prisma_migrations`).all() as AppliedRow[];
    } finally {
      db.close();
    }
  }
  const { config, schema } = parsePgUrl(url);
  const client = new (pgModule().Client)(config);
  client.on('error', () => {}); // a dropped connection fails the query below
  try {
    await client.connect();
    return (await client.query<AppliedRow>(`${QUERY} ${pgModule().escapeIdentifier(schema ?? 'public')}._prisma_migrations`)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Whether the database has applied exactly the migrations of `list`: each once, finished, not rolled back, with the
 * checksum (SHA-256) of its file as it is now, and none other. Read with one query, without the schema engine, whose
 * start (compiling its WebAssembly) is most of a CLI command's time. Anything else — no database or table yet,
 * pending, failed, edited or unknown migrations, a read error — answers false, and the engine decides and explains.
 */
export async function upToDate(target: MigrationTarget, list: MigrationList): Promise<boolean> {
  let rows: AppliedRow[];
  try {
    rows = (await appliedRows(target)).filter((r) => r.rolled_back_at === null);
  } catch {
    return false;
  }
  if (rows.length !== list.migrationDirectories.length) return false;
  const byName = new Map(rows.map((r) => [r.migration_name, r]));
  return list.migrationDirectories.every(({ path, migrationFile }) => {
    const row = byName.get(path);
    return (
      row !== undefined &&
      row.finished_at !== null &&
      migrationFile.content.tag === 'ok' &&
      row.checksum === createHash('sha256').update(migrationFile.content.value).digest('hex')
    );
  });
}
