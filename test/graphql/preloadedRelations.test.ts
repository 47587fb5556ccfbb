import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';
import { COMMENT_FIELD_COLUMNS, LABEL_FIELD_COLUMNS, USER_FIELD_COLUMNS } from '../../src/graphql/preload/issue.ts';
import { ISSUE_FIELD_COLUMNS } from '../../src/graphql/preload/repositoryIssues.ts';

interface Page {
  totalCount?: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: { body: string; author: { login: string } | null }[];
}
interface IssueNode {
  number: number;
  author: { login: string } | null;
  labels: { totalCount: number; nodes: { name: string }[] };
  assignees: { nodes: { login: string }[] };
  comments: Page;
  reactionGroups: { content: string; reactors: { totalCount: number } }[];
}
type Issues = { repository: { issues: { nodes: IssueNode[] } } };

/** Prisma's own SQL names tables with their schema (`main`.`Comment` on SQLite, "public"."Comment" on PostgreSQL). */
const prismaTable = (table: string) => new RegExp(`(\`main\`\\.\`${table}\`|"public"\\."${table}")`);

/**
 * The hot relations of Repository.issues (author, labels, assignees, comments, reactions) load on the read path
 * with each issue's first page in SQL (src/graphql/preload): the same answers as Prisma's, and pages after a
 * cursor (left to Prisma) continue exactly where the preloaded page ended.
 */
