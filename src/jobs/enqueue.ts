import type { DbLike } from '../db/client.ts';
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
const listeners = new Set<() => void>();

function wake(): void {
  for (const listener of listeners) listener();
}

/**
 * Writes a job row (status PENDING) with `db`, normally the transaction making the change the job follows up
 * (an outbox): a committed change always gets its job, a rolled-back one never does. Workers in this process
 * are woken once the transaction commits through `withTx` (other instances find it by polling).
 * Returns the job id.
 */
export async function enqueue<P>(db: DbLike, kind: JobKind<P>, payload: P, opts: EnqueueOptions = {}): Promise<number> {
  const row = await db.job.create({
    data: {
      kind: kind.name,
      payload: JSON.stringify(kind.payload.parse(payload)),
      maxAttempts: opts.maxAttempts ?? kind.maxAttempts,
      runAt: opts.runAt ?? new Date(),
    },
    select: { id: true },
  });
  // A root client (a transaction client has no $connect) has committed already.
  if ('$connect' in db) wake();
  else uncommitted.add(db);
  return row.id;
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
