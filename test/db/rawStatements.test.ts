import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, Models, prepareDb } from '../../src/db/client.ts';
import { insertRows } from '../../src/db/insertRows.ts';
import { querySql } from '../../src/db/rawStatements.ts';
import { createReadPath } from '../../src/db/readPath.ts';
import { isUniqueViolation } from '../../src/db/prismaErrors.ts';
import { updateRowById } from '../../src/db/updateRow.ts';
import { busyMessageOf } from '../../src/services/dbErrors.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createMigratedDatabase, PROVIDERS } from '../helpers/db.ts';

/**
 * Our raw statements (src/db/rawStatements.ts) run on the database's connection itself (SQLite's one connection, or
 * PostgreSQL's pool and a transaction's pooled connection), without Prisma's client. They must join, wait for and
 * fail exactly as Prisma's raw statements do: each case holds on both databases.
 */
describe.each(PROVIDERS)('raw statements on the connection (%s)', (provider) => {
  let t: TestApp;
  let a: number;
  let b: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    a = (await t.createUser('raw-a')).id;
    b = (await t.createUser('raw-b')).id;
  });
  afterAll(() => t.close());

  const location = async (id: number) => (await t.db.user.findUniqueOrThrow({ where: { id }, select: { location: true } })).location;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("runs a transaction client's statement in its transaction: rolled back with it, seen by it before", async () => {
    const seen = await t.db
      .$transaction(async (tx) => {
        await updateRowById(tx, 'User', a, { location: 'in the transaction' });
        const inside = (await tx.user.findUniqueOrThrow({ where: { id: a } })).location;
        throw new Error(inside);
      })
      .catch((err: Error) => err.message);
    expect(seen).toBe('in the transaction');
    expect(await location(a)).toBe('');
  });

  it("keeps the root client's statement out of another's open transaction: it waits, and survives that rollback", async () => {
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const rolledBack = t.db
      .$transaction(async (tx) => {
        await tx.user.update({ where: { id: a }, data: { location: 'uncommitted' } });
        opened();
        await sleep(200);
        throw new Error('roll back');
      })
      .catch((err: Error) => err.message);
    await isOpen;
    expect(await updateRowById(t.db, 'User', b, { location: 'kept' })).toBe(1);
    expect(await rolledBack).toBe('roll back');
    expect(await location(b)).toBe('kept');
    expect(await location(a)).toBe('');
  });

  it("refuses a transaction client's statement once its transaction has closed, instead of running it outside", async () => {
    let closedTx: Parameters<Parameters<TestApp['db']['$transaction']>[0]>[0] | undefined;
    await t.db.$transaction(async (tx) => {
      closedTx = tx;
    });
    const err = await updateRowById(closedTx!, 'User', b, { location: 'after the end' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'P2028' });
    expect(await location(b)).toBe('kept');
  });

  it('reports a unique violation as Prisma does (P2002), inside a transaction too', async () => {
    const row = { userId: a, email: 'raw-dup@example.com', lowerEmail: 'raw-dup@example.com', isActivated: true, isPrimary: false };
    expect(await insertRows(t.db, 'EmailAddress', [row])).toBe(1);
    expect(isUniqueViolation(await insertRows(t.db, 'EmailAddress', [row]).catch((e: unknown) => e))).toBe(true);
    const inTx = await t.db.$transaction((tx) => insertRows(tx, 'EmailAddress', [row])).catch((e: unknown) => e);
    expect(isUniqueViolation(inTx)).toBe(true);
    expect(busyMessageOf(inTx, 1000)).toBeNull();
  });

  it.runIf(provider === 'postgresql')(
    'runs a prepared `SELECT *` again after its table gained a column (another instance migrated), on the write and read paths',
    async () => {
      const path = createReadPath('postgresql', t.config.databaseUrl);
      const select = () => querySql<Record<string, unknown>>(t.db, Models.Prisma.sql`SELECT * FROM "User" WHERE "id" = ${a}`);
      const read = () => path.all('SELECT * FROM "User" WHERE "id" = ?', [a]);
      const txSelect = () =>
        t.db.$transaction((tx) =>
          querySql<Record<string, unknown>>(tx, Models.Prisma.sql`SELECT * FROM "User" WHERE "id" = ${b} AND TRUE`),
        );
      try {
        expect(await select()).toHaveLength(1);
        expect(await read()).toHaveLength(1);
        expect(await txSelect()).toHaveLength(1);
        await t.db.$executeRawUnsafe('ALTER TABLE "User" ADD COLUMN "scratch" INTEGER');
        try {
          expect(Object.keys((await select())[0]!)).toContain('scratch');
          expect(Object.keys((await read())[0]!)).toContain('scratch');
          // In a transaction a stale statement may fail once (on the connection that prepared it: the failure aborted
          // the transaction); from then on it is prepared anew.
          const first = await txSelect().catch((err: { meta?: { code?: string } }) => err.meta?.code);
          if (typeof first === 'string') expect(first).toBe('0A000');
          expect(Object.keys((await txSelect())[0]!)).toContain('scratch');
        } finally {
          await t.db.$executeRawUnsafe('ALTER TABLE "User" DROP COLUMN "scratch"');
        }
        expect(Object.keys((await select())[0]!)).not.toContain('scratch');
        expect(Object.keys((await read())[0]!)).not.toContain('scratch');
      } finally {
        await path.close();
      }
    },
  );

  it('shows every statement to the query event', async () => {
    t.queries.length = 0;
    await t.db.$transaction((tx) => updateRowById(tx, 'User', b, { location: 'counted' }));
    expect(t.queries.filter((q) => q.startsWith('UPDATE "User"'))).toHaveLength(1);
  });
});

describe.each(PROVIDERS)('raw statements after the client disconnects (%s)', (provider) => {
  it('reconnect as Prisma does, in and out of transactions', async () => {
    const database = await createMigratedDatabase(provider);
    const db = await createDb({ provider, url: database.url });
    try {
      await prepareDb(db, provider);
      const bump = (on: Parameters<typeof updateRowById>[0]) => updateRowById(on, 'AuthGeneration', 1, { value: { increment: 1 } });
      expect(await bump(db)).toBe(1);
      await db.$disconnect();
      expect(await bump(db)).toBe(1);
      await db.$disconnect();
      expect(await db.$transaction((tx) => bump(tx))).toBe(1);
      expect((await db.authGeneration.findUniqueOrThrow({ where: { id: 1 } })).value).toBeGreaterThanOrEqual(3);
    } finally {
      await db.$disconnect();
      await database.drop();
    }
  });
});
