// SQLite checkpoints off the server's thread (issue #35, writes). In WAL mode a commit appends pages to the log, and
// SQLite's automatic checkpoint copies them into the database file when the log reaches 1,000 pages, inside the
// commit that crossed the line: with its two fsyncs, 7–14 ms during which the server's one thread (better-sqlite3
// is synchronous) answered nothing, reads included — every ~25th issue creation (bench/writeProfile.ts: COMMIT mean
// twice its p50). Here a worker thread with its own connection checkpoints instead (walCheckpointWorker.js); while
// it runs, the server's connection keeps the automatic checkpoint only as a backstop, at BACKSTOP_PAGES, should the
// worker fall behind.
//
// The worker exists only while the server writes: a timer on the server's thread (one function call on the
// connection, `total_changes()`) starts it once START_ROWS rows were written since it last ran, and it ends itself
// after a quiet spell, so an idle server, or one that wrote a few rows at start (cron state), holds no second thread
// (~10 MB of RSS: CI's idle figure went 141–147 → 156 MB while it started for those). Without it (before its start,
// after its end, after a failure) the server's connection checkpoints as SQLite does by default.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { ROOT } from '../paths.ts';
import type { Db } from './client.ts';
import { connectionOf } from './sqliteTransactionGate.ts';

const WORKER_SCRIPT = path.join(ROOT, 'src/db/walCheckpointWorker.js');

/** Rows written (SQLite's total_changes) that start the worker: about half of what fills SQLite's own checkpoint. */
const START_ROWS = 200;
/** SQLite's own default, kept while no worker runs. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The log size (pages of 4 KiB: 40 MiB) at which the server's connection checkpoints itself while the worker runs. */
export const BACKSTOP_PAGES = 10_000;

export interface WalCheckpointerOptions {
  /**
   * How often the server's thread looks for writes (to start the worker). What was written before the worker started
   * is its first checkpoint: the longer the look, the larger that one (and a commit may wait for its sync).
   */
  pollMs?: number;
  /**
   * How often the worker checks for commits and checkpoints them. Often, so each checkpoint is small: a commit made
   * while the worker checkpoints can wait about as long as the checkpoint's sync, and a checkpoint of a long stretch
   * of writes syncs long. bench/checkpointStalls.ts (6 s phases): at 1 s, commits of 37–60 ms; at 200 ms, 5–9
   * commits of 5 ms or more, up to 18 ms; at 50 ms, 0–2 (SQLite's own checkpoints: 51–68), besides the first
   * checkpoint of a log the worker did not see grow.
   */
  intervalMs?: number;
  /** Rows written since the worker last ran that start it again (START_ROWS). */
  startRows?: number;
  /** The worker ends after this long without a commit. */
  idleMs?: number;
  /** A worker that failed (it stopped; the server's connection checkpoints itself again). */
  onError?: (err: Error) => void;
}

export interface WalCheckpointer {
  /** Checkpoints the worker ran, and whether it runs now (tests, metrics). */
  readonly stats: { checkpoints: number; running: boolean };
  /** Ends the worker (its connection closed) and the timer. */
  close(): Promise<void>;
}

/**
 * Starts checkpointing `db`'s SQLite file off the server's thread (null for PostgreSQL or an in-memory database).
 * The caller closes it before disconnecting `db`.
 */
export function startWalCheckpointer(db: Db, options: WalCheckpointerOptions = {}): WalCheckpointer | null {
  const database = connectionOf(db)?.gate.database;
  if (!database || database.memory) return null;
  const { pollMs = 100, intervalMs = 50, idleMs = 30_000, startRows = START_ROWS, onError } = options;
  // The connection's own prepare (sqliteStatementCache.ts hands the adapter bindings of cached statements instead).
  const totalChanges = Database.prototype.prepare.call(database, 'SELECT total_changes()').pluck();
  let seenChanges = Number(totalChanges.get());
  let unseenRows = 0;
  let worker: Worker | null = null;
  let failed = false;
  const stats = { checkpoints: 0, running: false };
  const autocheckpoint = (pages: number) => {
    if (database.open) database.pragma(`wal_autocheckpoint = ${pages}`);
  };

  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    autocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
    onError?.(err);
  };

  const start = () => {
    const w = new Worker(WORKER_SCRIPT, { workerData: { file: database.name, intervalMs, idleMs } });
    // A process that ends without close() (a command that built the app) is not kept alive by the worker; a
    // checkpoint cut short is safe (SQLite copies the pages again at the next one).
    w.unref();
    worker = w;
    stats.running = true;
    autocheckpoint(BACKSTOP_PAGES);
    w.on('message', (m: { checkpointed?: number; error?: string }) => {
      if (m.error !== undefined) fail(new Error(`WAL checkpoint worker: ${m.error}`));
      else stats.checkpoints++;
    });
    w.on('error', fail);
    w.on('exit', () => {
      if (worker !== w) return;
      worker = null;
      stats.running = false;
      autocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
    });
  };

  const poll = () => {
    if (failed || !database.open) return;
    const changes = Number(totalChanges.get());
    if (changes === seenChanges) return;
    unseenRows += changes - seenChanges;
    seenChanges = changes;
    if (worker || unseenRows < startRows) return;
    unseenRows = 0;
    start();
  };
  const timer = setInterval(poll, pollMs);
  timer.unref();

  return {
    stats,
    async close() {
      clearInterval(timer);
      const w = worker;
      if (!w) return;
      const exited = new Promise((resolve) => w.once('exit', resolve));
      w.postMessage('close');
      const stopper = setTimeout(() => void w.terminate(), 5_000);
      await exited;
      clearTimeout(stopper);
    },
  };
}
