// What Prisma adds to a write transaction on SQLite (issue #35 item 3), and what the app's own path costs now:
// five one-row raw UPDATEs in a transaction, and one raw UPDATE outside one, run
//   - through Prisma alone (a plain PrismaClient on the better-sqlite3 adapter: its interactive transaction),
//   - through the app's client (createDb) as the services write: `$transaction` opened on the connection
//     (src/db/sqliteTransaction.ts) and executeSql (src/db/rawStatements.ts),
//   - through the app's client with Prisma's `tx.$executeRaw` inside (a transaction that also sends model queries:
//     they join through Prisma's transaction on a savepoint),
//   - through better-sqlite3 directly on the same file (the floor).
// Usage: npx tsx bench/prismaTransaction.ts [n=2000]
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { Prisma, PrismaClient } from '../src/generated/sqlite/client.ts';
import { createDb, prepareDb, type DbLike } from '../src/db/client.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { executeSql } from '../src/db/rawStatements.ts';
import { scratchDatabase } from './scratchDb.ts';

const n = Number(process.argv[2] ?? 2000);
const STATEMENTS = 5;
const ROUNDS = 3;
const scratch = await scratchDatabase('sqlite', 'prisma-tx');
const file = scratch.url.slice('file:'.length);
const perOp = (t0: number) => ((performance.now() - t0) * 1000) / n;
// A one-row table no trigger or foreign key touches.
const bump = () => Prisma.sql`UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = ${1}`;

interface Figures {
  tx: number;
  one: number;
}

/** Best of ROUNDS: n transactions of STATEMENTS `run`s, then n `run`s outside a transaction. */
async function measure(
  transaction: (fn: (tx: DbLike) => Promise<void>) => Promise<unknown>,
  root: DbLike,
  run: (db: DbLike) => Promise<unknown>,
): Promise<Figures> {
  const best = { tx: Infinity, one: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = performance.now();
    for (let i = 0; i < n; i++) {
      await transaction(async (tx) => {
        for (let k = 0; k < STATEMENTS; k++) await run(tx);
      });
    }
    best.tx = Math.min(best.tx, perOp(t0));
    t0 = performance.now();
    for (let i = 0; i < n; i++) await run(root);
    best.one = Math.min(best.one, perOp(t0));
  }
  return best;
}

try {
  await deployMigrations({ provider: 'sqlite', url: scratch.url });
  const plain = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: scratch.url }) });
  await prepareDb(plain, 'sqlite'); // WAL, synchronous = NORMAL: as the app's connection
  const prismaAlone = await measure(
    (fn) => plain.$transaction(fn),
    plain,
    (db) => db.$executeRaw(bump()),
  );
  await plain.$disconnect();

  const db = await createDb({ provider: 'sqlite', url: scratch.url });
  await prepareDb(db, 'sqlite');
  const app = await measure(
    (fn) => db.$transaction(fn),
    db,
    (tx) => executeSql(tx, bump()),
  );
  const appWithPrisma = await measure(
    (fn) => db.$transaction(fn),
    db,
    (tx) => tx.$executeRaw(bump()),
  );
  await db.$disconnect();

  const direct = new Database(file);
  direct.pragma('journal_mode = WAL');
  direct.pragma('synchronous = NORMAL');
  const update = direct.prepare('UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = ?');
  const transaction = direct.transaction(() => {
    for (let k = 0; k < STATEMENTS; k++) update.run(1);
  });
  const bare = { tx: Infinity, one: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    let t0 = performance.now();
    for (let i = 0; i < n; i++) transaction.immediate();
    bare.tx = Math.min(bare.tx, perOp(t0));
    t0 = performance.now();
    for (let i = 0; i < n; i++) update.run(1);
    bare.one = Math.min(bare.one, perOp(t0));
  }
  direct.close();

  const row = (name: string, pick: (f: Figures) => number) =>
    console.log(`${name} | ${[prismaAlone, app, appWithPrisma, bare].map((f) => pick(f).toFixed(0)).join(' | ')}`);
  console.log(`SQLite, ${n} operations, best of ${ROUNDS} rounds; µs per operation`);
  console.log('operation | Prisma alone | the app (executeSql) | the app, Prisma statements inside | better-sqlite3');
  row(`transaction of ${STATEMENTS} one-row UPDATEs`, (f) => f.tx);
  row('one UPDATE, no transaction', (f) => f.one);
} finally {
  await scratch.drop();
}
