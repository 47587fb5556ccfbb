// The SQLite connection keeps its prepared statements (src/db/sqliteStatementCache.ts): each call binds its own
// arguments, readers and writers answer as without the cache, eviction keeps answers right, and a statement is
// prepared once however often it runs.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, prepareDb, type Db } from '../../src/db/client.ts';
import { createMigratedDatabase, type TestDatabase } from '../helpers/db.ts';

describe('SQLite statement cache', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createMigratedDatabase('sqlite');
    db = await createDb({ provider: 'sqlite', url: database.url });
    await prepareDb(db, 'sqlite');
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  it('binds each call its own arguments, for readers and writers, inside and outside transactions', async () => {
    for (const name of ['a', 'b', 'c']) {
      await db.user.create({ data: { name, lowerName: name, email: `${name}@x.test` } });
    }
    for (const name of ['c', 'a', 'b', 'a']) {
      expect((await db.user.findUnique({ where: { lowerName: name } }))?.email).toBe(`${name}@x.test`);
    }
    await db.$transaction(async (tx) => {
      await tx.user.update({ where: { lowerName: 'b' }, data: { fullName: 'Bee' } });
      expect((await tx.user.findUnique({ where: { lowerName: 'b' } }))?.fullName).toBe('Bee');
    });
    await expect(
      db.$transaction(async (tx) => {
        await tx.user.update({ where: { lowerName: 'c' }, data: { fullName: 'Sea' } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await db.user.findUnique({ where: { lowerName: 'c' } }))?.fullName).toBe('');
    expect(await db.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM "User" WHERE "lowerName" > ?', 'a')).toEqual([{ n: 2n }]);
    expect(await db.$executeRawUnsafe('UPDATE "User" SET "location" = ? WHERE "lowerName" = ?', 'here', 'a')).toBe(1);
    expect((await db.user.findUnique({ where: { lowerName: 'a' } }))?.location).toBe('here');
  });

  it('answers right past its size (the least recently used statements go) and prepares a repeated statement once', async () => {
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    try {
      for (let i = 0; i < 700; i++) {
        const rows = await db.$queryRawUnsafe<{ v: number | bigint }[]>(`SELECT ${i} AS v`);
        expect(rows.map((r) => Number(r.v))).toEqual([i]);
      }
      const before = prepare.mock.calls.length;
      for (let i = 0; i < 50; i++) {
        const rows = await db.$queryRawUnsafe<{ v: number | bigint }[]>('SELECT ? + 1 AS v', i);
        expect(rows.map((r) => Number(r.v))).toEqual([i + 1]);
      }
      expect(prepare.mock.calls.length - before).toBe(1);
    } finally {
      prepare.mockRestore();
    }
  });
});

describe('SQLite statement cache: columns', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createMigratedDatabase('sqlite');
    db = await createDb({ provider: 'sqlite', url: database.url });
    await prepareDb(db, 'sqlite');
    await db.user.create({ data: { name: 'a', lowerName: 'a', email: 'a@x.test' } });
  });
  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  it('asks a repeated reader for its columns once, and the rows keep their names and types', async () => {
    const scratch = new Database(':memory:');
    const statementPrototype = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as { columns(): unknown };
    scratch.close();
    const columns = vi.spyOn(statementPrototype, 'columns');
    try {
      for (let i = 0; i < 5; i++) {
        const user = await db.user.findUnique({ where: { lowerName: 'a' } });
        expect(user).toMatchObject({ name: 'a', isAdmin: false, maxRepoCreation: -1 });
        expect(user?.createdAt).toBeInstanceOf(Date);
      }
      expect(columns).toHaveBeenCalledTimes(1);
    } finally {
      columns.mockRestore();
    }
  });

  it('asks again after DDL on the connection, and a `*` select list then answers the new columns', async () => {
    const star = () => db.$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM "ScratchColumns"');
    const named = () => db.$queryRawUnsafe<Record<string, unknown>[]>('SELECT "a" FROM "ScratchColumns"');
    await db.$executeRawUnsafe('CREATE TABLE "ScratchColumns" ("a" INTEGER)');
    await db.$executeRawUnsafe('INSERT INTO "ScratchColumns" ("a") VALUES (1)');
    expect(await star()).toEqual([{ a: 1 }]);
    expect(await named()).toEqual([{ a: 1 }]);
    await db.$executeRawUnsafe(`ALTER TABLE "ScratchColumns" ADD COLUMN "b" TEXT DEFAULT 'x'`);
    expect(await star()).toEqual([{ a: 1, b: 'x' }]);
    // A table rebuilt with another type under the same statement: its declared type is read again.
    await db.$executeRawUnsafe('DROP TABLE "ScratchColumns"');
    await db.$executeRawUnsafe('CREATE TABLE "ScratchColumns" ("a" BOOLEAN)');
    await db.$executeRawUnsafe('INSERT INTO "ScratchColumns" ("a") VALUES (1)');
    expect(await named()).toEqual([{ a: true }]);
  });
});
