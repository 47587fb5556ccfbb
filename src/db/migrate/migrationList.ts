import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';

/** File name of the lockfile Prisma keeps in every migrations folder. */
export const LOCKFILE_NAME = 'migration_lock.toml';

/** File name of the SQL script inside each migration directory. */
export const MIGRATION_FILE_NAME = 'migration.sql';

/**
 * Reads a Prisma migrations folder into the engine's `MigrationList`, as the Prisma CLI does:
 * every sub-directory is a migration (sorted by name), a missing folder is an empty history.
 */
export async function readMigrationList(migrationsDir: string, shadowDbInitScript = ''): Promise<MigrationList> {
  const baseDir = path.resolve(migrationsDir);
  const lockContent = await readFile(path.join(baseDir, LOCKFILE_NAME), 'utf8').catch(() => null);
  const entries = await readdir(baseDir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b));
  const migrationDirectories = await Promise.all(
    names.map(async (name): Promise<MigrationList['migrationDirectories'][number]> => {
      const content = await readFile(path.join(baseDir, name, MIGRATION_FILE_NAME), 'utf8').then(
        (value) => ({ tag: 'ok' as const, value }),
        (err: Error) => ({ tag: 'error' as const, value: err.message }),
      );
      return { path: name, migrationFile: { path: MIGRATION_FILE_NAME, content } };
    }),
  );
  return { baseDir, lockfile: { path: LOCKFILE_NAME, content: lockContent }, shadowDbInitScript, migrationDirectories };
}

/** The migration names (directory names) of a list, in order. */
export function migrationNames(list: MigrationList): string[] {
  return list.migrationDirectories.map((d) => d.path);
}
