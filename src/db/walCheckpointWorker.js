// The SQLite WAL checkpointer's thread (walCheckpointer.ts starts it when the server writes): its own connection to
// the database file copies committed pages from the write-ahead log into the database, with PASSIVE checkpoints,
// which wait for no one and make no one wait. Every `intervalMs` it checks whether another connection committed
// since its last look (PRAGMA data_version) and, if so, checkpoints. It closes its connection and ends after
// `idleMs` without a commit, and when told to ('close'). Plain JavaScript, no loader, so the same file runs under
// tsx, vitest and the bundled server.
import { clearInterval, setInterval } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ file: string, intervalMs: number, idleMs: number }} */
const { file, intervalMs, idleMs } = workerData;

const db = new Database(file, { fileMustExist: true });
const dataVersion = db.prepare('PRAGMA data_version').pluck();
let seen = dataVersion.get();
// Started because the server wrote: what it wrote is checkpointed at the first tick.
let pending = true;
let lastCommitAt = Date.now();

function tick() {
  try {
    const version = dataVersion.get();
    if (version !== seen) {
      seen = version;
      pending = true;
      lastCommitAt = Date.now();
    }
    if (pending) {
      pending = false;
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort?.postMessage({ checkpointed: result.checkpointed, log: result.log });
    } else if (Date.now() - lastCommitAt >= idleMs) stop();
  } catch (err) {
    parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) });
    stop();
  }
}

const timer = setInterval(tick, intervalMs);

function stop() {
  clearInterval(timer);
  if (db.open) db.close();
  parentPort?.close();
}

parentPort?.on('message', (message) => {
  if (message === 'close') stop();
});
