// Errors that mean "the database could not serve this in time", not "this request is wrong": a transaction that
// could not start or finish within its timeout, SQLite's busy timeout, a lock wait over PostgreSQL's lock_timeout,
// a deadlock or serialization failure, no free connection, or a repository lock held past REPO_LOCK_TIMEOUT
// (src/db/repoLocks.ts, code REPO_LOCK_TIMEOUT). Every door answers them 503 with Retry-After (the
// transaction rolled back, nothing was written), never 500.

/** Prisma's codes: P1008 operation timed out (SQLITE_BUSY), P2024 no pool connection, P2028 transaction API (timeout, expired), P2034 write conflict or deadlock. */
const PRISMA_CODES = new Set(['P1008', 'P2024', 'P2028', 'P2034']);
/** PostgreSQL's: lock_not_available (lock_timeout), query_canceled (statement_timeout), deadlock, serialization failure. */
const PG_CODES = new Set(['55P03', '57014', '40P01', '40001']);

interface PrismaLike {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } };
  cause?: unknown;
}

/**
 * What the client is told when `err` means "busy" (the limit named, so an operator knows which setting to look
 * at); null for any other error.
 */
export function busyMessageOf(err: unknown, transactionTimeoutMs: number): string | null {
  for (let e = err as PrismaLike | undefined, depth = 0; e && typeof e === 'object' && depth < 5; e = e.cause as PrismaLike, depth++) {
    if (e.code === 'REPO_LOCK_TIMEOUT' && e instanceof Error) return e.message;
    const cause = e.meta?.driverAdapterError?.cause;
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
