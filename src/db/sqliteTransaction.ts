// Interactive transactions on SQLite (`$transaction(async (tx) => …)`), opened on Prisma's connection itself
// (directTransaction.ts): the gate is taken (TransactionGate: no statement outside the transaction runs meanwhile),
// BEGIN, the callback, COMMIT or ROLLBACK. A model query of the callback joins through Prisma's transaction, to which
// the gated adapter gives a savepoint (TransactionGate.heldByCaller: the whole `$transaction` runs as the gate's
// owner). maxWait is how long the gate may stay taken (P2028 after it). Batch transactions (`$transaction([…])`) and
// a connection not yet opened use Prisma's.
import {
  directTransaction,
  DEFAULT_MAX_WAIT_MS,
  maxWaitError,
  routeTransactions,
  type Callback,
  type PrismaTransaction,
  type TransactionOptions,
} from './directTransaction.ts';
import { runOnConnection } from './sqliteConnection.ts';
import { registerClient, type TransactionGate } from './sqliteTransactionGate.ts';

/**
 * `client` with each interactive `$transaction` opened on the connection (directTransaction) and owning it
 * (TransactionGate.own); batch transactions own theirs too.
 */
export function owningTransactions<C extends { $transaction: (...args: never[]) => unknown }>(client: C, gate: TransactionGate): C {
  registerClient(client, { gate, owner: null });
  return routeTransactions(client, (prisma, fn, options, args) =>
    gate.own(() => (fn && gate.database ? sqliteTransaction(gate, prisma as PrismaTransaction, fn, options) : prisma(...args))),
  );
}

async function sqliteTransaction(
  gate: TransactionGate,
  prisma: PrismaTransaction,
  fn: Callback,
  options: TransactionOptions,
): Promise<unknown> {
  const db = gate.database!;
  const owner = gate.owner()!;
  const release = await gate.acquire(options.maxWait ?? DEFAULT_MAX_WAIT_MS);
  if (!release) throw maxWaitError(options.maxWait);
  const statement = (sql: string, event: boolean) => void runOnConnection(db, event ? gate.onQuery : null, sql, [], false);
  return directTransaction(
    {
      begin: () => statement('BEGIN', false), // Prisma's adapter sends its BEGIN without a query event
      end: (sql) => statement(sql, true),
      release: () => release(),
      register: (tx, isOpen) => registerClient(tx, { gate, owner, isOpen }),
      // The whole transaction runs as the gate's owner: the gated adapter joins Prisma's transaction to it.
      joinPrisma: (start) => start(),
    },
    prisma,
    fn,
    options,
  );
}
