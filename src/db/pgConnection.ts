// A statement run on PostgreSQL through the pg pool (or a transaction's pooled connection) that Prisma's adapter
// itself uses, without Prisma's client in between (rawStatements.ts, pgTransaction.ts): values bound as the adapter
// binds them, rows with the types Prisma's raw queries give (timestamps as Date, int8 as bigint), reported to the
// query event, and errors as Prisma's raw query reports them (P2010 with the driver's cause), so the code above
// (asModelError, busyMessageOf, withRetry) sees no difference.
import type pg from 'pg';
import { pgModule } from '../lazyPackage.ts';
import { rawQueryError } from './prismaErrors.ts';
import type { SqlValue } from './sqliteConnection.ts';

/** What runs a statement: the pool, or one of its connections. */
export type PgQueryable = Pick<pg.PoolClient, 'query'>;

/** The query event (Prisma's, which the app counts and times statements with). */
type OnQuery = ((e: { query: string; duration: number }) => void) | null;

// Prisma stores DateTime as `timestamp(3)` without zone, in UTC; int8 (BigInt) as exact integers.
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
/** Type parsers giving Prisma's raw-query types: timestamps as Date (UTC), int8 as bigint; the rest as pg does. */
export const pgTypes = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === TIMESTAMP_OID) return (s: string) => new Date(`${s.replace(' ', 'T')}Z`);
    if (oid === INT8_OID) return (s: string) => BigInt(s);
    return pgModule().types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

/**
 * Statement names: each text is prepared once per connection under a name of its own (15–20% less time per write
 * than parsing and planning each time: bench/writeProfile.ts, PostgreSQL). A name is never used for another text;
 * past `max` texts a statement runs unnamed, so a connection holds a bounded number of prepared statements.
 */
export class PreparedNames {
  readonly #names = new Map<string, string>();
  #next = 0;
  constructor(
    private readonly prefix: string,
    private readonly max = 500,
  ) {}

  nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < this.max) this.#names.set(text, (name = `${this.prefix}${this.#next++}`));
    return name;
  }

  /** The text is prepared anew, under a new name, on its next run. */
  forget(text: string): void {
    this.#names.delete(text);
  }
}

/**
 * PostgreSQL's "cached plan must not change result type": a prepared `SELECT *` or `RETURNING *` whose table gained
 * or lost a column since (another instance migrated the schema during a rolling upgrade). The connection keeps
 * refusing that prepared statement, so its text is prepared again under a new name.
 */
const STALE_PLAN = '0A000';

/**
 * Runs `text` as a prepared statement named by `names`. A stale plan is prepared again: at once when `again` (a
 * statement outside a transaction), else from the next run on (inside a transaction the failure has aborted it).
 */
export async function queryPrepared(
  on: PgQueryable,
  names: PreparedNames,
  text: string,
  values: unknown[],
  again: boolean,
): Promise<pg.QueryResult> {
  try {
    return await on.query({ name: names.nameOf(text), text, values, types: pgTypes });
  } catch (err) {
    if ((err as { code?: unknown }).code !== STALE_PLAN) throw err;
    names.forget(text);
    if (!again) throw err;
    return on.query({ name: names.nameOf(text), text, values, types: pgTypes });
  }
}

const writeNames = new PreparedNames('fg_w');

/**
 * Rows for a reader asked as one (its rows, or none), else the number of rows changed. `pooled`: `on` is the pool
 * (no transaction), where a statement whose prepared plan went stale may simply run again.
 */
export async function runOnPg(
  on: PgQueryable,
  onQuery: OnQuery,
  text: string,
  values: readonly SqlValue[],
  reader: boolean,
  pooled = false,
): Promise<Record<string, unknown>[] | number> {
  const started = performance.now();
  let result: pg.QueryResult;
  try {
    const bound = values.map(bindable);
    // Statements without values (BEGIN, COMMIT) use the simple protocol: nothing to prepare.
    result = bound.length ? await queryPrepared(on, writeNames, text, bound, pooled) : await on.query({ text, types: pgTypes });
  } catch (err) {
    throw asPrismaRawError(err);
  }
  onQuery?.({ query: text, duration: performance.now() - started });
  return reader ? (result.rows as Record<string, unknown>[]) : (result.rowCount ?? 0);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A value as the pg adapter binds it (its mapArg): DateTime as UTC `YYYY-MM-DD HH:MM:SS[.mmm]`, bigint as text. */
function bindable(v: SqlValue): unknown {
  if (v instanceof Date) {
    const ms = v.getUTCMilliseconds();
    return (
      `${pad(v.getUTCFullYear(), 4)}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())} ` +
      `${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`
    );
  }
  if (typeof v === 'bigint') return v.toString();
  return v;
}

interface PgError {
  code?: unknown;
  message: string;
  severity?: unknown;
  detail?: string;
  constraint?: string;
  column?: string;
  table?: string;
}

/** The kind Prisma's pg adapter gives a driver error (its convertDriverError), which asModelError and busyMessageOf read. */
function causeOf(e: PgError): Record<string, unknown> | null {
  if (typeof e.code !== 'string') return null;
  if (typeof e.severity !== 'string') {
    // A socket error (the adapter's mapSocketError).
    if (e.code === 'ETIMEDOUT') return { kind: 'SocketTimeout' };
    if (e.code === 'ECONNRESET') return { kind: 'ConnectionClosed' };
    if (e.code === 'ECONNREFUSED' || e.code === 'ENOTFOUND') return { kind: 'DatabaseNotReachable' };
    return null;
  }
  const original = { originalCode: e.code, originalMessage: e.message };
  const fields = e.detail?.match(/Key \(([^)]+)\)/)?.[1]?.split(', ');
  switch (e.code) {
    case '23505':
      return {
        ...original,
        kind: 'UniqueConstraintViolation',
        constraint: e.constraint ? { index: e.constraint } : fields && { fields },
        table: e.table,
      };
    case '23502':
      return { ...original, kind: 'NullConstraintViolation', constraint: fields && { fields } };
    case '23503':
      return {
        ...original,
        kind: 'ForeignKeyConstraintViolation',
        constraint: e.column ? { fields: [e.column] } : e.constraint && { index: e.constraint },
      };
    case '40001':
    case '40P01':
      return { ...original, kind: 'TransactionWriteConflict' };
    default:
      return { ...original, kind: 'postgres', code: e.code, severity: e.severity, message: e.message, detail: e.detail, column: e.column };
  }
}

/** A driver error as Prisma's raw query reports it: P2010 with the driver's cause; other errors as they are. */
function asPrismaRawError(err: unknown): unknown {
  if (typeof err !== 'object' || err === null || !('message' in err)) return err;
  const cause = causeOf(err as PgError);
  if (!cause) return err;
  return rawQueryError(String((err as PgError).code), (err as PgError).message, cause);
}
