import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Models, type DbTx } from '../../src/db/client.ts';
import { insertRows } from '../../src/db/insertRows.ts';
import { querySql } from '../../src/db/rawStatements.ts';
import { updateRowById } from '../../src/db/updateRow.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

const { Prisma } = Models;

/**
 * Interactive transactions open on a connection directly (src/db/directTransaction.ts: SQLite's one connection,
 * sqliteTransaction.ts; a pooled PostgreSQL connection, pgTransaction.ts), with model queries joined through a Prisma
 * transaction on a savepoint. They must keep what Prisma's own transactions guarantee: each case holds on both
 * databases unless it says otherwise.
 */
describe.each(PROVIDERS)('interactive transactions (%s)', (provider) => {
  let t: TestApp;
  let a: number;
  let b: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    a = (await t.createUser('itx-a')).id;
    b = (await t.createUser('itx-b')).id;
  });
  afterAll(() => t.close());

  const location = async (id: number) => (await t.db.user.findUniqueOrThrow({ where: { id }, select: { location: true } })).location;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const reset = () => t.db.user.updateMany({ where: { id: { in: [a, b] } }, data: { location: '' } });

  it("commits a model write and a raw write together, and rolls both back with the callback's error", async () => {
    await reset();
    const failure = new Error('the callback failed');
    const seen = await t.db
      .$transaction(async (tx) => {
        await tx.user.update({ where: { id: a }, data: { location: 'model' } });
        await updateRowById(tx, 'User', b, { location: 'raw' });
        const inside = await tx.user.findMany({ where: { id: { in: [a, b] } }, orderBy: { id: 'asc' }, select: { location: true } });
        expect(inside.map((u) => u.location)).toEqual(['model', 'raw']);
        throw failure;
      })
      .catch((err: unknown) => err);
    expect(seen).toBe(failure);
    expect([await location(a), await location(b)]).toEqual(['', '']);

    const result = await t.db.$transaction(async (tx) => {
      await updateRowById(tx, 'User', b, { location: 'raw' });
      await tx.user.update({ where: { id: a }, data: { location: 'model' } });
      return 'committed';
    });
    expect(result).toBe('committed');
    expect([await location(a), await location(b)]).toEqual(['model', 'raw']);
  });

  it("keeps an extension's query hooks for the model queries of a transaction opened on it", async () => {
    await reset();
    const seen: string[] = [];
    const extended = t.db.$extends({
      query: {
        user: {
          async $allOperations({ operation, args, query }) {
            seen.push(operation);
            return query(args);
          },
        },
      },
    });
    await extended.$transaction(async (tx) => {
      await updateRowById(tx as unknown as DbTx, 'User', b, { location: 'raw' });
      await tx.user.update({ where: { id: a }, data: { location: 'hooked' } });
    });
    expect(seen).toEqual(['update']);
    expect([await location(a), await location(b)]).toEqual(['hooked', 'raw']);
  });

  it('keeps a failed operation of its own transaction from leaving anything, while the transaction goes on', async () => {
    await reset();
    const email = { email: 'itx-taken@example.com', lowerEmail: 'itx-taken@example.com' };
    await t.db.emailAddress.create({ data: { userId: b, ...email } });
    await t.db.$transaction(async (tx) => {
      await updateRowById(tx, 'User', b, { location: 'kept' });
      // The client itself, as code called from a transaction may use: a nested write is a transaction of its own.
      // Its address is taken, so it fails as a whole; its location change must not survive in the enclosing one.
      const nested = await t.db.user
        .update({ where: { id: a }, data: { location: 'partial', emailAddresses: { create: email } } })
        .catch((err: { code?: string }) => err.code);
      expect(nested).toBe('P2002');
    });
    expect([await location(a), await location(b)]).toEqual(['', 'kept']);
    expect(await t.db.emailAddress.count({ where: { lowerEmail: email.lowerEmail } })).toBe(1);
  });

  it('times out as Prisma does: rolled back, the database free for others meanwhile, the commit refused', async () => {
    await reset();
    const order: string[] = [];
    const slow = t.db
      .$transaction(
        async (tx) => {
          await updateRowById(tx, 'User', a, { location: 'too slow' });
          // A model query: Prisma's transaction joins this one, and must end with it.
          expect((await tx.user.findFirstOrThrow({ where: { id: a } })).location).toBe('too slow');
          await sleep(600);
          order.push('slow callback done');
          // A statement after the timeout is refused, not run outside the transaction.
          const late = await updateRowById(tx, 'User', b, { location: 'late' }).catch((err: { code?: string }) => err.code);
          expect(late).toBe('P2028');
          expect(await tx.user.findFirst({ where: { id: b } }).catch((err: { code?: string }) => err.code)).toBe('P2028');
        },
        { timeout: 150 },
      )
      .catch((err: { code?: string }) => err.code);
    await sleep(300);
    await updateRowById(t.db, 'User', b, { location: 'other' });
    order.push('other write done');
    expect(await slow).toBe('P2028');
    expect(order).toEqual(['other write done', 'slow callback done']);
    expect([await location(a), await location(b)]).toEqual(['', 'other']);
  });

  it('rolls back a transaction whose COMMIT fails, and frees the database for the next write', async () => {
    const orphan = { userId: 987654, email: 'itx-orphan@example.com', lowerEmail: 'itx-orphan@example.com' };
    const failed = await t.db
      .$transaction(async (tx) => {
        // SQLite checks a deferred foreign key at COMMIT (PostgreSQL's are not deferrable: the insert fails at once).
        if (provider === 'sqlite') await tx.$executeRawUnsafe('PRAGMA defer_foreign_keys = ON');
        await insertRows(tx, 'EmailAddress', [orphan]);
        await updateRowById(tx, 'User', a, { location: 'with the orphan' });
      })
      .then(
        () => 'committed',
        () => 'failed',
      );
    expect(failed).toBe('failed');
    expect(await t.db.emailAddress.count({ where: { lowerEmail: orphan.lowerEmail } })).toBe(0);
    await reset();
    expect(await t.db.$transaction((tx) => updateRowById(tx, 'User', a, { location: 'next' }))).toBe(1);
    expect(await location(a)).toBe('next');
  });

  it('loses and leaks nothing when many transactions and single statements interleave', async () => {
    const value = async () => (await t.db.authGeneration.findUniqueOrThrow({ where: { id: 1 } })).value;
    const before = await value();
    const bump = (db: Parameters<typeof updateRowById>[0]) => updateRowById(db, 'AuthGeneration', 1, { value: { increment: 1 } });
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        if (i % 3 === 0) return bump(t.db).then(() => 'single');
        return t.db
          .$transaction(
            async (tx) => {
              await bump(tx);
              await sleep(i % 4);
              await tx.authGeneration.update({ where: { id: 1 }, data: { value: { increment: 1 } } });
              if (i % 5 === 0) throw new Error('rolled back');
            },
            { timeout: 20_000, maxWait: 20_000 },
          )
          .then(
            () => 'committed',
            (err: Error) => err.message,
          );
      }),
    );
    const count = (o: string) => outcomes.filter((x) => x === o).length;
    expect(count('single') + count('committed') + count('rolled back')).toBe(30);
    // Each committed transaction added 2, each single statement 1, each rolled-back transaction nothing.
    expect((await value()) - before).toBe(count('single') + 2 * count('committed'));
  });

  it.runIf(provider === 'postgresql')('runs at the isolation level asked, for raw statements and joined model queries alike', async () => {
    const levels = await t.db.$transaction(
      async (tx) => {
        const [raw] = await querySql<{ level: string }>(tx, Prisma.sql`SELECT current_setting('transaction_isolation') AS "level"`);
        const [model] = await tx.$queryRaw<{ level: string }[]>`SELECT current_setting('transaction_isolation') AS "level"`;
        return [raw!.level, model!.level];
      },
      { isolationLevel: 'Serializable' },
    );
    expect(levels).toEqual(['serializable', 'serializable']);
    const [outside] = await t.db.$transaction((tx) =>
      querySql<{ level: string }>(tx, Prisma.sql`SELECT current_setting('transaction_isolation') AS "level"`),
    );
    expect(outside!.level).toBe('read committed');
  });

  it.runIf(provider === 'postgresql')('gives up waiting for a free connection after maxWait (P2028), and the pool recovers', async () => {
    await reset();
    // Every connection of the pool (10) held by an open transaction.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened = 0;
    let allOpen!: () => void;
    const full = new Promise<void>((resolve) => (allOpen = resolve));
    const holders = Array.from({ length: 10 }, () =>
      t.db.$transaction(
        async (tx) => {
          await querySql(tx, Prisma.sql`SELECT 1`);
          if (++opened === 10) allOpen();
          await held;
        },
        { timeout: 10_000, maxWait: 10_000 },
      ),
    );
    await full;
    const waited = await t.db
      .$transaction((tx) => updateRowById(tx, 'User', b, { location: 'never' }), { maxWait: 100 })
      .catch((err: { code?: string }) => err.code);
    expect(waited).toBe('P2028');
    release();
    await Promise.all(holders);
    expect(await t.db.$transaction((tx) => updateRowById(tx, 'User', b, { location: 'after' }))).toBe(1);
    expect(await location(b)).toBe('after');
  });

  it.runIf(provider === 'sqlite')('gives up waiting for another transaction after maxWait (P2028), as Prisma does', async () => {
    await reset();
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const holding = t.db.$transaction(async (tx) => {
      await updateRowById(tx, 'User', a, { location: 'holding' });
      opened();
      await sleep(400);
    });
    await isOpen;
    const waited = await t.db
      .$transaction((tx) => updateRowById(tx, 'User', b, { location: 'never' }), { maxWait: 50 })
      .catch((err: { code?: string }) => err.code);
    expect(waited).toBe('P2028');
    await holding;
    expect([await location(a), await location(b)]).toEqual(['holding', '']);
  });
});
