import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateRowById, updateRowReturning } from '../../src/db/updateRow.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * updateRowById (src/db/updateRow.ts) stores what Prisma's `update` stores for the same change: values, an
 * increment, a timestamp, null, and `updatedAt` moved to now; on both databases, in one statement.
 */
describe.each(PROVIDERS)('updateRowById (%s)', (provider) => {
  let t: TestApp;
  let ids: [number, number];
  let milestoneId: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    const h = basic('owner');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: h, body: { name: 'r' } })).statusCode).toBe(201);
    milestoneId = (await t.request('POST', '/api/v1/repos/owner/r/milestones', { headers: h, body: { title: 'm' } })).json<{ id: number }>()
      .id;
    for (const title of ['prisma', 'raw']) {
      expect(
        (await t.request('POST', '/api/v1/repos/owner/r/issues', { headers: h, body: { title, milestone: milestoneId } })).statusCode,
      ).toBe(201);
    }
    const rows = await t.db.issue.findMany({ orderBy: { id: 'asc' } });
    ids = [rows[0]!.id, rows[1]!.id];
  });
  afterAll(() => t.close());

  /** The row as the database stores it (SQLite's text timestamps, not Prisma's conversions), its own columns left out. */
  const stored = async (id: number) => {
    const [row] = await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "Issue" WHERE "id" = ${id}`);
    const { id: _id, index: _index, title: _title, createdAt: _c, updatedAt, ...rest } = row!;
    return { ...rest, updatedAt: updatedAt instanceof Date ? 'Date' : String(updatedAt).replace(/\d/g, '9') };
  };

  it('stores the change exactly as update does, in one statement', async () => {
    const deadlineAt = new Date('2025-01-02T23:59:59.000Z');
    const change = { content: 'edited', contentVersion: { increment: 2 }, deadlineAt, milestoneId: null, ref: 'refs/heads/x' };
    const before = await t.db.issue.findUniqueOrThrow({ where: { id: ids[1] } });
    await t.db.issue.update({ where: { id: ids[0] }, data: change });
    // The issues' post-commit subscribers and jobs finished first: only this call's statements touch "Issue" now (a
    // job worker's poll of its queue may still run beside it, so statements on other tables are not counted).
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
    const n = t.queries.length;
    expect(await updateRowById(t.db, 'Issue', ids[1], change)).toBe(1);
    expect(t.queries.slice(n).filter((q) => q.includes('"Issue"'))).toHaveLength(1);
    expect(await stored(ids[1])).toEqual(await stored(ids[0]));
    const after = await t.db.issue.findUniqueOrThrow({ where: { id: ids[1] } });
    expect([after.content, after.contentVersion, after.deadlineAt?.toISOString(), after.milestoneId, after.ref]).toEqual([
      'edited',
      before.contentVersion + 2,
      deadlineAt.toISOString(),
      null,
      'refs/heads/x',
    ]);
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    expect(Math.abs(after.updatedAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('changes nothing for an id no row has, and answers a missing reference as update does (P2003)', async () => {
    expect(await updateRowById(t.db, 'Issue', 987_654, { content: 'x' })).toBe(0);
    await expect(updateRowById(t.db, 'Issue', ids[1], { milestoneId: 987_654 })).rejects.toMatchObject({ code: 'P2003' });
    expect((await t.db.issue.findUniqueOrThrow({ where: { id: ids[1] } })).milestoneId).toBeNull();
  });

  it('returns the row as it is after the change with Prisma types (updateRowReturning), in the transaction too', async () => {
    const before = await t.db.issue.findUniqueOrThrow({ where: { id: ids[0] } });
    const row = await t.db.$transaction((tx) =>
      updateRowReturning(tx, 'Issue', ids[0], { title: 'returned', contentVersion: { increment: 1 } }),
    );
    const after = await t.db.issue.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(row).toEqual(after);
    expect([row!.title, row!.contentVersion, row!.updatedAt instanceof Date, typeof row!.isClosed]).toEqual([
      'returned',
      before.contentVersion + 1,
      true,
      'boolean',
    ]);
    expect(await updateRowReturning(t.db, 'Issue', 987_654, { content: 'x' })).toBeNull();
    await expect(updateRowReturning(t.db, 'Issue', ids[0], { milestoneId: 987_654 })).rejects.toMatchObject({ code: 'P2003' });
  });
});
