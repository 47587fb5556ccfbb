// Interactive transactions on SQLite (`$transaction(async (tx) => …)`), opened on Prisma's connection itself.
//
// Prisma's own interactive transaction costs ~200 µs of client-side work per write (its transaction manager,
// timers, the transaction client's proxies, the COMMIT request; bench/prismaTransaction.ts), more than the writes
// of a comment take to run. Most of our transactions send only raw statements (rawStatements.ts), which run on the
// connection directly; so the transaction is opened there too: the gate is taken (TransactionGate: no statement
// outside it runs meanwhile), BEGIN, the callback, COMMIT or ROLLBACK.
//
// The callback's client is a stand-in (lazyClient). Raw helpers recognise it (connectionOf: this transaction) and
// run on the connection. A model query (`tx.issue.findMany`, `tx.$executeRaw`) opens Prisma's own transaction the
// first time, joined to this one (the gated adapter gives it a savepoint, TransactionGate.heldByCaller), and runs
// there; it is released or rolled back before this transaction's COMMIT or ROLLBACK. Prisma's semantics are kept:
// the timeout (the transaction is rolled back and the gate freed; later statements fail with P2028), maxWait (P2028
// when the gate stays taken), the callback's error rolls back and is rethrown, COMMIT and ROLLBACK appear to the
// query event as Prisma's do. Batch transactions (`$transaction([…])`) and a connection not yet opened use Prisma's.
import { runOnConnection, transactionApiError } from './sqliteConnection.ts';
import { registerClient, type TransactionGate } from './sqliteTransactionGate.ts';

/** A transaction client (Prisma's, or lazyClient's stand-in). */
type Client = object;
type Callback = (tx: Client) => Promise<unknown>;
interface Options {
  timeout?: number;
  maxWait?: number;
}
type PrismaTransaction = (fn: Callback, options?: Options & Record<string, unknown>) => Promise<unknown>;

/** Prisma's defaults for an interactive transaction. */
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_WAIT_MS = 2000;

/** Ends the joined Prisma transaction with a rollback (never seen by callers). */
const ROLLBACK = Symbol('rollback');

/**
 * `client` with each interactive `$transaction` opened on the connection (directTransaction) and owning it
 * (TransactionGate.own); batch transactions own theirs too.
 */
export function owningTransactions<C extends { $transaction: (...args: never[]) => unknown }>(client: C, gate: TransactionGate): C {
  registerClient(client, { gate, owner: null });
  const prisma = client.$transaction.bind(client) as (...args: unknown[]) => Promise<unknown>;
  client.$transaction = ((...args: unknown[]) =>
    gate.own(() => {
      const [fn, options] = args;
      if (typeof fn !== 'function' || !gate.database) return prisma(...args);
      return directTransaction(gate, prisma as PrismaTransaction, fn as Callback, (options ?? {}) as Options);
    })) as C['$transaction'];
  return client;
}

async function directTransaction(gate: TransactionGate, prisma: PrismaTransaction, fn: Callback, options: Options): Promise<unknown> {
  const db = gate.database!;
  const owner = gate.owner()!;
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const release = await gate.acquire(options.maxWait ?? DEFAULT_MAX_WAIT_MS);
  if (!release) {
    throw transactionApiError(`Unable to start a transaction in the given time (maxWait ${options.maxWait ?? DEFAULT_MAX_WAIT_MS} ms).`);
  }
  const statement = (sql: string, event = true) => runOnConnection(db, event ? gate.onQuery : null, sql, [], false);
  try {
    statement('BEGIN', false); // Prisma's adapter sends its BEGIN without a query event
  } catch (err) {
    release();
    throw err;
  }
  const started = Date.now();
  let open = true;
  /** Ends the transaction and frees the gate; a COMMIT that fails (SQLITE_BUSY leaves it open) is rolled back first. */
  const close = (sql: 'COMMIT' | 'ROLLBACK') => {
    if (!open) return;
    open = false;
    try {
      statement(sql);
    } catch (err) {
      if (sql === 'COMMIT') {
        try {
          statement('ROLLBACK');
        } catch {
          // No transaction left to roll back.
        }
      }
      throw err;
    } finally {
      release();
    }
  };
  /** Rolls back after a failure whose own error is the one to report. */
  const abandon = () => {
    try {
      close('ROLLBACK');
    } catch {
      // The rollback failed: nothing more can be done with this transaction; the gate is free.
    }
  };
  // As Prisma's: rolled back at once and the connection freed; the callback's later statements fail.
  const timer = setTimeout(abandon, timeout);

  const joined = joinedPrisma(prisma, timeout, () => open);
  const tx = lazyClient(joined.client);
  registerClient(tx, { gate, owner });
  let result: unknown;
  try {
    result = await fn(tx);
  } catch (err) {
    clearTimeout(timer);
    await joined.finish(false).catch(() => undefined);
    abandon();
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
    abandon();
    throw err;
  }
  close('COMMIT');
  return result;
}

/**
 * Prisma's interactive transaction for the callback's model queries, started on first use (inside the open one:
 * the gated adapter gives it a savepoint) and held open until finish: released on success, rolled back otherwise.
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
