// What a database error means to the code above it. Two questions, both answered from Prisma's code, PostgreSQL's
// SQLSTATE and the driver's cause (a raw statement reports as P2010 what a model query reports with its own code):
// - Busy (busyMessageOf): "the database could not serve this in time", not "this request is wrong": a transaction
//   that could not start or finish within its timeout, SQLite's busy timeout, a lock wait over PostgreSQL's
//   lock_timeout, a deadlock or serialization failure, no free connection, or a repository lock held past
//   REPO_LOCK_TIMEOUT (src/db/repoLocks.ts, code REPO_LOCK_TIMEOUT). Every door answers them 503 with Retry-After
//   (the transaction rolled back, nothing was written), never 500.
// - Transient (withRetry): a transaction that lost a race and may simply run again: a unique race, a serialization
//   failure, a deadlock, a write conflict. Not one that already waited out its whole lock timeout: waiting again
//   would only hold the client longer before the same 503.

/** Prisma's codes: P1008 operation timed out (SQLITE_BUSY), P2024 no pool connection, P2028 transaction API (timeout, expired), P2034 write conflict or deadlock. */
const PRISMA_CODES = new Set(['P1008', 'P2024', 'P2028', 'P2034']);
/** PostgreSQL's: lock_not_available (lock_timeout), query_canceled (statement_timeout), deadlock, serialization failure. */
const PG_CODES = new Set(['55P03', '57014', '40P01', '40001']);

interface DriverCause {
  originalCode?: unknown;
  kind?: unknown;
}

interface PrismaLike {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: DriverCause } };
  cause?: unknown;
}

/** The driver's own cause a Prisma error carries, if any. */
function driverCauseOf(e: PrismaLike): DriverCause | undefined {
  return e.meta?.driverAdapterError?.cause;
}

/**
 * What the client is told when `err` means "busy" (the limit named, so an operator knows which setting to look
 * at); null for any other error.
 */
export function busyMessageOf(err: unknown, transactionTimeoutMs: number): string | null {
  for (let e = err as PrismaLike | undefined, depth = 0; e && typeof e === 'object' && depth < 5; e = e.cause as PrismaLike, depth++) {
    if (e.code === 'REPO_LOCK_TIMEOUT' && e instanceof Error) return e.message;
    const cause = driverCauseOf(e);
    const original = cause?.originalCode;
    // A raw statement's driver error (P2010) carries the cause a model query would have turned into P1008/P2034.
    const busy =
      (typeof e.code === 'string' && (PRISMA_CODES.has(e.code) || PG_CODES.has(e.code))) ||
      (typeof original === 'string' && (PG_CODES.has(original) || original.startsWith('SQLITE_BUSY'))) ||
      cause?.kind === 'SocketTimeout' ||
      cause?.kind === 'TransactionWriteConflict';
    if (busy) {
      return `the database is busy: the operation could not finish within DATABASE_TRANSACTION_TIMEOUT (${transactionTimeoutMs} ms) and was rolled back; retry`;
    }
  }
  return null;
}

/** Seconds a client is asked to wait before retrying. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

const RETRIES = 8;
/** Codes of a lost race: P2002 unique constraint, P2034 write conflict or deadlock, PostgreSQL's serialization failure and deadlock. */
const RACE_CODES = new Set(['P2002', 'P2034', '40001', '40P01']);

/** Whether running `err`'s whole transaction again may succeed (see the head of this file). */
function isTransient(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as PrismaLike;
  const code = typeof e.code === 'string' ? e.code : '';
  const cause = driverCauseOf(e);
  if (code === 'P1008' || cause?.kind === 'SocketTimeout') return false;
  if (RACE_CODES.has(code) || cause?.kind === 'TransactionWriteConflict') return true;
  const message = err instanceof Error ? err.message : '';
  return /deadlock|could not serialize|SQLITE_BUSY|database is locked|write ?conflict/i.test(message);
}

/** Runs a transaction again, up to 8 times with a short random pause, while it loses races (see the head of this file). */
export async function withRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= RETRIES || !isTransient(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 10 * attempt)));
    }
  }
}
