// The check that lets every start and every CLI command skip the schema engine (issue 31, finding 2: a cold
// `admin user create` spent most of its time compiling the engine's WebAssembly): it answers true only for a
// database that applied exactly this build's migrations; anything else goes to the engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { defaultMigrationsDir } from '../../src/db/migrate/dbProvider.ts';
import { readMigrationList } from '../../src/db/migrate/migrationList.ts';
import { upToDate } from '../../src/db/migrate/upToDate.ts';
import { createMigratedDatabase, createTestDatabase, PROVIDERS, type TestDatabase } from '../helpers/db.ts';

describe.each(PROVIDERS)('upToDate (%s)', (provider) => {
  let database: TestDatabase;
  let db: Db;
  const target = () => ({ provider, url: database.url });
  const list = () => readMigrationList(defaultMigrationsDir(provider));

  beforeAll(async () => {
    database = await createMigratedDatabase(provider);
    db = await createDb({ provider, url: database.url });
  });

  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  it('is true for a database with every migration of this build applied', async () => {
    expect(await upToDate(target(), await list())).toBe(true);
  });

  it('is false when a migration is pending or was edited since it was applied', async () => {
    const pending = await list();
    pending.migrationDirectories.push({
      path: '29990101000000_next',
      migrationFile: { path: 'migration.sql', content: { tag: 'ok', value: 'SELECT 1;' } },
    });
    expect(await upToDate(target(), pending)).toBe(false);
    const edited = await list();
    const first = edited.migrationDirectories[0];
    if (first?.migrationFile.content.tag === 'ok') first.migrationFile.content.value += '\n-- edited\n';
    expect(await upToDate(target(), edited)).toBe(false);
  });

  it('is false when the database has a migration this build does not know, or one that failed', async () => {
    const insert = (name: string, finished: boolean) =>
      db.$executeRawUnsafe(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count, finished_at) VALUES ('${name}', 'x', '${name}', CURRENT_TIMESTAMP, 1, ${finished ? 'CURRENT_TIMESTAMP' : 'NULL'})`,
      );
    await insert('29990101000000_newer', true);
    expect(await upToDate(target(), await list())).toBe(false);
    await db.$executeRawUnsafe(`DELETE FROM _prisma_migrations WHERE migration_name = '29990101000000_newer'`);
    expect(await upToDate(target(), await list())).toBe(true);
    await insert('29990101000000_failed', false);
    expect(await upToDate(target(), await list())).toBe(false);
  });

  it('is false for a database that does not exist yet', async () => {
    const fresh = await createTestDatabase(provider);
    try {
      expect(await upToDate({ provider, url: fresh.url }, await list())).toBe(false);
    } finally {
      await fresh.drop();
    }
  });
});
