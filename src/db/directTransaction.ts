// Interactive transactions (`$transaction(async (tx) => …)`) opened on a connection directly, without Prisma's
// transaction manager: the part both databases share (sqliteTransaction.ts, pgTransaction.ts).
//
// Prisma's own interactive transaction costs ~200 µs of client-side work per write on SQLite and ~350 µs on
// PostgreSQL (its transaction manager, timers, the transaction client's proxies, the COMMIT request;
// bench/prismaTransaction.ts), more than the statements of a comment take to run. Most of our transactions send
// only raw statements (rawStatements.ts), which run on the connection directly; so the transaction is opened there
// too: BEGIN, the callback, COMMIT or ROLLBACK.
//
// The callback's client is a stand-in (lazyClient). Raw helpers recognise it (registered by the session) and run on
// the transaction's connection. A model query (`tx.issue.findMany`, `tx.$executeRaw`) opens Prisma's own
// transaction the first time, joined to this one (the adapter gives it a savepoint on the same connection), and runs
// there; it is released or rolled back before this transaction's COMMIT or ROLLBACK. Prisma's semantics are kept:
// the timeout (the transaction is rolled back and its connection freed; later statements fail with P2028), the
// callback's error rolls back and is rethrown, COMMIT and ROLLBACK appear to the query event as Prisma's do.
import type { SqlQueryable, Transaction } from '@prisma/driver-adapter-utils';
import { transactionApiError } from './prismaErrors.ts';

/** A transaction client (Prisma's, or lazyClient's stand-in). */
type Client = object;
export type Callback = (tx: Client) => Promise<unknown>;
export interface TransactionOptions {
  timeout?: number;
  maxWait?: number;
  isolationLevel?: string;
}
export type PrismaTransaction = (fn: Callback, options?: TransactionOptions & Record<string, unknown>) => Promise<unknown>;

/** Prisma's defaults for an interactive transaction. */
const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_MAX_WAIT_MS = 2000;

/** Ends the joined Prisma transaction with a rollback (never seen by callers). */
const ROLLBACK = Symbol('rollback');

type AnyTransaction = (...args: unknown[]) => Promise<unknown>;

/**
 * `client` with its `$transaction` run by `route`, given Prisma's own (for what it does not open itself) started on
 * the client it was called on: called on an extension of the client (`$extends`), `this` is that extension, so the
 * joined transaction's model queries keep the extension's query hooks (authWrites.ts).
 */
export function routeTransactions<C extends { $transaction: (...args: never[]) => unknown }>(
  client: C,
  route: (prisma: AnyTransaction, fn: Callback | null, options: TransactionOptions, args: unknown[]) => Promise<unknown>,
): C {
  const original = client.$transaction as unknown as (this: unknown, ...args: unknown[]) => Promise<unknown>;
  client.$transaction = function (this: unknown, ...args: unknown[]) {
    const [fn, options] = args;
    const prisma: AnyTransaction = (...a) => original.apply(this ?? client, a);
    return route(prisma, typeof fn === 'function' ? (fn as Callback) : null, (options ?? {}) as TransactionOptions, args);
  } as C['$transaction'];
  return client;
}

let savepoints = 0;

/**
 * Prisma's transaction inside an open one, on `on` (that transaction's connection): a savepoint, released on commit
 * and rolled back to on rollback. Prisma sends no BEGIN or COMMIT of its own for it (usePhantomQuery). `checkOpen`
 * throws once the transaction around it has closed: a statement would then run outside it, or in another's.
 */
export async function savepointTransaction(on: SqlQueryable, checkOpen: () => void): Promise<Transaction> {
  const name = `fg_${++savepoints}`;
  const run = (sql: string) => on.executeRaw({ sql, args: [], argTypes: [] });
  await run(`SAVEPOINT ${name}`);
  let closed = false;
  const close = async (sql: string[]) => {
    if (closed) return;
    closed = true;
    checkOpen();
    for (const s of sql) await run(s);
  };
  return {
    provider: on.provider,
    adapterName: on.adapterName,
    options: { usePhantomQuery: true },
    queryRaw: async (query) => (checkOpen(), on.queryRaw(query)),
    executeRaw: async (query) => (checkOpen(), on.executeRaw(query)),
    commit: () => close([`RELEASE SAVEPOINT ${name}`]),
    rollback: () => close([`ROLLBACK TO SAVEPOINT ${name}`, `RELEASE SAVEPOINT ${name}`]),
  };
}

/** One transaction's connection, held from the caller's acquisition until release. */
export interface DirectSession {
  /** Sends BEGIN (without a query event: Prisma's adapters send theirs without one). */
  begin(): unknown;
  /** Sends COMMIT or ROLLBACK, reported to the query event. */
  end(sql: 'COMMIT' | 'ROLLBACK'): unknown;
  /** Frees the connection; `broken` when it may still be inside a transaction. */
  release(broken: boolean): void;
  /** Makes `tx` known to the raw helpers as this transaction's client, open while `isOpen()`. */
  register(tx: Client, isOpen: () => boolean): void;
  /** Runs `start` (which starts Prisma's transaction) so that the adapter joins it to this one. */
  joinPrisma<T>(start: () => T): T;
}

/** The message of Prisma's P2028 for a transaction that could not start within `maxWait`. */
export function maxWaitError(maxWait: number | undefined): Error {
  return transactionApiError(`Unable to start a transaction in the given time (maxWait ${maxWait ?? DEFAULT_MAX_WAIT_MS} ms).`);
}

