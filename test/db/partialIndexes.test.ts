import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';

/**
 * The indexes on foreign keys that a plain comment leaves NULL are partial (`WHERE "<column>" IS NOT NULL`): a full
 * one would gain an entry, and a page written, for every comment (bench/sparseIndexes.ts), and lookups by value
 * still use them.
 */
describe.each(PROVIDERS)('partial indexes on sparse foreign keys (%s)', (provider) => {
  let t: TestApp;
  let commentId: number;
  let labelId: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    const h = basic('owner');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: h, body: { name: 'r' } })).statusCode).toBe(201);
    labelId = (await t.request('POST', '/api/v1/repos/owner/r/labels', { headers: h, body: { name: 'bug', color: '#ff0000' } })).json<{
      id: number;
    }>().id;
    expect((await t.request('POST', '/api/v1/repos/owner/r/issues', { headers: h, body: { title: 'i' } })).statusCode).toBe(201);
    commentId = (await t.request('POST', '/api/v1/repos/owner/r/issues/1/comments', { headers: h, body: { body: 'plain' } })).json<{
      id: number;
    }>().id;
    expect((await t.request('POST', '/api/v1/repos/owner/r/issues/1/labels', { headers: h, body: { labels: [labelId] } })).statusCode).toBe(
      200,
    );
  });
  afterAll(() => t.close());

  const indexes = async (table: string): Promise<string[]> =>
    (
      await t.db.$queryRawUnsafe<{ def: string }[]>(
        provider === 'sqlite'
          ? `SELECT sql AS def FROM sqlite_master WHERE type = 'index' AND tbl_name = '${table}' AND sql IS NOT NULL`
          : `SELECT indexdef AS def FROM pg_indexes WHERE tablename = '${table}'`,
      )
    ).map((r) => r.def.replace(/\s+/g, ' '));

  it('makes every index led by a foreign key a plain comment leaves NULL partial, and only those', async () => {
    const [row] = await t.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "Comment" WHERE "id" = ${commentId}`);
    const sparse = Object.entries(row!)
      .filter(([column, value]) => value === null && column.endsWith('Id'))
      .map(([column]) => column);
    expect(sparse).toEqual(expect.arrayContaining(['labelId', 'milestoneId', 'assigneeId', 'reviewId', 'refIssueId']));
    const defs = await indexes('Comment');
    const leading = (def: string) => /\("?(\w+)"?/.exec(def.slice(def.indexOf(' ON ')))?.[1];
    const bySparse = defs.filter((def) => sparse.includes(leading(def) ?? ''));
    expect(bySparse.length).toBeGreaterThanOrEqual(14);
    for (const def of bySparse) expect(def).toMatch(new RegExp(`WHERE \\(?"${leading(def)}" IS NOT NULL\\)?$`));
    for (const def of defs.filter((d) => !bySparse.includes(d))) expect(def).not.toMatch(/ WHERE /);
  });

  it('finds comments by such a column through its partial index, and the foreign key action still clears it', async () => {
    const plan =
      provider === 'sqlite'
        ? (await t.db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN SELECT "id" FROM "Comment" WHERE "labelId" = ${labelId}`))
            .map((r) => r.detail)
            .join(' ')
        : await t.db.$transaction(async (tx) => {
            await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
            const rows = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
              `EXPLAIN SELECT "id" FROM "Comment" WHERE "labelId" = ${labelId}`,
            );
            return rows.map((r) => r['QUERY PLAN']).join(' ');
          });
    expect(plan).toContain('Comment_labelId_idx');
    const labelled = () => t.db.comment.count({ where: { labelId } });
    expect(await labelled()).toBe(1);
    expect((await t.request('DELETE', `/api/v1/repos/owner/r/labels/${labelId}`, { headers: basic('owner') })).statusCode).toBe(204);
    expect(await labelled()).toBe(0);
  });
});
