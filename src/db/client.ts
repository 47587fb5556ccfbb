import type * as P from '../generated/postgresql/client.ts';
import * as S from '../generated/sqlite/client.ts';
import type { DbProvider } from './migrate/engine.ts';
import { CachedSqliteAdapterFactory } from './sqliteStatementCache.ts';
import { joinableFactory, owningPgTransactions, PgConnection } from './pgTransaction.ts';
import { owningTransactions } from './sqliteTransaction.ts';
import { gatedFactory, TransactionGate } from './sqliteTransactionGate.ts';

/** The Prisma client every service sees (typed against the SQLite client; the PostgreSQL one is a superset). */
export type Db = S.PrismaClient;
/** A client inside an interactive transaction. */
export type DbTx = S.Prisma.TransactionClient;
/** Either a client or a transaction client: what read helpers accept. */
export type DbLike = Db | DbTx;
export { S as Models };
/** What Pothos' Prisma plugin needs (generated with the client): the model types and the data model. */
export { getDatamodel, type default as PrismaTypes } from '../generated/sqlite/pothos-types.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
/**
 * Compile-time proof that both generated clients describe identical models (imported by nobody).
 * @public
 */
export type ModelsMatch = [
  Assert<Equal<S.User, P.User>>,
  Assert<Equal<S.AccessToken, P.AccessToken>>,
  Assert<Equal<S.EmailAddress, P.EmailAddress>>,
  Assert<Equal<S.Repository, P.Repository>>,
  Assert<Equal<S.Issue, P.Issue>>,
  Assert<Equal<S.Team, P.Team>>,
];

/** A query observed through Prisma's query event (used by statement-count tests and debugging). */
export interface QueryEvent {
  query: string;
  duration: number;
}

export interface CreateDbOptions {
  provider: DbProvider;
  url: string;
  onQuery?: (e: QueryEvent) => void;
  /**
   * How long a statement may wait for a lock (SQLite's busy timeout, PostgreSQL's lock_timeout); default 10 s.
   * Without a bound on PostgreSQL a statement waits for a row lock for ever, even after its transaction timed out.
   */
  lockWaitMs?: number;
}

/**
 * Creates the Prisma client for SQLite (better-sqlite3 adapter) or PostgreSQL (pg adapter). The PostgreSQL client
 * and its adapter are imported only here, when asked for: a SQLite process never parses them (their import added ~20 MB
 * of RSS; test/db/lazyClients.test.ts).
 */
export async function createDb({ provider, url, onQuery, lockWaitMs = 10_000 }: CreateDbOptions): Promise<Db> {
  const log = onQuery ? [{ emit: 'event' as const, level: 'query' as const }] : [];
  // A Prisma transaction joined to one opened directly (a savepoint) reports its phantom COMMIT; no statement ran.
  const report = onQuery && ((e: QueryEvent) => void (e.query.startsWith('-- Implicit') || onQuery(e)));
  if (provider === 'sqlite') {
    // timeout = SQLite busy timeout, so the CLI and the server can write the same file. Statements are prepared once
    // per connection (sqliteStatementCache.ts).
    // Statements outside a transaction wait for the open one (sqliteTransactionGate.ts).
    // Our raw statements run on the connection itself (rawStatements.ts), reported to onQuery as Prisma's are.
    const gate = new TransactionGate();
    gate.onQuery = report ?? null;
    const factory = new CachedSqliteAdapterFactory({ url, timeout: lockWaitMs }, (db) => (gate.database = db));
    const client = owningTransactions(new S.PrismaClient({ adapter: gatedFactory(factory, gate), log }), gate);
    if (report) client.$on('query' as never, report as never);
    return client;
  }
  // Our raw statements and interactive transactions run on the adapter's pool directly (pgTransaction.ts).
  const [{ PrismaPg }, { PrismaClient }] = await Promise.all([import('@prisma/adapter-pg'), import('../generated/postgresql/client.ts')]);
  const connection = new PgConnection();
  connection.onQuery = report ?? null;
  const factory = new PrismaPg({ connectionString: url, max: 10, options: `-c lock_timeout=${Math.round(lockWaitMs)}` });
  const client = owningPgTransactions(new PrismaClient({ adapter: joinableFactory(factory, connection), log }), connection);
  if (report) client.$on('query' as never, report as never);
  return client as unknown as Db;
}

/** Per-connection settings: WAL and foreign keys on SQLite; nothing to do on PostgreSQL. */
export async function prepareDb(db: Db, provider: DbProvider): Promise<void> {
  if (provider !== 'sqlite') return;
  await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await db.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  await db.$executeRawUnsafe('PRAGMA synchronous = NORMAL');
}
