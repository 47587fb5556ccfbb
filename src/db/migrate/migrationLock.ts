import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { DbProvider } from './dbProvider.ts';
import { connectPgCreatingDatabase } from './pgDatabase.ts';
import { parsePgUrl } from './pgConnectionConfig.ts';
import { sqliteFilePath } from './sqliteAdapterFactory.ts';

/** Advisory lock key for Forgegraph migrations ("fgmigrat"); distinct from Prisma's own 72707369. */
export const PG_MIGRATION_LOCK_KEY = 0x66676d69_67726174n;

const SQLITE_LOCK_POLL_MS = 25;

/**
 * Runs `fn` while holding a cross-process lock on the target database, so that concurrent deploys
 * (server start-up and `forgegraph migrate`) apply each migration once and the later one no-ops.
 * PostgreSQL: a session `pg_advisory_lock` on a separate connection (which also creates a missing
 * database). SQLite: an exclusive transaction on a `<db>.migrate-lock` side file, polled
 * asynchronously so a waiter in the same process does not block the holder; the OS releases it if
 * the holder dies.
 */
export async function withMigrationLock<T>(provider: DbProvider, url: string, fn: () => Promise<T>): Promise<T> {
  return provider === 'postgresql' ? withPgLock(url, fn) : withSqliteLock(url, fn);
}

async function withPgLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const client = await connectPgCreatingDatabase(parsePgUrl(url).config);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PG_MIGRATION_LOCK_KEY.toString()]);
    return await fn();
  } finally {
    await client.end(); // ending the session releases the lock
  }
}

async function withSqliteLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const file = sqliteFilePath(url);
  if (file === ':memory:') return fn();
  await mkdir(path.dirname(file), { recursive: true });
  const lock = new Database(`${file}.migrate-lock`, { timeout: 0 });
  try {
    for (;;) {
      try {
        lock.exec('BEGIN EXCLUSIVE');
        break;
      } catch (err) {
        if (!(err instanceof Database.SqliteError) || err.code !== 'SQLITE_BUSY') throw err;
        await sleep(SQLITE_LOCK_POLL_MS);
      }
    }
    return await fn();
  } finally {
    lock.close(); // closing rolls back and releases the lock
  }
}
