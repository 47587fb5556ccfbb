import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMigrationsDir, type DbProvider } from '../../src/db/migrate/dbProvider.ts';
import { deployMigrations } from '../../src/db/migrate/deployMigrations.ts';
import { MigrationError, type MigrationErrorCode } from '../../src/db/migrate/MigrationError.ts';
import { migrationStatus } from '../../src/db/migrate/migrationStatus.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const pgServerUrl = process.env['TEST_DATABASE_URL'];
const providers: DbProvider[] = pgServerUrl === undefined ? ['sqlite'] : ['sqlite', 'postgresql'];
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  await Promise.allSettled(cleanups.map((c) => c()));
});

/** A fresh, empty database URL: a temp SQLite file (its folder not yet created) or a new PG database. */
async function freshDatabase(provider: DbProvider): Promise<string> {
  if (provider === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'fg-mig-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return `file:${path.join(dir, 'data', 'forgegraph.db')}`;
  }
  const server = new URL(pgServerUrl ?? '');
  const name = `fg_mig_${randomBytes(6).toString('hex')}`;
  await withPg(server.href, (c) => c.query(`CREATE DATABASE ${name}`));
  cleanups.push(() => withPg(server.href, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  server.pathname = `/${name}`;
  return server.href;
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
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
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

  it('refuses a migration edited after it was applied', async () => {
    const url = await freshDatabase(provider);
    const migrationsDir = await copyMigrations(provider);
    await deployMigrations({ provider, url, migrationsDir });
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
    const url = await freshDatabase(provider);
    const future = { name: '99991231235959_future', sql: 'CREATE TABLE "FutureThing" ("id" INTEGER NOT NULL);\n' };
    expect(await deployMigrations({ provider, url, migrationsDir: await copyMigrations(provider, future) })).toContain(future.name);
    const err = await expectMigrationError(deployMigrations({ provider, url }), 'DATABASE_NEWER');
    expect(err.data.migrations).toEqual([future.name]);
    expect((await migrationStatus({ provider, url })).unknown).toEqual([future.name]);
  });

  it('reports a broken migration, then refuses to deploy past it', async () => {
    const url = await freshDatabase(provider);
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
      run(process.execPath, ['--import', 'tsx', 'prisma/scripts/migrate.ts', 'deploy'], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: url } });
    const outputs = await Promise.all([deploy(), deploy()]);
    expect(outputs.map((o) => o.stdout).join('')).toMatch(/Applied .*\n.*up to date|up to date.*\n.*Applied /s);
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