/** Runs `fn` in a transaction on `session`'s connection (already acquired), as Prisma's `$transaction(fn)` would. */
export async function directTransaction(
  session: DirectSession,
  prisma: PrismaTransaction,
  fn: Callback,
  options: TransactionOptions,
): Promise<unknown> {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  try {
    await session.begin();
  } catch (err) {
    session.release(true);
    throw err;
  }
  const started = Date.now();
  let open = true;
  /** Ends the transaction and frees the connection; a COMMIT that fails (SQLITE_BUSY leaves it open) is rolled back first. */
  const close = async (sql: 'COMMIT' | 'ROLLBACK') => {
    if (!open) return;
    open = false;
    let broken = false;
    try {
      await session.end(sql);
    } catch (err) {
      broken = sql === 'ROLLBACK';
      if (sql === 'COMMIT') {
        try {
          await session.end('ROLLBACK');
        } catch {
          // No transaction left to roll back.
        }
      }
      throw err;
    } finally {
      session.release(broken);
    }
  };
  /** Rolls back after a failure whose own error is the one to report. */
  const abandon = () =>
    close('ROLLBACK').catch(() => {
      // The rollback failed: nothing more can be done with this transaction; the connection is released.
    });
  // As Prisma's: rolled back at once and the connection freed; the callback's later statements fail.
  const timer = setTimeout(abandon, timeout);

  const joined = joinedPrisma(
    (fn, options) => session.joinPrisma(() => prisma(fn, options)),
    timeout,
    () => open,
  );
  const tx = lazyClient(joined.client);
  session.register(tx, () => open);
  let result: unknown;
  try {
    result = await fn(tx);
  } catch (err) {
    clearTimeout(timer);
    await joined.finish(false).catch(() => undefined);
    await abandon();
    throw err;
  }
  clearTimeout(timer);
  if (!open) {
    await joined.finish(false).catch(() => undefined);
    throw transactionApiError(
      `Transaction already closed: A commit cannot be executed on an expired transaction. The timeout for this transaction was ${timeout} ms, however ${Date.now() - started} ms passed since the start of the transaction.`,
    );
  }
  try {
    await joined.finish(true);
  } catch (err) {
    await abandon();
    throw err;
  }
  await close('COMMIT');
  return result;
}

/**
 * Prisma's interactive transaction for the callback's model queries, started on first use (inside the open one:
 * the adapter gives it a savepoint on the transaction's connection) and held open until finish: released on
 * success, rolled back otherwise.
 */
function joinedPrisma(
  prisma: PrismaTransaction,
  timeout: number,
  isOpen: () => boolean,
): { client: () => Promise<Client>; finish: (ok: boolean) => Promise<void> } {
  let started: { client: Promise<Client>; done: Promise<unknown>; settle: (ok: boolean) => void } | null = null;
  return {
    client: () => {
      // After a timeout the transaction is gone: a model query must not open one of its own instead.
      if (!isOpen()) return Promise.reject(transactionApiError('Transaction already closed: the transaction timed out.'));
      if (!started) {
        let settle!: (ok: boolean) => void;
        const outcome = new Promise<boolean>((resolve) => (settle = resolve));
        let ready!: (tx: Client) => void;
        const client = new Promise<Client>((resolve) => (ready = resolve));
        const done = prisma(
          async (tx) => {
            ready(tx);
            if (!(await outcome)) throw ROLLBACK;
          },
          { timeout, maxWait: timeout },
        );
        // A start that failed fails the model query waiting for it; finish then sees the same error.
        const failed = done.then(
          () => new Promise<Client>(() => undefined),
          (err: unknown) => Promise.reject(err),
        );
        started = { client: Promise.race([client, failed]), done, settle };
      }
      return started.client;
    },
    finish: async (ok) => {
      if (!started) return;
      started.settle(ok);
      await started.done.catch((err: unknown) => {
        if (err !== ROLLBACK) throw err;
      });
    },
  };
}

type Forward = (...args: unknown[]) => Promise<unknown>;

/**
 * The callback's client: `tx.<model>.<operation>(…)` and `tx.$<method>(…)` run on Prisma's joined transaction,
 * obtained on first use. Raw helpers never reach it: they recognise it (registerClient) and run on the connection.
 */
function lazyClient(client: () => Promise<Client>): Client {
  const on = (target: () => Promise<Record<string, unknown>>, name: string): Forward => {
    return (...args) => target().then((t) => (t[name] as (...a: unknown[]) => unknown)(...args));
  };
  const members = new Map<string, unknown>();
  const root = () => client() as unknown as Promise<Record<string, unknown>>;
  return new Proxy(Object.create(null) as object, {
    get(_target, name) {
      if (typeof name !== 'string' || name === 'then') return undefined;
      let member = members.get(name);
      if (member === undefined) {
        if (name.startsWith('$')) member = on(root, name);
        else {
          const delegate = () => root().then((t) => t[name] as Record<string, unknown>);
          const operations = new Map<string, Forward>();
          member = new Proxy(Object.create(null) as object, {
            get(_d, operation) {
              if (typeof operation !== 'string' || operation === 'then') return undefined;
              let forward = operations.get(operation);
              if (!forward) operations.set(operation, (forward = on(delegate, operation)));
              return forward;
            },
          });
        }
        members.set(name, member);
      }
      return member;
    },
  });
}
