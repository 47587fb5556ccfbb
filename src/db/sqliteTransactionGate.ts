// On SQLite, Prisma runs everything on one connection, and SQLite's transactions belong to connections. The
// better-sqlite3 adapter (7.10) makes transactions wait for each other, but not the statements outside them: one
// run while another request's transaction is open ran inside it. It read that transaction's uncommitted rows, and
// when that transaction rolled back, the statement's write was undone with it: a feed row, a job's outcome, a
// token's last use, lost without an error (test/db/sqliteTransactionGate.test.ts).
//
// The gate closes that hole: a statement outside a transaction waits until no transaction is open, as it would
// wait on its own connection for another's commit. Statements of the code that opened the transaction (its async
// context, through AsyncLocalStorage) pass: a transaction's callback may still read through the client, as on
// PostgreSQL it would read what was committed before it, and must not wait for itself.
//
// The gate also says which client runs on the connection and which transaction a transaction client belongs to
// (connectionOf), so src/db/rawStatements.ts can run our raw statements on the connection itself, in the same order
// and the same transaction as Prisma would have, without Prisma's client in between.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from '@prisma/driver-adapter-utils';
import type Database from 'better-sqlite3';
import { savepointTransaction } from './directTransaction.ts';

/** The transactions of one SQLite connection, and who opened the open one. */
export class TransactionGate {
  readonly #owner = new AsyncLocalStorage<symbol>();
  #holder: symbol | null = null;
  #waiters: (() => void)[] = [];
  /** The connection, once Prisma has opened it (CachedSqliteAdapterFactory's onConnect). */
  database: Database.Database | null = null;
  /** Prisma's query event, for the statements run on the connection directly. */
  onQuery: ((e: { query: string; duration: number }) => void) | null = null;

  /** Runs `open` (which opens a transaction: `$transaction`) as the owner of that transaction. */
  own<T>(open: () => T): T {
    return this.#owner.run(Symbol('transaction'), open);
  }

  /** The transaction the caller runs as the owner of (inside `own`), if any. */
  owner(): symbol | undefined {
    return this.#owner.getStore();
  }

  /** Whether `owner`'s transaction is the open one. */
  holds(owner: symbol): boolean {
    return this.#holder === owner;
  }

  /** Whether the open transaction is the caller's. */
  heldByCaller(): boolean {
    return this.#holder !== null && this.#holder === this.#owner.getStore();
  }

  /** Whether a statement of the caller may run now: no transaction is open, or the caller's own is. */
  mayRun(): boolean {
    return this.#holder === null || this.#holder === this.#owner.getStore();
  }

  /**
   * Resolves once the open transaction (someone else's) has closed. A caller checks mayRun() again after it, in
   * the same tick as its statement: another transaction may have opened meanwhile.
   */
  async free(): Promise<void> {
    while (!this.mayRun()) await this.#next();
  }

  /**
   * Waits for no open transaction, then holds the gate until the returned release is called; resolves to null when
   * none closed within `maxWaitMs`.
   */
  async acquire(maxWaitMs = Infinity): Promise<(() => void) | null> {
    const deadline = performance.now() + maxWaitMs;
    while (this.#holder !== null) {
      const left = deadline - performance.now();
      if (left <= 0) return null;
      if (left === Infinity) await this.#next();
      else {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.#next(), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
        clearTimeout(timer);
      }
    }
    const holder = this.#owner.getStore() ?? Symbol('transaction');
    this.#holder = holder;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.#holder === holder) this.#holder = null;
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const wake of waiters) wake();
    };
  }

  #next(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/** `tx` releasing the gate once it is committed or rolled back (the adapter's own lock is released the same way). */
function releasing(tx: Transaction, release: () => void): Transaction {
  const commit = tx.commit.bind(tx);
  const rollback = tx.rollback.bind(tx);
  tx.commit = () => commit().finally(release);
  tx.rollback = () => rollback().finally(release);
  return tx;
}

/** A transaction inside the caller's open one on `inner`'s connection (savepointTransaction). */
function savepoint(inner: SqlDriverAdapter, gate: TransactionGate): Promise<Transaction> {
  const owner = gate.owner();
  return savepointTransaction(inner, () => {
    if (owner === undefined || !gate.holds(owner)) throw new Error('Transaction already closed: its enclosing transaction ended');
  });
}

/** The adapter of a SQLite connection with its statements outside transactions behind `gate`. */
export function gatedAdapter(inner: SqlDriverAdapter, gate: TransactionGate): SqlDriverAdapter {
  const adapter: SqlDriverAdapter = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    // The adapter runs each statement synchronously when called: checked in the same tick, it cannot land in a
    // transaction opened between the check and the statement.
    queryRaw: async (query) => {
      while (!gate.mayRun()) await gate.free();
      return inner.queryRaw(query);
    },
    executeRaw: async (query) => {
      while (!gate.mayRun()) await gate.free();
      return inner.executeRaw(query);
    },
    executeScript: async (script) => {
      while (!gate.mayRun()) await gate.free();
      return inner.executeScript(script);
    },
    startTransaction: async (isolationLevel) => {
      // Prisma's transaction inside the caller's own open one (sqliteTransaction.ts, or the root client's nested
      // write from a transaction's callback) runs in it, behind a savepoint.
      if (gate.heldByCaller()) return savepoint(inner, gate);
      const release = (await gate.acquire())!;
      try {
        return releasing(await inner.startTransaction(isolationLevel), release);
      } catch (err) {
        release();
        throw err;
      }
    },
    dispose: () => {
      // Closed: statements go through Prisma again, which opens a new connection (and sets database anew).
      gate.database = null;
      return inner.dispose();
    },
  };
  const info = inner.getConnectionInfo?.bind(inner);
  if (info) adapter.getConnectionInfo = info;
  return adapter;
}

/** `factory`'s connections behind `gate`. */
export function gatedFactory(factory: SqlDriverAdapterFactory, gate: TransactionGate): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => gatedAdapter(await factory.connect(), gate),
  };
}

/** A client on a gated connection: the root client (owner null), or a transaction client and its transaction. */
export interface GatedClient {
  gate: TransactionGate;
  owner: symbol | null;
  /** A transaction client's transaction is still open (it ends before the gate is released). */
  isOpen?: () => boolean;
}
const clients = new WeakMap<object, GatedClient>();

/** The gated SQLite connection `client` runs on, and its transaction for a transaction client; none on PostgreSQL. */
export function connectionOf(client: object): GatedClient | undefined {
  return clients.get(client);
}

/** Makes `derived` (an extension of `client`, which runs on its connection) known as running there too. */
export function sameConnection(derived: object, client: object): void {
  const entry = clients.get(client);
  if (entry) clients.set(derived, entry);
}

/** Records that `client` runs on `entry`'s connection (and, for a transaction client, in which transaction). */
export function registerClient(client: object, entry: GatedClient): void {
  clients.set(client, entry);
}
