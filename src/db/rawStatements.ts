// Our raw statements (insertRows, updateRowById, the counters, the job rows, readRows inside a transaction), run
// on the database's connection itself instead of through Prisma's client. Prisma's `$executeRaw`/`$queryRaw` cost
// ~27 µs of client-side work each outside a transaction and more inside one (its transaction manager, the request
// pipeline, result mapping; bench/prismaTransaction.ts), more than most of these statements take to run.
//
// The connection is Prisma's own, so a statement sees and joins exactly what Prisma's would: a transaction client's
// statement runs in its open transaction (and fails as Prisma's would once that transaction has closed).
// - SQLite (sqliteConnection.ts): the one connection (CachedSqliteAdapterFactory, TransactionGate.database); the
//   root client's statement waits for another's open transaction (TransactionGate). Values are bound as the adapter
//   binds them (booleans 0/1, DateTime as ISO text ending in `+00:00`).
// - PostgreSQL (pgConnection.ts): the adapter's pool for the root client, the transaction's pooled connection for a
//   transaction client (pgTransaction.ts). DateTime is bound as the adapter binds it (UTC text).
// Errors carry the driver cause Prisma's raw errors carry (asModelError and busyMessageOf read it), and onQuery
// sees every statement. A client whose connection is not open yet uses Prisma.
import type { Prisma } from '../generated/sqlite/client.ts';
import type { DbLike } from './client.ts';
import { transactionApiError } from './prismaErrors.ts';
import { runOnConnection, type SqlValue } from './sqliteConnection.ts';
import { runOnPg } from './pgConnection.ts';
import { pgConnectionOf, samePgConnection } from './pgTransaction.ts';
import { connectionOf, sameConnection as sameSqliteConnection, type GatedClient } from './sqliteTransactionGate.ts';

/** `sql` run as `db.$executeRaw(sql)`: the number of rows changed. */
export async function executeSql(db: DbLike, sql: Prisma.Sql): Promise<number> {
  const run = onItsConnection(db, sql.sql, sql.text, sql.values as SqlValue[], false);
  return run ? ((await run) as number) : db.$executeRaw(sql);
}

/** `sql` run as `db.$queryRaw(sql)`: its rows (integers as numbers where exact, DateTime as stored: see rowShape.ts). */
export async function querySql<T = Record<string, unknown>>(db: DbLike, sql: Prisma.Sql): Promise<T[]> {
  const run = onItsConnection(db, sql.sql, sql.text, sql.values as SqlValue[], true);
  return run ? ((await run) as T[]) : db.$queryRaw<T[]>(sql);
}

/**
 * `text` with `?` placeholders run as `db.$queryRawUnsafe`: its rows. `pgText` is the same statement with `$1, $2,
 * …` placeholders, for PostgreSQL.
 */
export async function queryText<T = Record<string, unknown>>(
  db: DbLike,
  text: string,
  values: readonly unknown[],
  pgText: string,
): Promise<T[]> {
  const run = onItsConnection(db, text, pgText, values as SqlValue[], true);
  if (run) return (await run) as T[];
  const pg = (db as unknown as { _activeProvider: string })._activeProvider === 'postgresql';
  return db.$queryRawUnsafe<T[]>(pg ? pgText : text, ...values);
}

const CLOSED = 'Transaction already closed: a statement was sent after its transaction ended';

/**
 * The statement run on `db`'s connection directly (`text` on SQLite, `pgText` on PostgreSQL): rows for a reader,
 * else the number of rows changed; null when that connection is not open yet and Prisma must run it.
 */
function onItsConnection(db: DbLike, text: string, pgText: string, values: readonly SqlValue[], reader: boolean): Promise<unknown> | null {
  const sqlite = connectionOf(db);
  if (sqlite?.gate.database) return runDirect(sqlite, text, values, reader);
  const pg = pgConnectionOf(db);
  if (!pg) return null;
  if (!pg.isOpen()) return Promise.reject(transactionApiError(CLOSED));
  return runOnPg(pg.on, pg.onQuery, pgText, values, reader, pg.pooled);
}

/** Makes `derived` (an extension of `client`, which runs on its connection) known as running there too. */
export function sameConnection(derived: object, client: object): void {
  sameSqliteConnection(derived, client);
  samePgConnection(derived, client);
}

async function runDirect(direct: GatedClient, sql: string, values: readonly SqlValue[], reader: boolean): Promise<unknown> {
  const { gate, owner } = direct;
  if (owner === null) {
    while (!gate.mayRun()) await gate.free();
  } else if (!gate.holds(owner) || direct.isOpen?.() === false) {
    throw transactionApiError(CLOSED);
  }
  // From here to the statement's end nothing awaits: the connection is in the state just checked.
  return runOnConnection(gate.database!, gate.onQuery, sql, values, reader);
}
