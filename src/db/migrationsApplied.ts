import { readdir } from 'node:fs/promises';
import type { Db } from './client.ts';
import { defaultMigrationsDir, type DbProvider } from './migrate/dbProvider.ts';

/** The migrations shipped with this build that the database has not finished applying (readiness). */
export async function pendingMigrations(db: Db, provider: DbProvider): Promise<string[]> {
  const shipped = (await readdir(defaultMigrationsDir(provider), { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const rows = await db.$queryRawUnsafe<Array<{ migration_name: string }>>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  const applied = new Set(rows.map((r) => r.migration_name));
  return shipped.filter((name) => !applied.has(name));
}
