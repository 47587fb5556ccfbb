import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { writeProviderSchemas } from '../../prisma/scripts/schemas.ts';
import { createMigration } from '../../src/db/migrate/createMigration.ts';
import { DB_PROVIDERS, defaultMigrationsDir, defaultSchemaDir, type DbProvider } from '../../src/db/migrate/dbProvider.ts';
import { deployMigrations } from '../../src/db/migrate/deployMigrations.ts';
import { MigrationError, type MigrationErrorCode } from '../../src/db/migrate/MigrationError.ts';
import { migrationStatus } from '../../src/db/migrate/migrationStatus.ts';
import { createMigratedDatabase } from '../helpers/db.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const pgServerUrl = process.env['TEST_DATABASE_URL'];
const providers: DbProvider[] = pgServerUrl === undefined ? ['sqlite'] : ['sqlite', 'postgresql'];
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  const failures = (await Promise.allSettled(cleanups.map((c) => c()))).filter((r) => r.status === 'rejected');
  expect(failures).toEqual([]);
});

/** A fresh, empty database URL: a temp SQLite file (its folder not yet created) or a new PG database. */
async function freshDatabase(provider: DbProvider): Promise<string> {
  if (provider === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'fg-mig-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return `file:${path.join(dir, 'data', 'forgegraph.db')}`;
  }
  const server = pgServerUrl ?? '';
  const name = `fg_mig_${randomBytes(6).toString('hex')}`;
  await withPg(server, async (c) => {
    await c.query(`CREATE DATABASE ${name}`);
  });
  cleanups.push(() =>
    withPg(server, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }),
  );
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * A database with every committed migration applied: a copy of the suite's template, which deployMigrations built
 * on a fresh database (the first test of each provider checks that deploy itself); ~1 s of CPU less per test.
 */
async function migratedDatabase(provider: DbProvider): Promise<string> {
  const database = await createMigratedDatabase(provider);
  cleanups.push(() => database.drop());
  return database.url;
}

async function withPg<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A temp copy of the committed migrations, optionally with an extra migration appended. */
async function copyMigrations(provider: DbProvider, extra?: { name: string; sql: string }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-migdir-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await cp(defaultMigrationsDir(provider), dir, { recursive: true });
  if (extra) {
    await mkdir(path.join(dir, extra.name));
    await writeFile(path.join(dir, extra.name, 'migration.sql'), extra.sql);
  }
  return dir;
}

async function committedMigrations(provider: DbProvider): Promise<string[]> {
  const entries = await readdir(defaultMigrationsDir(provider), { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

async function expectMigrationError(promise: Promise<unknown>, code: MigrationErrorCode): Promise<MigrationError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MigrationError);
  const migrationError = err as MigrationError;
  expect(migrationError.code, migrationError.message).toBe(code);
  return migrationError;
}

describe.each(providers)('migrations on %s', (provider) => {
  it('applies every committed migration on a fresh database, then nothing', async () => {
    const all = await committedMigrations(provider);
    expect(all.length).toBeGreaterThan(0);
    const url = await freshDatabase(provider);
    expect(await migrationStatus({ provider, url })).toEqual({ applied: [], pending: all, failed: [], edited: [], unknown: [] });
    expect(await deployMigrations({ provider, url })).toEqual(all);
    expect(await deployMigrations({ provider, url })).toEqual([]);
    expect(await migrationStatus({ provider, url })).toEqual({ applied: all, pending: [], failed: [], edited: [], unknown: [] });
  });

  it.runIf(provider === 'sqlite')(
    'migrates a new SQLite file in write-ahead-log mode (no sync per statement), all of it in the file when done',
    async () => {
      const url = await freshDatabase(provider);
      const file = url.slice('file:'.length);
      expect(await deployMigrations({ provider, url })).toEqual(await committedMigrations(provider));
      // The engine's connection is closed: its last checkpoint moved the log into the database file and removed it.
      await expect(access(`${file}-wal`)).rejects.toThrow();
      const db = new Database(file, { readonly: true });
      try {
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.prepare('SELECT COUNT(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL').get()).toEqual({
          n: (await committedMigrations(provider)).length,
        });
      } finally {
        db.close();
      }
    },
  );

  it('refuses a migration edited after it was applied', async () => {
    const url = await migratedDatabase(provider);
    const migrationsDir = await copyMigrations(provider);
    expect(await deployMigrations({ provider, url, migrationsDir })).toEqual([]);
    const [first] = await committedMigrations(provider);
    const file = path.join(migrationsDir, first ?? '', 'migration.sql');
    const sql = await readFile(file, 'utf8');
    const at = sql.search(/[A-Za-z]/);
    const char = sql.charAt(at);
    await writeFile(file, sql.slice(0, at) + (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()) + sql.slice(at + 1));
    const err = await expectMigrationError(deployMigrations({ provider, url, migrationsDir }), 'MIGRATION_EDITED');
    expect(err.data.migrations).toEqual([first]);
    expect((await migrationStatus({ provider, url, migrationsDir })).edited).toEqual([first]);
  });

  it('refuses a database migrated by a newer version', async () => {
    const url = await migratedDatabase(provider);
    const future = { name: '99991231235959_future', sql: 'CREATE TABLE "FutureThing" ("id" INTEGER NOT NULL);\n' };
    expect(await deployMigrations({ provider, url, migrationsDir: await copyMigrations(provider, future) })).toEqual([future.name]);
    const err = await expectMigrationError(deployMigrations({ provider, url }), 'DATABASE_NEWER');
    expect(err.data.migrations).toEqual([future.name]);
    expect((await migrationStatus({ provider, url })).unknown).toEqual([future.name]);
  });

  it('reports a broken migration, then refuses to deploy past it', async () => {
    const url = await migratedDatabase(provider);
    const broken = { name: '99991231235959_broken', sql: 'CREATE TABLE "Broken" ("id" INTEGER NOT NULL);\nTHIS IS NOT SQL;\n' };
    const migrationsDir = await copyMigrations(provider, broken);
    const first = await expectMigrationError(deployMigrations({ provider, url, migrationsDir }), 'MIGRATION_FAILED');
    expect(first.data.migrations).toEqual([broken.name]);
    const again = await expectMigrationError(deployMigrations({ provider, url, migrationsDir }), 'MIGRATION_FAILED');
    expect(again.message).toContain(broken.name);
    const status = await migrationStatus({ provider, url, migrationsDir });
    expect(status.failed).toEqual([broken.name]);
    expect(status.applied).toEqual(await committedMigrations(provider));
  });

  it('lets two concurrent deploys on a fresh database both succeed', async () => {
    const all = await committedMigrations(provider);
    const url = await freshDatabase(provider);
    const results = await Promise.all([deployMigrations({ provider, url }), deployMigrations({ provider, url })]);
    expect(results.flat().sort()).toEqual(all);
    expect(await migrationStatus({ provider, url })).toEqual({ applied: all, pending: [], failed: [], edited: [], unknown: [] });
  });

  it('lets two concurrent deploy processes on a fresh database both succeed', async () => {
    const all = await committedMigrations(provider);
    const url = await freshDatabase(provider);
    const run = promisify(execFile);
    const deploy = () =>
      run(process.execPath, ['--import', 'tsx', 'prisma/scripts/migrate.ts', 'deploy'], {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: url },
      });
    const outputs = (await Promise.all([deploy(), deploy()])).map((o) => o.stdout.trim()).sort();
    expect(outputs[0]).toMatch(/^Applied /);
    expect(outputs[1]).toMatch(/^Database is up to date/);
    expect((await migrationStatus({ provider, url })).applied).toEqual(all);
  });

  if (provider === 'sqlite') {
    it('reports status without creating a missing SQLite file', async () => {
      const url = await freshDatabase(provider);
      expect((await migrationStatus({ provider, url })).pending).toEqual(await committedMigrations(provider));
      await expect(access(url.slice('file:'.length))).rejects.toThrow();
    });
  }
});

