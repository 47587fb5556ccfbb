import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';

/**
 * The graph's reaction groups read an issue's and many comments' reactions in one statement each, through the index
 * that leads with the subject: (issueId, commentId, id) for issues, (commentId, id) for comments. Before, comments had
 * no index of their own and the allowed types were in the statement: the plan took the unique index that leads with
 * the type, and read every reaction of each type in the table. A type outside the allowed set is still left out.
 */
describe.each(PROVIDERS)('reaction groups: statements and indexes (%s)', (provider) => {
  let t: TestApp;
  let issueId: number;
  let commentId: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    const owner = await t.createUser('owner');
    const fan = await t.createUser('fan');
    const h = basic('owner');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: h, body: { name: 'r' } })).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/repos/owner/r/issues', { headers: h, body: { title: 'i' } })).statusCode).toBe(201);
    for (const body of ['first', 'second']) {
      expect((await t.request('POST', '/api/v1/repos/owner/r/issues/1/comments', { headers: h, body: { body } })).statusCode).toBe(201);
    }
    const issue = await t.db.issue.findFirstOrThrow({ where: { index: 1 } });
    const comments = await t.db.comment.findMany({ where: { issueId: issue.id, type: 'COMMENT' }, orderBy: { id: 'asc' } });
    const react = (user: string, path: string, content: string) =>
      t.request('POST', `/api/v1/repos/owner/r/issues/${path}/reactions`, { headers: basic(user), body: { content } });
    issueId = issue.id;
    commentId = comments[1]!.id;
    expect((await react('owner', '1', 'heart')).statusCode).toBe(201);
    expect((await react('fan', '1', 'heart')).statusCode).toBe(201);
    expect((await react('fan', `comments/${comments[1]!.id}`, '+1')).statusCode).toBe(201);
    // Rows of a type the site no longer allows (written before the setting changed): never shown.
    await t.db.reaction.create({ data: { type: 'smile', issueId: issue.id, commentId: 0, userId: fan.id } });
    await t.db.reaction.create({ data: { type: 'smile', issueId: issue.id, commentId: comments[0]!.id, userId: owner.id } });
    // A page of many issues: SQLite's choice of index depends on how many ids the statement lists.
    const issues = Array.from({ length: 40 }, (_, k) => ({ repoId: issue.repoId, index: 100 + k, posterId: owner.id, title: `more ${k}` }));
    await t.db.issue.createMany({ data: issues });
  });
  afterAll(() => t.close());

  const GROUPS = 'reactionGroups { content reactors { totalCount } }';
  const QUERY = `{ repository(owner: "owner", name: "r") { issue(number: 1) {
    ${GROUPS} comments(first: 10) { nodes { body ${GROUPS} } } } } }`;
  type Groups = { content: string; reactors: { totalCount: number } }[];
  const reacted = (groups: Groups) => groups.filter((g) => g.reactors.totalCount > 0);

  /**
   * The plan of a recorded statement with its parameters bound to real values, each by the column it is compared
   * with (a reaction type, or the issue's or a comment's id).
   */
  async function planOf(sql: string): Promise<string> {
    // The viewer's id, when the statement counts (reaction groups read for their counts only) and flags the viewer's.
    const ids: Record<string, number> = { issueId, commentId, userId: 0 };
    const types = ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'];
    let column = '';
    let type = 0;
    const values: (string | number)[] = [];
    sql.replace(/"(\w+)"\s*(?:IN\s*\(|=)|\?|\$\d+/g, (m, name: string | undefined) => {
      if (name !== undefined) column = name;
      else values.push(column === 'type' ? types[type++ % types.length]! : ids[column]!);
      return m;
    });
    if (provider === 'sqlite') {
      return (await t.db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`, ...values)).map((r) => r.detail).join(' | ');
    }
    return t.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      return (await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`, ...values)).map((r) => r['QUERY PLAN']).join(' | ');
    });
  }

  it('groups the allowed reactions of the issue and of its comments, and nothing else', async () => {
    const res = await gql<{
      repository: { issue: { reactionGroups: Groups; comments: { nodes: { body: string; reactionGroups: Groups }[] } } };
    }>(t, QUERY);
    expect(res.errors).toBeUndefined();
    const issue = res.data!.repository.issue;
    expect(reacted(issue.reactionGroups)).toEqual([{ content: 'HEART', reactors: { totalCount: 2 } }]);
    expect(issue.comments.nodes.map((c) => [c.body, reacted(c.reactionGroups)])).toEqual([
      ['first', []],
      ['second', [{ content: 'THUMBS_UP', reactors: { totalCount: 1 } }]],
    ]);
  });

  it('reads them through the index led by the issue, and by the comment', async () => {
    t.queries.length = 0;
    const page = `{ repository(owner: "owner", name: "r") { issues(first: 50) { nodes { ${GROUPS} comments(first: 10) { nodes { ${GROUPS} } } } } } }`;
    const res = await gql<{ repository: { issues: { nodes: unknown[] } } }>(t, page);
    expect(res.errors).toBeUndefined();
    expect(res.data!.repository.issues.nodes).toHaveLength(41);
    const statements = t.queries.filter((q) => /FROM "Reaction"/.test(q));
    expect(statements).toHaveLength(2);
    const [issues, comments] = [statements.find((q) => q.includes('"issueId" IN')), statements.find((q) => q.includes('"commentId" IN'))];
    const issuePlan = await planOf(issues!);
    expect(issuePlan).not.toContain('Reaction_type_issueId_commentId_userId_key');
    // PostgreSQL plans by its statistics: on this test's few rows any index may do; SQLite plans by the statement.
    if (provider === 'sqlite') expect(issuePlan).toContain('Reaction_issueId_commentId_id_idx');
    const commentPlan = await planOf(comments!);
    expect(commentPlan).toContain('Reaction_commentId_id_idx');
    expect(commentPlan).not.toMatch(/SCAN Reaction|Seq Scan|Reaction_type_issueId_commentId_userId_key/);
  });
});