describe.each(PROVIDERS)('GraphQL preloaded issue relations (%s)', (provider) => {
  let t: TestApp;
  const owner = basic('owner');

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    await t.createUser('helper');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: owner, body: { name: 'hot' } })).statusCode).toBe(201);
    await t.request('PUT', '/api/v1/repos/owner/hot/collaborators/helper', { headers: owner, body: { permission: 'write' } });
    const labelIds: number[] = [];
    for (const name of ['zeta', 'alpha', 'mid']) {
      const res = await t.request('POST', '/api/v1/repos/owner/hot/labels', { headers: owner, body: { name, color: '00ff00' } });
      labelIds.push((res.json() as { id: number }).id);
    }
    for (let n = 1; n <= 3; n++) {
      const body = { title: `issue ${n}`, labels: labelIds.slice(0, n), assignees: n > 1 ? ['owner', 'helper'] : ['helper'] };
      expect((await t.request('POST', '/api/v1/repos/owner/hot/issues', { headers: owner, body })).statusCode).toBe(201);
      for (let c = 1; c <= 4; c++) {
        const who = c % 2 ? owner : basic('helper');
        const res = await t.request('POST', `/api/v1/repos/owner/hot/issues/${n}/comments`, { headers: who, body: { body: `${n}.${c}` } });
        expect(res.statusCode).toBe(201);
      }
    }
    await t.request('POST', '/api/v1/repos/owner/hot/issues/2/reactions', { headers: owner, body: { content: 'heart' } });
    await t.app.deps.notifier.drain();
  });
  afterAll(() => t.close());

  const issuesQuery = (comments: string) => `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { number author { login }
    labels(first: 2) { totalCount nodes { name } } assignees(first: 5) { nodes { login } }
    comments(${comments}) { totalCount pageInfo { hasNextPage endCursor } nodes { body author { login } } }
    reactionGroups { content reactors { totalCount } } } } } }`;

  it('loads each issue’s first page in SQL, with the right rows, and no Prisma statement for those relations', async () => {
    t.queries.length = 0;
    const res = await gql<Issues>(t, issuesQuery('first: 2'), { headers: owner });
    expect(res.errors).toBeUndefined();
    const sql = [...t.queries];
    const nodes = res.data?.repository.issues.nodes ?? [];
    expect(nodes.map((i) => i.number)).toEqual([3, 2, 1]);
    const third = nodes[0];
    expect(third?.author).toEqual({ login: 'owner' });
    // Labels in the order they were attached (link id), two of three on the page, totalCount of all.
    expect(third?.labels).toEqual({ totalCount: 3, nodes: [{ name: 'zeta' }, { name: 'alpha' }] });
    expect(nodes[2]?.labels).toEqual({ totalCount: 1, nodes: [{ name: 'zeta' }] });
    expect(third?.assignees.nodes.map((a) => a.login).sort()).toEqual(['helper', 'owner']);
    for (const [i, issue] of nodes.entries()) {
      const n = 3 - i;
      expect(issue.comments.totalCount).toBe(4);
      expect(issue.comments.pageInfo.hasNextPage).toBe(true);
      expect(issue.comments.nodes).toEqual([
        { body: `${n}.1`, author: { login: 'owner' } },
        { body: `${n}.2`, author: { login: 'helper' } },
      ]);
    }
    expect(nodes[1]?.reactionGroups.find((g) => g.content === 'HEART')?.reactors.totalCount).toBe(1);
    expect(nodes[0]?.reactionGroups.every((g) => g.reactors.totalCount === 0)).toBe(true);
    // The comments are read on the read path (one statement); Prisma loads none of the preloaded relations.
    expect(sql.filter((q) => /FROM "Comment"/.test(q))).toHaveLength(1);
    for (const table of ['Comment', 'IssueLabel', 'IssueAssignee', 'Reaction']) {
      expect(
        sql.filter((q) => prismaTable(table).test(q) && !/COUNT/i.test(q)),
        table,
      ).toEqual([]);
    }
  });

  it('counts labels and assignees only for the totalCount the operation selects, and none without one', async () => {
    const countsOf = (sql: string[]) => sql.filter((q) => /COUNT\(\*\)/i.test(q) && /"IssueLabel"|"IssueAssignee"/.test(q));
    const pages = `labels(first: 2) { nodes { name } } assignees(first: 5) { nodes { login } }`;
    t.queries.length = 0;
    const bare = await gql<Issues>(t, `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { ${pages} } } } }`, {
      headers: owner,
    });
    expect(bare.errors).toBeUndefined();
    expect(bare.data?.repository.issues.nodes[0]?.labels).toEqual({ nodes: [{ name: 'zeta' }, { name: 'alpha' }] });
    expect(countsOf([...t.queries])).toEqual([]);

    t.queries.length = 0;
    const assigneeCount = `assignees(first: 1) { totalCount nodes { login } }`;
    const counted = await gql<{ repository: { issues: { nodes: { assignees: { totalCount: number } }[] } } }>(
      t,
      `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { labels(first: 1) { nodes { name } } ${assigneeCount} } } } }`,
      { headers: owner },
    );
    expect(counted.errors).toBeUndefined();
    expect(counted.data?.repository.issues.nodes.map((i) => i.assignees.totalCount)).toEqual([2, 2, 1]);
    const sql = countsOf([...t.queries]);
    expect(sql).toHaveLength(1);
    expect(sql[0]).toMatch(/"IssueAssignee"/);
    expect(sql[0]).not.toMatch(/"IssueLabel"/);
  });

  it('label and assignee pages: cut from all the links when they are few, by the window when some issue has more than its page', async () => {
    const run = async (labelsPage: number) => {
      t.queries.length = 0;
      const res = await gql<{ repository: { issues: { nodes: { number: number; labels: { nodes: { name: string }[] } }[] } } }>(
        t,
        `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { number labels(first: ${labelsPage}) { nodes { name } } } } } }`,
        { headers: owner },
      );
      expect(res.errors).toBeUndefined();
      const labelStatements = t.queries.filter((q) => q.includes('FROM "IssueLabel"'));
      return { nodes: res.data?.repository.issues.nodes, labelStatements };
    };
    // Pages of 10, and of 2: the six links of the three issues (3 + 2 + 1) are fewer than the pages could hold; one
    // statement with no window reads them and the pages are cut from them (issue 3's third label is not on a page of 2).
    for (const [page, third] of [
      [10, ['zeta', 'alpha', 'mid']],
      [2, ['zeta', 'alpha']],
    ] as const) {
      const few = await run(page);
      expect(few.nodes?.map((i) => [i.number, i.labels.nodes.map((l) => l.name)])).toEqual([
        [3, third],
        [2, ['zeta', 'alpha']],
        [1, ['zeta']],
      ]);
      expect(few.labelStatements).toHaveLength(1);
      expect(few.labelStatements[0]).not.toMatch(/ROW_NUMBER/);
    }
    // Pages of 1: six links are more than three pages of one hold; the window pages them in SQL after that read.
    const many = await run(1);
    expect(many.nodes?.map((i) => [i.number, i.labels.nodes.map((l) => l.name)])).toEqual([
      [3, ['zeta']],
      [2, ['zeta']],
      [1, ['zeta']],
    ]);
    expect(many.labelStatements).toHaveLength(2);
    expect(many.labelStatements[1]).toMatch(/ROW_NUMBER\(\) OVER \(PARTITION BY "issueId"/);
  });

  it("comment pages: read whole and cut when the issues' counts say they are few, by the window when many, and by the window after all when a count is behind", async () => {
    const run = async (page: number) => {
      t.queries.length = 0;
      const res = await gql<{ repository: { issues: { nodes: { number: number; comments: { nodes: { body: string }[] } }[] } } }>(
        t,
        `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { number comments(first: ${page}) { nodes { body } } } } } }`,
        { headers: owner },
      );
      expect(res.errors).toBeUndefined();
      const statements = t.queries.filter((q) => /FROM "Comment"/.test(q));
      return { bodies: res.data?.repository.issues.nodes.map((i) => [i.number, i.comments.nodes.map((c) => c.body)]), statements };
    };
    const pageOf = (size: number) => [3, 2, 1].map((n) => [n, Array.from({ length: size }, (_, c) => `${n}.${c + 1}`)]);
    const whole = /WHERE c\."issueId" IN \([^)]*\) AND c\."type" = (\?|\$\d+) ORDER BY c\."issueId", c\."id" LIMIT/;
    // Pages of 2: the issues count 12 comments, under twice the 6 the pages hold: one statement reads them whole (at
    // most 13) and the pages are cut from it.
    const few = await run(2);
    expect(few.bodies).toEqual(pageOf(2));
    expect(few.statements).toHaveLength(1);
    expect(few.statements[0]).toMatch(whole);
    // Pages of 1: 12 is not under 7: the window pages them in SQL, alone.
    const many = await run(1);
    expect(many.bodies).toEqual(pageOf(1));
    expect(many.statements).toHaveLength(1);
    expect(many.statements[0]).toMatch(/ROW_NUMBER\(\) OVER \(PARTITION BY "issueId"/);
    // Counts behind the rows (0 said, 12 there): the whole read stops at its limit and the window answers.
    const db = t.app.deps.db;
    const counts = await db.issue.findMany({ where: { repo: { name: 'hot' } }, select: { id: true, numComments: true } });
    expect(counts.map((c) => c.numComments)).toEqual([4, 4, 4]);
    await db.issue.updateMany({ where: { id: { in: counts.map((c) => c.id) } }, data: { numComments: 0 } });
    try {
      const behind = await run(1);
      expect(behind.bodies).toEqual(pageOf(1));
      expect(behind.statements).toHaveLength(2);
      expect(behind.statements[0]).toMatch(whole);
      expect(behind.statements[1]).toMatch(/ROW_NUMBER\(\) OVER \(PARTITION BY "issueId"/);
    } finally {
      await db.issue.updateMany({ where: { id: { in: counts.map((c) => c.id) } }, data: { numComments: 4 } });
    }
  });

  it('a cursor page (Prisma) continues where the preloaded first page ended; last: and first: 0 answer as before', async () => {
    const first = await gql<Issues>(t, issuesQuery('first: 2'), { headers: owner });
    const cursor = first.data?.repository.issues.nodes[0]?.comments.pageInfo.endCursor;
    expect(cursor).toBeTruthy();
    const next = await gql<{ repository: { issue: { comments: Page } } }>(
      t,
      `{ repository(owner: "owner", name: "hot") { issue(number: 3) { comments(first: 5, after: "${cursor}") { pageInfo { hasNextPage endCursor } nodes { body author { login } } } } } }`,
      { headers: owner },
    );
    expect(next.errors).toBeUndefined();
    expect(next.data?.repository.issue.comments.nodes.map((c) => c.body)).toEqual(['3.3', '3.4']);
    expect(next.data?.repository.issue.comments.pageInfo.hasNextPage).toBe(false);
    const last = await gql<Issues>(t, issuesQuery('last: 1'), { headers: owner });
    expect(last.errors).toBeUndefined();
    expect(last.data?.repository.issues.nodes.map((i) => i.comments.nodes.map((c) => c.body))).toEqual([['3.4'], ['2.4'], ['1.4']]);
    const none = await gql<Issues>(t, issuesQuery('first: 0'), { headers: owner });
    expect(none.data?.repository.issues.nodes.map((i) => [i.comments.totalCount, i.comments.nodes.length])).toEqual([
      [4, 0],
      [4, 0],
      [4, 0],
    ]);
  });

  it('comments load only the columns their selected fields read, and answer every listed field as a whole row does', async () => {
    const fields = Object.keys(COMMENT_FIELD_COLUMNS)
      .map((f) => (f === 'author' ? 'author { login }' : f))
      .join(' ');
    type Comment = Record<string, unknown> & { id: string };
    const list = async (selection: string, fragments = '') => {
      t.queries.length = 0;
      const res = await gql<{ repository: { issues: { nodes: { comments: { nodes: Comment[] } }[] } } }>(
        t,
        `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { comments(first: 10) { nodes { ${selection} } } } } } } ${fragments}`,
        { headers: owner },
      );
      expect(res.errors).toBeUndefined();
      const sql = t.queries.find((q) => /FROM "Comment"/.test(q));
      expect(sql).toBeDefined();
      return { comments: res.data?.repository.issues.nodes.flatMap((i) => i.comments.nodes) ?? [], sql: sql! };
    };
    // An edited comment, so lastEditedAt has a value to get right.
    const edited = (await list('databaseId body')).comments.find((c) => c.body === '2.2');
    const patch = { headers: owner, body: { body: '2.2 (edited)' } };
    expect((await t.request('PATCH', `/api/v1/repos/owner/hot/issues/comments/${String(edited?.databaseId)}`, patch)).statusCode).toBe(200);
    const pruned = await list(fields);
    expect(pruned.comments.filter((c) => c.lastEditedAt !== null).map((c) => c.body)).toEqual(['2.2 (edited)']);
    expect(pruned.sql).not.toMatch(/c\.\*/);
    expect(pruned.sql).toMatch(/c\."content"/);
    // The comments' type is the one asked for: set on the rows (timeline items resolve their type from it), not read.
    expect(pruned.sql.split(' FROM ')[0]).not.toMatch(/"type"/);
    expect(pruned.comments.length).toBeGreaterThanOrEqual(12);
    // The same fields of the same comments through node(id:), which Prisma loads whole.
    const ids = pruned.comments.map((c) => c.id);
    const whole = await gql<{ nodes: Comment[] }>(t, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on IssueComment { ${fields} } } }`, {
      headers: owner,
      variables: { ids },
    });
    expect(whole.errors).toBeUndefined();
    expect(pruned.comments).toEqual(whole.data?.nodes);
    // A field the list does not know (reactionGroups) loads the comments whole; a fragment counts too.
    expect((await list('id reactionGroups { content }')).sql).toMatch(/c\.\*/);
    expect((await list('id ... on TimelineItem { createdAt } ... on Node { id }')).sql).not.toMatch(/c\.\*/);
    expect((await list('id ...F', 'fragment F on IssueComment { reactionGroups { content } }')).sql).toMatch(/c\.\*/);
    expect((await list('id ...F', 'fragment F on IssueTimelineItems { ... on IssueComment { body } }')).sql).not.toMatch(/c\.\*/);
  });

  it.each([
    ['labels', 'Label', 'IssueLabel', LABEL_FIELD_COLUMNS, 'color', 'numIssues'],
    ['assignees', 'User', 'IssueAssignee', USER_FIELD_COLUMNS, 'fullName', 'passwordHash'],
  ] as const)(
    '%s load only the columns their selected fields read, and answer every listed field as a whole row does',
    async (field, type, link, listed, read, unread) => {
      const fields = Object.keys(listed).join(' ');
      type Node = Record<string, unknown> & { id: string };
      const list = async (selection: string) => {
        t.queries.length = 0;
        const res = await gql<{ repository: { issues: { nodes: Record<string, { nodes: Node[] }>[] } } }>(
          t,
          `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { ${field}(first: 10) { nodes { ${selection} } } } } } }`,
          { headers: owner },
        );
        expect(res.errors).toBeUndefined();
        const sql = t.queries.find((q) => q.includes(`FROM "${link}"`) && q.includes('"linkIssueId"'));
        expect(sql).toBeDefined();
        return { nodes: res.data?.repository.issues.nodes.flatMap((i) => i[field]!.nodes) ?? [], sql: sql! };
      };
      const pruned = await list(fields);
      expect(pruned.nodes.length).toBeGreaterThanOrEqual(3);
      expect(pruned.sql).toContain(`t."${read}"`);
      expect(pruned.sql).not.toContain(`t."${unread}"`);
      // The same fields of the same rows through nodes(ids:), which Prisma loads whole.
      const whole = await gql<{ nodes: Node[] }>(t, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on ${type} { ${fields} } } }`, {
        headers: owner,
        variables: { ids: pruned.nodes.map((n) => n.id) },
      });
      expect(whole.errors).toBeUndefined();
      expect(pruned.nodes).toEqual(whole.data?.nodes);
      // A field the list does not know (a private one, which depends on the viewer) loads the rows whole.
      if (type === 'User') expect((await list('id email')).sql).toContain(`t."${unread}"`);
    },
  );

  it('the issue page loads only the columns its selected fields read, and answers every listed field as a whole row does', async () => {
    const SUBSELECTIONS: Record<string, string> = {
      author: 'author { login }',
      labels: 'labels(first: 5) { totalCount nodes { name } }',
      assignees: 'assignees(first: 5) { totalCount nodes { login } }',
      comments: 'comments(first: 5) { nodes { body } }',
      reactionGroups: 'reactionGroups { content reactors { totalCount } }',
    };
    const fields = Object.keys(ISSUE_FIELD_COLUMNS)
      .map((f) => SUBSELECTIONS[f] ?? f)
      .join(' ');
    type Node = Record<string, unknown> & { id: string };
    const list = async (selection: string) => {
      t.queries.length = 0;
      const res = await gql<{ repository: { issues: { nodes: Node[] } } }>(
        t,
        `{ repository(owner: "owner", name: "hot") { issues(first: 10) { nodes { ${selection} } } } }`,
        { headers: owner },
      );
      expect(res.errors).toBeUndefined();
      const sql = t.queries.find((q) => /FROM "Issue" WHERE "repoId" = (\?|\$1)/.test(q));
      expect(sql).toBeDefined();
      return { nodes: res.data?.repository.issues.nodes ?? [], sql: sql! };
    };
    const narrow = await list('number title');
    expect(narrow.sql).toMatch(/^SELECT "id", "repoId", "index", "isPull", "posterId", "title" FROM "Issue"/);
    const pruned = await list(fields);
    expect(pruned.nodes).toHaveLength(3);
    expect(pruned.sql).toContain('"content"');
    expect(pruned.sql).not.toContain('"originalAuthor"');
    const whole = await gql<{ nodes: Node[] }>(t, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Issue { ${fields} } } }`, {
      headers: owner,
      variables: { ids: pruned.nodes.map((n) => n.id) },
    });
    expect(whole.errors).toBeUndefined();
    expect(pruned.nodes).toEqual(whole.data?.nodes);
  });

  it('a comment written after the first read shows at once (the read path sees every committed write)', async () => {
    const before = await gql<Issues>(t, issuesQuery('first: 10'), { headers: owner });
    expect(before.data?.repository.issues.nodes[2]?.comments.nodes).toHaveLength(4);
    const res = await t.request('POST', '/api/v1/repos/owner/hot/issues/1/comments', { headers: owner, body: { body: '1.5' } });
    expect(res.statusCode).toBe(201);
    const after = await gql<Issues>(t, issuesQuery('first: 10'), { headers: owner });
    expect(after.data?.repository.issues.nodes[2]?.comments.nodes.map((c) => c.body)).toEqual(['1.1', '1.2', '1.3', '1.4', '1.5']);
  });
});