/** A temp copy of prisma/ (source schema, freshly derived provider schemas, migrations). */
async function copySchemaDir(extraModels = ''): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-schema-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const source = await readFile(path.join(defaultSchemaDir(), 'schema.prisma'), 'utf8');
  await writeFile(path.join(dir, 'schema.prisma'), source + extraModels);
  for (const provider of DB_PROVIDERS) {
    await cp(defaultMigrationsDir(provider), path.join(dir, provider, 'migrations'), { recursive: true });
  }
  await writeProviderSchemas(path.join(dir, 'schema.prisma'), dir);
  return dir;
}

async function shadowDatabases(): Promise<string[]> {
  return withPg(pgServerUrl ?? '', async (c) => {
    const { rows } = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'");
    return rows.map((r) => r.datname);
  });
}

describe.skipIf(pgServerUrl === undefined)('createMigration (needs TEST_DATABASE_URL for the PG shadow database)', () => {
  const pgUrl = pgServerUrl ?? '';

  it('finds the committed migrations up to date with prisma/schema.prisma', async () => {
    expect(await createMigration({ name: 'drift', pgUrl, schemaDir: await copySchemaDir() })).toBeNull();
  });

  it('writes one migration for both providers that deploys on top of the history', async () => {
    const shadowsBefore = await shadowDatabases();
    const schemaDir = await copySchemaDir('\nmodel MigrationProbe {\n  id   Int     @id @default(autoincrement())\n  note String?\n}\n');
    const name = await createMigration({ name: 'Add probe!', pgUrl, schemaDir, now: new Date('2099-01-02T03:04:05Z') });
    expect(name).toBe('20990102030405_add_probe');
    for (const provider of DB_PROVIDERS) {
      const migrationsDir = path.join(schemaDir, provider, 'migrations');
      expect(await readFile(path.join(migrationsDir, name ?? '', 'migration.sql'), 'utf8')).toContain('"MigrationProbe"');
      expect(await readFile(path.join(migrationsDir, 'migration_lock.toml'), 'utf8')).toContain(`provider = "${provider}"`);
      const applied = await deployMigrations({ provider, url: await freshDatabase(provider), migrationsDir });
      expect(applied).toEqual([...(await committedMigrations(provider)), name]);
    }
    expect(await createMigration({ name: 'again', pgUrl, schemaDir })).toBeNull();
    expect(await shadowDatabases()).toEqual(shadowsBefore);
  });
});
