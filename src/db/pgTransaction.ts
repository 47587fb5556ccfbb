// PostgreSQL's side of running our statements without Prisma's client: the pool Prisma's pg adapter uses, the
// interactive transactions opened on one of its connections (directTransaction.ts), and which client runs where
// (pgConnectionOf: the root client on the pool, a transaction client on its transaction's connection).
//
// A model query of a transaction's callback joins through Prisma's transaction: the adapter (joinableFactory) gives
// a transaction started inside PgConnection.join a savepoint on that connection instead of a connection of its own.
// Only the joined start runs inside `join`: a nested `$transaction` of the root client, called from a callback,
// opens its own transaction on another connection, as it does under Prisma alone.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from '@prisma/driver-adapter-utils';
import type pg from 'pg';
import { delegateAdapter } from './migrate/delegateAdapter.ts';
import {
  directTransaction,
  DEFAULT_MAX_WAIT_MS,
  maxWaitError,
  routeTransactions,
  savepointTransaction,
  type Callback,
  type PrismaTransaction,
  type TransactionOptions,
} from './directTransaction.ts';
import { transactionApiError } from './prismaErrors.ts';
import { runOnPg, type PgQueryable } from './pgConnection.ts';

/** Prisma's isolation levels as SQL. */
const ISOLATION: Record<string, string> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
};

/** The pool of one client's adapter (null until Prisma connects, and after it disconnects). */
export class PgConnection {
  pool: pg.Pool | null = null;
  /** Prisma's query event, for the statements run directly. */
  onQuery: ((e: { query: string; duration: number }) => void) | null = null;
  /** The connection a Prisma transaction started inside `join.run` joins (a savepoint on it). */
  readonly join = new AsyncLocalStorage<Joinable>();
}

interface Joinable {
  conn: pg.PoolClient;
  isOpen: () => boolean;
}

/** A client running on a pool: the root client (no transaction), or a transaction client and its connection. */
interface PgClient {
  connection: PgConnection;
  transaction: Joinable | null;
}
const clients = new WeakMap<object, PgClient>();

/** Where `client`'s statements run without Prisma, and whether its transaction is still open; none when not connected. */
export function pgConnectionOf(
  client: object,
): { on: PgQueryable; pooled: boolean; onQuery: PgConnection['onQuery']; isOpen: () => boolean } | undefined {
  const entry = clients.get(client);
  if (!entry) return undefined;
  const { onQuery } = entry.connection;
  if (entry.transaction) return { on: entry.transaction.conn, pooled: false, onQuery, isOpen: entry.transaction.isOpen };
  const pool = entry.connection.pool;
  return pool ? { on: pool, pooled: true, onQuery, isOpen: () => true } : undefined;
}

/** Makes `derived` (an extension of `client`) known as running where `client` runs. */
export function samePgConnection(derived: object, client: object): void {
  const entry = clients.get(client);
  if (entry) clients.set(derived, entry);
}

/** A Prisma transaction inside `joined`'s open one, on its connection (savepointTransaction). */
function savepoint(adapter: SqlDriverAdapter, joined: Joinable): Promise<Transaction> {
  // The adapter's own queryable on the transaction's connection: its argument mapping, result types and errors.
  const on = Object.assign(Object.create(adapter) as SqlDriverAdapter, { client: joined.conn });
  return savepointTransaction(on, () => {
    if (!joined.isOpen()) throw transactionApiError('Transaction already closed: its enclosing transaction ended');
  });
}

/** `factory`'s adapters, recorded on `connection` while connected, joining transactions started inside `join`. */
export function joinableFactory(factory: SqlDriverAdapterFactory, connection: PgConnection): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const inner = await factory.connect();
      connection.pool = (inner as unknown as { underlyingDriver(): pg.Pool }).underlyingDriver();
      return delegateAdapter(inner, {
        startTransaction: async (isolationLevel) => {
          const joined = connection.join.getStore();
          return joined ? savepoint(inner, joined) : inner.startTransaction(isolationLevel);
        },
        dispose: () => {
          // Closed: statements go through Prisma again, which connects anew (and records the new pool).
          connection.pool = null;
          return inner.dispose();
        },
      });
    },
  };
}

/** A pooled connection within `maxWait` ms, or null (one that comes later goes back to the pool). */
async function connectWithin(pool: pg.Pool, maxWait: number): Promise<pg.PoolClient | null> {
  const pending = pool.connect();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), maxWait)));
  const conn = await Promise.race([pending, late]).finally(() => clearTimeout(timer));
  if (!conn)
    void pending.then(
      (c) => c.release(),
      () => undefined,
    );
  return conn;
}

/** `client` with each interactive `$transaction` opened on a pooled connection directly; batch ones are Prisma's. */
export function owningPgTransactions<C extends { $transaction: (...args: never[]) => unknown }>(client: C, connection: PgConnection): C {
  clients.set(client, { connection, transaction: null });
  return routeTransactions(client, (prisma, fn, options, args) =>
    fn && connection.pool ? pgTransaction(connection, prisma as PrismaTransaction, fn, options) : prisma(...args),
  );
}

async function pgTransaction(
  connection: PgConnection,
  prisma: PrismaTransaction,
  fn: Callback,
  options: TransactionOptions,
): Promise<unknown> {
  const conn = await connectWithin(connection.pool!, options.maxWait ?? DEFAULT_MAX_WAIT_MS);
  if (!conn) throw maxWaitError(options.maxWait);
  // A connection lost while checked out reports an error event (its statements fail on their own): not a crash.
  const lost = () => undefined;
  conn.on('error', lost);
  const release = (broken?: boolean) => {
    conn.removeListener('error', lost);
    conn.release(broken || undefined);
  };
  const statement = (sql: string, event: boolean) => runOnPg(conn, event ? connection.onQuery : null, sql, [], false);
  const level = options.isolationLevel && ISOLATION[options.isolationLevel];
  if (options.isolationLevel && !level) {
    release();
    throw transactionApiError(`Invalid isolation level: ${options.isolationLevel}`);
  }
  let joinable: Joinable | null = null;
  return directTransaction(
    {
      // Prisma's adapter sends its BEGIN (and the isolation level) without a query event.
      begin: () => statement(level ? `BEGIN ISOLATION LEVEL ${level}` : 'BEGIN', false),
      end: (sql) => statement(sql, true),
      release,
      register: (tx, isOpen) => {
        joinable = { conn, isOpen };
        clients.set(tx, { connection, transaction: joinable });
      },
      joinPrisma: (start) => connection.join.run(joinable!, start),
    },
    prisma,
    fn,
    options,
  );
}
