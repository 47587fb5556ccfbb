// What Prisma adds to a write transaction on SQLite (issue #35 item 3): the app's own client (createDb: statement
// cache, transaction gate) running `$transaction` with five one-row raw UPDATEs, and one raw UPDATE outside a
// transaction, against the same statements through better-sqlite3 directly on the same file. The difference is what
// every write pays per transaction and per statement before our own code runs.
// Usage: npx tsx bench/prismaTransaction.ts [n=2000]
import Database from 'better-sqlite3';
import { Prisma } from '../src/generated/sqlite/client.ts';
import { createDb, prepareDb } from '../src/db/client.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { scratchDatabase } from './scratchDb.ts';

const n = Number(process.argv[2] ?? 2000);
const STATEMENTS = 5;
const scratch = await scratchDatabase('sqlite', 'prisma-tx');
const file = scratch.url.slice('file:'.length);
const perOp = (t0: number) => ((performance.now() - t0) * 1000) / n;

try {
  await deployMigrations({ provider: 'sqlite', url: scratch.url });
  const db = await createDb({ provider: 'sqlite', url: scratch.url });
  await prepareDb(db, 'sqlite');
  // A one-row table no trigger or foreign key touches.
  const bump = () => Prisma.sql`UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = ${1}`;
  const prisma = { tx: Infinity, one: Infinity };
  for (let round = 0; round < 3; round++) {
    let t0 = performance.now();
    for (let i = 0; i < n; i++) {
      await db.$transaction(async (tx) => {
        for (let k = 0; k < STATEMENTS; k++) await tx.$executeRaw(bump());
      });
    }
    prisma.tx = Math.min(prisma.tx, perOp(t0));
    t0 = performance.now();
    for (let i = 0; i < n; i++) await db.$executeRaw(bump());
    prisma.one = Math.min(prisma.one, perOp(t0));
  }
  await db.$disconnect();

  const direct = new Database(file);
  direct.pragma('journal_mode = WAL');
  direct.pragma('synchronous = NORMAL');
  const update = direct.prepare('UPDATE "AuthGeneration" SET "value" = "value" + 1 WHERE "id" = ?');
  const transaction = direct.transaction(() => {
    for (let k = 0; k < STATEMENTS; k++) update.run(1);
  });
  const bare = { tx: Infinity, one: Infinity };
  for (let round = 0; round < 3; round++) {
    let t0 = performance.now();
    for (let i = 0; i < n; i++) transaction.immediate();
    bare.tx = Math.min(bare.tx, perOp(t0));
    t0 = performance.now();
    for (let i = 0; i < n; i++) update.run(1);
    bare.one = Math.min(bare.one, perOp(t0));
  }
  direct.close();

  console.log(`SQLite, ${n} operations, best of 3 rounds; µs per operation`);
  console.log('operation | Prisma (app client) | better-sqlite3 | difference');
  console.log(
    `transaction of ${STATEMENTS} one-row UPDATEs | ${prisma.tx.toFixed(0)} | ${bare.tx.toFixed(0)} | ${(prisma.tx - bare.tx).toFixed(0)}`,
  );
  console.log(`one UPDATE, no transaction | ${prisma.one.toFixed(0)} | ${bare.one.toFixed(0)} | ${(prisma.one - bare.one).toFixed(0)}`);
} finally {
  await scratch.drop();
}
