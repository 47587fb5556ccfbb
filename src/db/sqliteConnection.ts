// A statement run on Prisma's SQLite connection without Prisma (rawStatements.ts, sqliteTransaction.ts): its cached
// prepared statement bound as the adapter binds values, its rows with integers as numbers where exact, reported to
// the query event, and its errors as Prisma's raw query reports them, so the code above (asModelError,
// busyMessageOf, withRetry) reads Prisma's code and the driver's cause and sees no difference.
import Database from 'better-sqlite3';
import { rawQueryError } from './prismaErrors.ts';
import { boundStatement } from './sqliteStatementCache.ts';

/** A value as both drivers bind it. */
export type SqlValue = string | number | bigint | boolean | Date | Uint8Array | null;

/** The query event (Prisma's, which the app counts and times statements with). */
type OnQuery = ((e: { query: string; duration: number }) => void) | null;

/**
 * Runs `sql` on `db` synchronously (nothing awaits between a caller's check of the connection's state and the
 * statement): rows for a reader asked as one, else the number of rows changed (an empty list when rows were asked).
 */
export function runOnConnection(
  db: Database.Database,
  onQuery: OnQuery,
  sql: string,
  values: readonly SqlValue[],
  reader: boolean,
): Record<string, unknown>[] | number {
  const started = performance.now();
  let result: Record<string, unknown>[] | number;
  try {
    const stmt = boundStatement(db, sql, values.map(bindable));
    if (reader && stmt.reader) result = rowsOf(stmt.columns(), stmt.raw().all() as unknown[][]);
    else {
      const { changes } = stmt.run();
      result = reader ? [] : Number(changes);
    }
  } catch (err) {
    throw asPrismaRawError(err);
  }
  onQuery?.({ query: sql, duration: performance.now() - started });
  return result;
}

/** A value as the better-sqlite3 adapter binds it (its mapArg, with the default iso8601 timestamps). */
function bindable(v: SqlValue): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString().replace('Z', '+00:00');
  return v;
}

/** Row objects from the driver's arrays: integers as numbers when exact (the connection reads them as bigints). */
function rowsOf(columns: readonly { name: string }[], values: readonly unknown[][]): Record<string, unknown>[] {
  const names = columns.map((c) => c.name);
  return values.map((row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const v = row[i];
      out[names[i]!] = typeof v === 'bigint' && v >= Number.MIN_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : v;
    }
    return out;
  });
}

/** The kind Prisma's adapter gives a driver error (its mapDriverError), which asModelError and busyMessageOf read. */
function kindOf(code: string): string {
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'UniqueConstraintViolation';
  if (code === 'SQLITE_CONSTRAINT_NOTNULL') return 'NullConstraintViolation';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'SQLITE_CONSTRAINT_TRIGGER') return 'ForeignKeyConstraintViolation';
  if (code.startsWith('SQLITE_BUSY')) return 'SocketTimeout';
  return 'sqlite';
}

/** A driver error as Prisma's raw query reports it: P2010 with the driver's cause. */
function asPrismaRawError(err: unknown): unknown {
  if (!(err instanceof Database.SqliteError)) return err;
  return rawQueryError(err.code, err.message, { kind: kindOf(err.code), originalCode: err.code, originalMessage: err.message });
}
