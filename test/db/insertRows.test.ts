import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRowReturning, insertRows } from '../../src/db/insertRows.ts';
import { isUniqueViolation } from '../../src/db/prismaErrors.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * insertRows (src/db/insertRows.ts) writes what Prisma's createMany writes for the same rows: the same stored
 * columns (enums, booleans, timestamps in Prisma's text form on SQLite, schema defaults for left-out columns,
 * null for optional ones), on both databases, in one statement.
 */
describe.each(PROVIDERS)('insertRows (%s)', (provider) => {
  let t: TestApp;
  let issueId: number;
  let userId: number;
  let repoId: number;
  let labelId: number;
  let milestoneId: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    userId = (await t.createUser('owner')).id;
    const h = basic('owner');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: h, body: { name: 'r' } })).statusCode).toBe(201);
    const issue = await t.request('POST', '/api/v1/repos/owner/r/issues', { headers: h, body: { title: 'one' } });
    const row = await t.db.issue.findFirstOrThrow({ where: { index: issue.json<{ number: number }>().number } });
    [issueId, repoId] = [row.id, row.repoId];
    labelId = (await t.request('POST', '/api/v1/repos/owner/r/labels', { headers: h, body: { name: 'bug', color: '#ff0000' } })).json<{
      id: number;
    }>().id;
    milestoneId = (await t.request('POST', '/api/v1/repos/owner/r/milestones', { headers: h, body: { title: 'm' } })).json<{ id: number }>()
      .id;
    // The setup's post-commit subscribers and jobs finish before any statement is counted.
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
  });
  afterAll(() => t.close());

  /** The rows as the database stores them (SQLite's text timestamps and 0/1 booleans, not Prisma's conversions). */
  const stored = (table: string, where: string) =>
    t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${table}" WHERE ${where} ORDER BY "id"`);
  const withoutIds = (rows: Record<string, unknown>[]) =>
    rows.map(({ id: _id, createdAt, updatedAt, ...rest }) => ({ ...rest, createdAt: shape(createdAt), updatedAt: shape(updatedAt) }));
  /** A timestamp's stored form without its value: SQLite keeps Prisma's ISO text, PostgreSQL a Date. */
  const shape = (v: unknown) => (v instanceof Date ? 'Date' : String(v).replace(/\d/g, '9'));

  it('stores comments exactly as createMany does, rows of different columns in one statement', async () => {
    const rows = [
      { type: 'LABEL' as const, posterId: userId, issueId, labelId, content: '1' },
      { type: 'ASSIGNEES' as const, posterId: userId, issueId, assigneeId: userId, removedAssignee: true },
      { type: 'MILESTONE' as const, posterId: userId, issueId, milestoneId, oldMilestoneId: null },
    ];
    await t.db.comment.createMany({ data: rows.map((r) => ({ ...r, treePath: 'prisma' })) });
    const before = t.queries.length;
    expect(
      await insertRows(
        t.db,
        'Comment',
        rows.map((r) => ({ ...r, treePath: 'raw' })),
      ),
    ).toBe(3);
    // A job worker's poll of its queue may run beside it: statements on other tables are not counted.
    expect(t.queries.slice(before).filter((q) => q.includes('"Comment"'))).toHaveLength(1);
    const prisma = await stored('Comment', `"treePath" = 'prisma'`);
    const raw = await stored('Comment', `"treePath" = 'raw'`);
    expect(raw).toHaveLength(3);
    expect(withoutIds(raw).map((r) => ({ ...r, treePath: 'x' }))).toEqual(withoutIds(prisma).map((r) => ({ ...r, treePath: 'x' })));
    // And read back through Prisma as the same values.
    const read = await t.db.comment.findMany({ where: { treePath: 'raw' }, orderBy: { id: 'asc' } });
    expect(read.map((c) => [c.type, c.labelId, c.assigneeId, c.removedAssignee, c.milestoneId, c.content, c.refAction])).toEqual([
      ['LABEL', labelId, null, false, null, '1', 'NONE'],
      ['ASSIGNEES', null, userId, true, null, '', 'NONE'],
      ['MILESTONE', null, null, false, milestoneId, '', 'NONE'],
    ]);
    expect(read[0]!.createdAt.getTime()).toBe(read[0]!.updatedAt.getTime());
    expect(Math.abs(read[0]!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('takes given timestamps and enums, and nothing for no rows', async () => {
    const at = new Date('2024-05-06T07:08:09.123Z');
    const row = { userId, repoId, status: 'PINNED' as const, source: 'ISSUE' as const, issueId, updatedById: userId, createdAt: at };
    await insertRows(t.db, 'Notification', [row]);
    const read = await t.db.notification.findFirstOrThrow({ where: { userId, status: 'PINNED' } });
    expect([read.createdAt.toISOString(), read.source, read.commitId, read.commentId]).toEqual([at.toISOString(), 'ISSUE', '', null]);
    // createMany of the same row (but its issue: one notification per user and issue) stores the same columns.
    await t.db.notification.createMany({ data: [{ ...row, status: 'READ', issueId: null }] });
    const same = (rows: Record<string, unknown>[]) => withoutIds(rows).map((r) => ({ ...r, status: 'x', issueId: 'x' }));
    expect(same(await stored('Notification', `"status" = 'READ'`))).toEqual(same(await stored('Notification', `"status" = 'PINNED'`)));
    const before = t.queries.length;
    expect(await insertRows(t.db, 'Notification', [])).toBe(0);
    expect(t.queries.length).toBe(before);
  });

  it('fails as createMany does: a duplicate row is a unique violation (P2002), so races are retried', async () => {
    const row = { userId, email: 'dup@example.com', lowerEmail: 'dup@example.com' };
    await insertRows(t.db, 'EmailAddress', [row]);
    const fromPrisma = await t.db.emailAddress.createMany({ data: [row] }).catch((e: unknown) => e);
    const ours = await insertRows(t.db, 'EmailAddress', [row]).catch((e: unknown) => e);
    expect(isUniqueViolation(fromPrisma)).toBe(true);
    expect(isUniqueViolation(ours)).toBe(true);
    expect((ours as { meta: { modelName: string } }).meta.modelName).toBe('EmailAddress');
  });
  it('insertRowReturning stores and returns the row create does (defaults, timestamps, booleans), in one statement', async () => {
    const data = {
      repoId,
      index: 900,
      posterId: userId,
      title: 'raw',
      content: 'body',
      isClosed: true,
      closedAt: new Date(1_700_000_000_000),
    };
    const created = await t.db.issue.create({ data: { ...data, index: 901, title: 'prisma' } });
    const before = t.queries.length;
    const ours = await insertRowReturning(t.db, 'Issue', data);
    expect(t.queries.slice(before).filter((q) => q.includes('"Issue"'))).toHaveLength(1);
    const read = await t.db.issue.findUniqueOrThrow({ where: { id: ours.id } });
    // What it returns is what a read gives (Prisma's types), and it differs from create's row only where the input did.
    expect(ours).toEqual(read);
    const { id: _a, index: _b, title: _c, createdAt: c1, updatedAt: u1, ...rest } = ours;
    const { id: _d, index: _e, title: _f, createdAt: c2, updatedAt: u2, ...restPrisma } = created;
    expect(rest).toEqual(restPrisma);
    expect([c1, u1, c2, u2].every((d) => d instanceof Date)).toBe(true);
    expect(withoutIds(await stored('Issue', `"id" = ${ours.id}`)).map((r) => ({ ...r, index: 0, title: '' }))).toEqual(
      withoutIds(await stored('Issue', `"id" = ${created.id}`)).map((r) => ({ ...r, index: 0, title: '' })),
    );
  });
});
