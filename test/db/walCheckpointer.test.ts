import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb, prepareDb, type Db } from '../../src/db/client.ts';
import { connectionOf } from '../../src/db/sqliteTransactionGate.ts';
import { BACKSTOP_PAGES, startWalCheckpointer, type WalCheckpointer } from '../../src/db/walCheckpointer.ts';
import { createMigratedDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * SQLite's checkpoints run on a worker thread of their own (src/db/walCheckpointer.ts), not inside a commit on the
 * server's thread: what the server commits reaches the database file without the server's connection checkpointing,
 * and the worker exists only while there are writes.
 */
describe('WAL checkpoints off the server thread (sqlite)', () => {
  let database: TestDatabase;
  let db: Db;
  let checkpointer: WalCheckpointer | null = null;

  beforeAll(async () => {
    database = await createMigratedDatabase('sqlite');
    db = await createDb({ provider: 'sqlite', url: database.url });
    await prepareDb(db, 'sqlite');
  });
  afterEach(async () => {
    await checkpointer?.close();
    checkpointer = null;
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  const file = () => connectionOf(db)!.gate.database!.name;
  const autocheckpointPages = () => Number(connectionOf(db)!.gate.database!.pragma('wal_autocheckpoint', { simple: true }));
  const waitFor = async (what: string, ok: () => boolean) => {
    for (let i = 0; i < 200 && !ok(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    if (!ok()) throw new Error(`timed out waiting for ${what}`);
  };
  /** The probe rows in the database file alone: a copy without its write-ahead log holds only checkpointed pages. */
  const rowsInFile = (dir: string) => {
    const copy = path.join(dir, 'checkpointed-copy.db');
    copyFileSync(file(), copy);
    const reader = new Database(copy, { readonly: true });
    try {
      return (reader.prepare('SELECT "name" FROM "WalProbe"').all() as { name: string }[]).map((r) => r.name);
    } catch {
      return []; // the table itself not checkpointed yet, or the copy taken mid-checkpoint: looked at again
    } finally {
      reader.close();
    }
  };
  const addRow = async (name: string) => {
    await db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS "WalProbe" ("name" TEXT NOT NULL)');
    await db.$executeRawUnsafe('INSERT INTO "WalProbe" ("name") VALUES (?)', name);
  };

  it('copies committed pages into the database file from its worker, the server connection checkpointing only as a backstop while it runs', async () => {
    checkpointer = startWalCheckpointer(db, { pollMs: 20, intervalMs: 20, idleMs: 60_000, startRows: 1 });
    expect(checkpointer).not.toBeNull();
    expect(autocheckpointPages()).toBe(1000);
    await addRow('first');
    // A few pages: far below SQLite's automatic checkpoint, so only the worker can have put them in the file.
    // The worker posts each checkpoint after writing the file: the copy can show the rows before the message arrives.
    await waitFor('the worker to checkpoint', () => checkpointer!.stats.checkpoints > 0 && rowsInFile(database.dataDir).includes('first'));
    expect(checkpointer!.stats.running).toBe(true);
    expect(autocheckpointPages()).toBe(BACKSTOP_PAGES);
  });

  it('starts its worker once enough rows were written, ends it after a quiet spell, and starts it again', async () => {
    checkpointer = startWalCheckpointer(db, { pollMs: 20, intervalMs: 20, idleMs: 150, startRows: 3 });
    await addRow('below');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // One row (the table already made): fewer than startRows, so SQLite checkpoints on its own as by default.
    expect(checkpointer!.stats.running).toBe(false);
    await addRow('second');
    await addRow('second');
    await waitFor('the worker to start', () => checkpointer!.stats.running);
    await waitFor('the worker to end after the quiet spell', () => !checkpointer!.stats.running);
    // No worker: the server's connection checkpoints as SQLite does by default again.
    expect(autocheckpointPages()).toBe(1000);
    const before = checkpointer!.stats.checkpoints;
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await addRow('third');
    await waitFor(
      'the worker to checkpoint the next write',
      () => checkpointer!.stats.checkpoints > before && rowsInFile(database.dataDir).includes('third'),
    );
    expect(rowsInFile(database.dataDir)).toContain('third');
  });

  it('closes with its worker: no thread left, the file still written by the server connection', async () => {
    checkpointer = startWalCheckpointer(db, { pollMs: 20, intervalMs: 20, idleMs: 60_000, startRows: 1 });
    await addRow('fourth');
    await waitFor('the worker to start', () => checkpointer!.stats.running);
    await checkpointer!.close();
    expect(checkpointer!.stats.running).toBe(false);
    checkpointer = null;
    await addRow('fifth');
    expect(await db.$queryRawUnsafe('SELECT "name" FROM "WalProbe" WHERE "name" = ?', 'fifth')).toEqual([{ name: 'fifth' }]);
  });
});
