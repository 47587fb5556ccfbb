import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRows } from '../../src/db/readPath.ts';
import { columnsOf, rowWith } from '../../src/db/rowShape.ts';
import { sql } from '../../src/db/sqlText.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * The read path below Prisma (src/db/readPath.ts) returns exactly what Prisma returns for the same rows (Date,
 * boolean, bigint, enums, nulls), on the app's client through its own prepared statements and inside a
 * transaction through Prisma's raw query, which sees the transaction's own writes.
 */
describe.each(PROVIDERS)('read path (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    const h = basic('owner');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: h, body: { name: 'r', auto_init: true } })).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/repos/owner/r/issues', { headers: h, body: { title: 'one' } })).statusCode).toBe(201);
    const closed = await t.request('POST', '/api/v1/repos/owner/r/issues', { headers: h, body: { title: 'two', closed: true } });
    expect(closed.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('rowWith copies every column of a row with the extra fields, as a spread would', async () => {
    const [repo] = await t.db.repository.findMany({ take: 1 });
    const owner = await t.db.user.findUniqueOrThrow({ where: { id: repo!.ownerId } });
    const built = rowWith('Repository', repo!, { owner, units: [], name: 'renamed' });
    expect(built).toEqual({ ...repo, owner, units: [], name: 'renamed' });
    // A key the model does not have is not copied from the row (only the model's columns are).
    const withStray = { ...repo!, stray: 1 } as typeof repo & { stray: number };
    expect(rowWith('Repository', withStray!, { owner })).not.toHaveProperty('stray');
  });

  it('rows of each model equal Prisma findMany rows', async () => {
    const statements = t.queries.length;
    expect(await readRows(t.db, 'Issue', 'SELECT * FROM "Issue" ORDER BY "id"')).toEqual(
      await t.db.issue.findMany({ orderBy: { id: 'asc' } }),
    );
    expect(await readRows(t.db, 'Repository', 'SELECT * FROM "Repository"')).toEqual(await t.db.repository.findMany());
    expect(await readRows(t.db, 'User', 'SELECT * FROM "User" ORDER BY "id"')).toEqual(
      await t.db.user.findMany({ orderBy: { id: 'asc' } }),
    );
    const stats = await t.db.languageStat.findMany();
    expect(await readRows(t.db, 'LanguageStat', 'SELECT * FROM "LanguageStat"')).toEqual(stats);
    // Each read is seen like a Prisma statement (background jobs may add their own to the log meanwhile).
    expect(t.queries.slice(statements).filter((q) => q.startsWith('SELECT * FROM "'))).toHaveLength(4);
  });

  it('expands list parameters, an empty list matching nothing; booleans bind on both databases', async () => {
    const sql = 'SELECT "id", "title" FROM "Issue" WHERE "id" IN (?) AND "isClosed" = ? ORDER BY "id"';
    const all = await t.db.issue.findMany({ orderBy: { id: 'asc' } });
    expect(await readRows(t.db, 'Issue', sql, [all.map((i) => i.id), true])).toEqual([{ id: all[1]!.id, title: 'two' }]);
    expect(await readRows(t.db, 'Issue', sql, [[], false])).toEqual([]);
    expect(columnsOf('User', 'u', ['passwordHash'])).not.toContain('passwordHash');
  });

  it('rows of different column sets of one model are each converted as Prisma types them', async () => {
    const all = await t.db.issue.findMany({ orderBy: { id: 'asc' } });
    for (let round = 0; round < 2; round++) {
      const flags = await readRows(t.db, 'Issue', 'SELECT "id", "isClosed", "isPull" FROM "Issue" ORDER BY "id"');
      expect(flags).toEqual(all.map((i) => ({ id: i.id, isClosed: i.isClosed, isPull: i.isPull })));
      expect(typeof flags[1]!.isClosed).toBe('boolean');
      const times = await readRows(t.db, 'Issue', 'SELECT "id", "createdAt", "closedAt" FROM "Issue" ORDER BY "id"');
      expect(times).toEqual(all.map((i) => ({ id: i.id, createdAt: i.createdAt, closedAt: i.closedAt })));
      expect(times[0]!.createdAt).toBeInstanceOf(Date);
      expect(Object.keys(times[0]!)).toEqual(['id', 'createdAt', 'closedAt']);
      // No column to convert: the rows as read.
      expect(await readRows(t.db, 'Issue', 'SELECT "id", "title" FROM "Issue" ORDER BY "id"')).toEqual(
        all.map((i) => ({ id: i.id, title: i.title })),
      );
      expect(await readRows(t.db, 'Issue', 'SELECT * FROM "Issue" ORDER BY "id"')).toEqual(all);
    }
  });

  it('a statement of scalar parameters is checked once and then run as it is, whatever came first', async () => {
    const all = await t.db.issue.findMany({ orderBy: { id: 'asc' } });
    const one = all[0]!.id;
    // First with a one-element list (the text needs no expansion), then with scalars: the same rows.
    const text = 'SELECT "id" FROM "Issue" WHERE "id" IN (?) AND "isClosed" = ?';
    expect(await readRows(t.db, 'Issue', text, [[one], false])).toEqual([{ id: one }]);
    const params = [one, false] as const;
    expect(await readRows(t.db, 'Issue', text, [...params])).toEqual([{ id: one }]);
    const shared: [number, boolean] = [one, false];
    expect(await readRows(t.db, 'Issue', text, shared)).toEqual([{ id: one }]);
    expect(shared).toEqual([one, false]); // the caller's parameters are not rewritten (SQLite binds booleans as 0/1)
    // Checked for every count: one parameter too few or too many is refused, not run.
    await expect(readRows(t.db, 'Issue', text, [one])).rejects.toThrow('1 parameters for 2 placeholders');
    await expect(readRows(t.db, 'Issue', text, [one, false, 3])).rejects.toThrow('3 parameters for 2 placeholders');
    // A longer list after the scalars still expands.
    expect(await readRows(t.db, 'Issue', text, [all.map((i) => i.id), true])).toEqual([{ id: all[1]!.id }]);
  });

  it('sql texts: built from their values, the same text for the same values, beyond the kept ones too', () => {
    const texts = (n: number) => sql`SELECT ${'"id"'} FROM "Issue" LIMIT ${n} -- ${n % 2 ? 'odd' : 'even'}`;
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < 40; n++) expect(texts(n)).toBe(`SELECT "id" FROM "Issue" LIMIT ${n} -- ${n % 2 ? 'odd' : 'even'}`);
    }
    expect(sql`plain`).toBe('plain');
    expect(sql`${'a'}${'b'}`).toBe('ab');
  });

  it('sees committed writes at once, and a transaction its own uncommitted ones', async () => {
    const sql = 'SELECT * FROM "Issue" WHERE "title" = ?';
    await t.db.issue.updateMany({ where: { title: 'one' }, data: { title: 'renamed' } });
    expect(await readRows(t.db, 'Issue', sql, ['renamed'])).toHaveLength(1);
    await t.db.$transaction(async (tx) => {
      await tx.issue.updateMany({ where: { title: 'renamed' }, data: { title: 'inside' } });
      expect(await readRows(tx, 'Issue', sql, ['inside'])).toEqual(await tx.issue.findMany({ where: { title: 'inside' } }));
    });
    expect(await readRows(t.db, 'Issue', sql, ['inside'])).toHaveLength(1);
  });
});
