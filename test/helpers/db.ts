import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { deployMigrations, type DbProvider } from '../../src/db/migrate/engine.ts';
import { dropStalePooled, parkPooled, schemaShape, takePooled } from './pgPool.ts';
import { databaseUrl, retryWhileInUse, withServer } from './pgServer.ts';

/**
 * The databases the suite runs on: SQLite always, PostgreSQL too when TEST_DATABASE_URL is set;
 * TEST_PROVIDERS (comma list) narrows it, e.g. CI's PostgreSQL-only second pass.
 */
export const PROVIDERS: DbProvider[] = (() => {
  const all: DbProvider[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgresql'] : ['sqlite'];
  const only = process.env.TEST_PROVIDERS?.split(',').map((s) => s.trim());
  return only ? all.filter((p) => only.includes(p)) : all;
})();

/**
 * The database for files that drive an external client end to end (gh, Chromium, OpenSSH, the npm CLI, signals to
 * the server process): one, not each. What they test is the client's conversation with a door; the services beneath
 * it run on every database in the other files. With both databases that is PostgreSQL (the scale-out deployment,
 * which a plain `npm test` does not reach), else SQLite.
 */
export const CLIENT_PROVIDERS: DbProvider[] = PROVIDERS.slice(-1);

/** A fresh database for one suite, and how to throw it away. */
export interface TestDatabase {
  provider: DbProvider;
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

const SQLITE_FILE = 'forgegraph.db';

/** A new data directory with an empty SQLite file name, or a new empty PostgreSQL database (on the TEST_DATABASE_URL server). */
export async function createTestDatabase(provider: DbProvider): Promise<TestDatabase> {
  return newDatabase(provider, null);
}

/**
 * Like createTestDatabase, with every migration applied: a copy of a template migrated once per migration
 * history (a SQLite file copy, or PostgreSQL's `CREATE DATABASE … TEMPLATE`), not a migration run per suite.
 */
export async function createMigratedDatabase(provider: DbProvider): Promise<TestDatabase> {
  return newDatabase(provider, await migratedTemplate(provider));
}

/**
 * A copy of the template is an installation of its own (src/db/installation.ts), as a freshly migrated database
 * is: suites running at once (or again) on one Redis never share channels or keys.
 */
const newInstallation = () => `UPDATE "Installation" SET "uuid" = '${randomBytes(16).toString('hex')}' WHERE "id" = 1`;

async function newDatabase(provider: DbProvider, template: string | null): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'forgegraph-test-'));
  if (provider === 'sqlite') {
    const file = path.join(dataDir, SQLITE_FILE);
    if (template) {
      copyFileSync(template, file);
      const db = new Database(file);
      db.prepare(newInstallation()).run();
      db.close();
    }
    return {
      provider,
      url: `file:${file}`,
      dataDir,
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  // A parked copy of the template when one is free (test/helpers/pgPool.ts), else a new one.
  const name = (template && (await takePooled(template))) || `fg_test_${randomBytes(6).toString('hex')}`;
  await withServer(async (c) => {
    if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1) return;
    // PostgreSQL refuses to copy a template while it has sessions (a worker just built it).
    await retryWhileInUse(c, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
    // A test database need not survive a server crash: commits do not wait for the WAL flush.
    await c.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  // The migration history and schema as the suite found them: a suite that changes either (the migration tests, a
  // test that drops a table) leaves a database that is dropped, not parked.
  const history = template
    ? await withServer(async (c) => {
        await c.query(newInstallation());
        return schemaShape(c);
      }, name)
    : null;
  return {
    provider,
    url: databaseUrl(name),
    dataDir,
    async drop() {
      if (template && history !== null) await parkPooled(name, template, history);
      else await withServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A digest of a provider's committed migrations: a template is reused only for the same history. */
function migrationsDigest(provider: DbProvider): string {
  const dir = path.resolve(import.meta.dirname, '../../prisma', provider, 'migrations');
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).sort()) {
    const sql = path.join(dir, name, 'migration.sql');
    hash.update(name).update('\0');
    if (existsSync(sql)) hash.update(readFileSync(sql)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const templates = new Map<DbProvider, Promise<string>>();

/** The migrated template for `provider`: built once per migration history and shared by workers and runs. */
function migratedTemplate(provider: DbProvider): Promise<string> {
  let found = templates.get(provider);
  if (!found) {
    found = provider === 'sqlite' ? sqliteTemplate() : pgTemplate();
    found.catch(() => templates.delete(provider));
    templates.set(provider, found);
  }
  return found;
}

/** `<tmp>/forgegraph-template-<digest>.db`, written next to its final name and renamed into place (atomic). */
async function sqliteTemplate(): Promise<string> {
  const file = path.join(tmpdir(), `forgegraph-template-${migrationsDigest('sqlite')}.db`);
  if (existsSync(file)) return file;
  const work = mkdtempSync(path.join(tmpdir(), 'forgegraph-template-'));
  try {
    const draft = path.join(work, SQLITE_FILE);
    await deployMigrations({ provider: 'sqlite', url: `file:${draft}` });
    if (existsSync(`${draft}-wal`)) throw new Error('the migrated template still has a write-ahead log');
    renameSync(draft, file);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return file;
}

/** Key of the advisory lock that serializes template builds on the PostgreSQL server ("fgtempl"). */
const PG_TEMPLATE_LOCK_KEY = 0x66677465_6d706cn.toString();

/** `fg_template_<digest>` on the TEST_DATABASE_URL server: migrated under a draft name, then renamed (atomic). */
async function pgTemplate(): Promise<string> {
  const name = `fg_template_${migrationsDigest('postgresql')}`;
  return withServer(async (c) => {
    const exists = async () => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await c.query('SELECT pg_advisory_lock($1)', [PG_TEMPLATE_LOCK_KEY]);
    try {
      if (await exists()) return name;
      const draft = `${name}_draft`;
      await c.query(`DROP DATABASE IF EXISTS ${draft} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${draft}`);
      await deployMigrations({ provider: 'postgresql', url: databaseUrl(draft) });
      await retryWhileInUse(c, `ALTER DATABASE ${draft} RENAME TO ${name}`);
      await dropStalePooled(c, name);
      return name;
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [PG_TEMPLATE_LOCK_KEY]);
    }
  });
}
