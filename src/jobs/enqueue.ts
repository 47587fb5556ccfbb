import type { Db, DbLike } from '../db/client.ts';
import { insertRows, type InsertRow } from '../db/insertRows.ts';
import type { JobKind } from './jobKind.ts';

/** When and how often a job may run. */
export interface EnqueueOptions {
  /** Not before this moment (default: now). */
  runAt?: Date;
  /** Overrides the kind's maxAttempts. */
  maxAttempts?: number;
}

/** Transactions that enqueued jobs and have not committed yet (the workers are woken after the commit). */
const uncommitted = new WeakSet<object>();
/**
 * The outbox of each transaction `withTx` runs: the jobs it enqueued, written by one statement before its commit
 * (an issue creation enqueues three or four, one per in-transaction subscriber).
 */
const outboxes = new WeakMap<object, InsertRow<'Job'>[]>();
const listeners = new Set<() => void>();

function wake(): void {
  for (const listener of listeners) listener();
}

/**
 * Writes a job row (status PENDING) with `db`, normally the transaction making the change the job follows up
 * (an outbox): a committed change always gets its job, a rolled-back one never does. Workers in this process
 * are woken once the transaction commits through `withTx` (other instances find it by polling).
 * With the root client the row is written at once and its id returned. In a transaction of `withTx` the row
 * waits in the transaction's outbox, which `flushOutbox` writes before the commit; in any other transaction it
 * is written at once.
 */
export function enqueue<P>(db: Db, kind: JobKind<P>, payload: P, opts?: EnqueueOptions): Promise<number>;
export function enqueue<P>(db: DbLike, kind: JobKind<P>, payload: P, opts?: EnqueueOptions): Promise<void>;
export async function enqueue<P>(db: DbLike, kind: JobKind<P>, payload: P, opts: EnqueueOptions = {}): Promise<number | void> {
  const data = {
    kind: kind.name,
    payload: JSON.stringify(kind.payload.parse(payload)),
    maxAttempts: opts.maxAttempts ?? kind.maxAttempts,
    runAt: opts.runAt ?? new Date(),
  };
  const outbox = outboxes.get(db);
  if (outbox) {
    outbox.push(data);
    return;
  }
  const row = await db.job.create({ data, select: { id: true } });
  // A root client (a transaction client has no $connect) has committed already.
  if ('$connect' in db) wake();
  else uncommitted.add(db);
  return row.id;
}

/** Called by `withTx` when its transaction starts: the jobs it enqueues wait in an outbox until `flushOutbox`. */
export function openOutbox(tx: object): void {
  outboxes.set(tx, []);
}

/** Called by `withTx` before its commit, after the in-transaction subscribers: writes the outbox's jobs at once. */
export async function flushOutbox(tx: DbLike): Promise<void> {
  const rows = outboxes.get(tx);
  outboxes.delete(tx);
  if (!rows?.length) return;
  await insertRows(tx, 'Job', rows);
  uncommitted.add(tx);
}

/** Called after a transaction committed: wakes this process's workers when it enqueued jobs. */
export function transactionCommitted(tx: object): void {
  if (uncommitted.delete(tx)) wake();
}

/** Subscribes a worker to "jobs were enqueued and committed in this process"; returns the unsubscribe. */
export function onJobsEnqueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
