import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';

interface IssueNode {
  number: number;
  state: string;
  commentCount: number;
  labels: { totalCount: number };
  assignees: { totalCount: number };
}
interface Issues {
  repository: { name: string; issues: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: IssueNode[] } } | null;
}

/** Prisma's own SQL names tables with their schema (`main`.`Issue` on SQLite, "public"."Issue" on PostgreSQL). */
const prismaTable = (table: string) => new RegExp(`(\`main\`\\.\`${table}\`|"public"\\."${table}")`);

/**
 * Repository.issues on the read path (src/graphql/preload/repositoryIssues.ts): a first page of the list, open,
 * closed or all, in every order, answers exactly as the Prisma query it replaces (forced here with a filter the
 * preloader leaves to Prisma), under the same read policy, with label and assignee counts per issue.
 */
describe.each(PROVIDERS)('GraphQL issue list on the read path (%s)', (provider) => {
  let t: TestApp;
  const owner = basic('owner');

  const list = (args: string, repo = 'list') => `{ repository(owner: "owner", name: "${repo}") { name issues(${args}) {
    pageInfo { hasNextPage endCursor } nodes { number state commentCount labels { totalCount } assignees { totalCount } } } } }`;
  // Every issue was updated after 1970: the same rows, but a filter only Prisma's query carries.
  const SINCE = 'since: "1970-01-01T00:00:00Z"';
  const PRISMA = `filterBy: { ${SINCE} }`;

  async function run(args: string, headers: Record<string, string> = owner, repo = 'list') {
    t.queries.length = 0;
    const res = await gql<Issues>(t, list(args, repo), { headers });
    expect(res.errors).toBeUndefined();
    return { data: res.data?.repository ?? null, prismaIssueQueries: t.queries.filter((q) => prismaTable('Issue').test(q)) };
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    await t.createUser('other');
    for (const name of ['list', 'empty']) {
      expect((await t.request('POST', '/api/v1/user/repos', { headers: owner, body: { name } })).statusCode).toBe(201);
    }
    const label = await t.request('POST', '/api/v1/repos/owner/list/labels', { headers: owner, body: { name: 'bug', color: 'ff0000' } });
    const labelId = (label.json() as { id: number }).id;
    for (let n = 1; n <= 6; n++) {
      const body = { title: `issue ${n}`, labels: n % 2 ? [labelId] : [], assignees: n % 3 === 0 ? ['owner'] : [] };
      expect((await t.request('POST', '/api/v1/repos/owner/list/issues', { headers: owner, body })).statusCode).toBe(201);
      // Comment counts that do not follow the numbers, for the COMMENTS order.
      for (let c = 0; c < (n * 5) % 4; c++) {
        await t.request('POST', `/api/v1/repos/owner/list/issues/${n}/comments`, { headers: owner, body: { body: `c${c}` } });
      }
    }
    for (const n of [2, 5]) {
      await t.request('PATCH', `/api/v1/repos/owner/list/issues/${n}`, { headers: owner, body: { state: 'closed' } });
    }
    // Touch issue 1 last: UPDATED_AT puts it first.
    await t.request('PATCH', '/api/v1/repos/owner/list/issues/1', { headers: owner, body: { title: 'issue 1 again' } });
    await t.app.jobs.drain();
  });
  afterAll(() => t.close());

  it('a first page needs no Prisma statement, and answers as the Prisma query for every state and order', async () => {
    const variants = [
      'first: 10',
      'first: 3',
      'first: 10, states: [OPEN]',
      'first: 10, states: [CLOSED]',
      'first: 10, states: [OPEN, CLOSED]',
      'first: 10, states: [OPEN], filterBy: { states: [CLOSED] }',
      'first: 10, orderBy: { field: UPDATED_AT, direction: DESC }',
      'first: 4, orderBy: { field: CREATED_AT, direction: ASC }',
      'first: 10, orderBy: { field: COMMENTS, direction: DESC }',
      'first: 10, orderBy: { field: COMMENTS, direction: ASC }, states: [OPEN]',
    ];
    for (const args of variants) {
      const fast = await run(args);
      const slow = await run(args.includes('filterBy: {') ? args.replace('filterBy: {', `filterBy: { ${SINCE},`) : `${args}, ${PRISMA}`);
      expect(fast.prismaIssueQueries, args).toEqual([]);
      expect(slow.prismaIssueQueries.length, args).toBeGreaterThan(0);
      expect(fast.data, args).toEqual(slow.data);
    }
    const all = await run('first: 10');
    expect(all.data?.issues.nodes.map((i) => i.number)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(all.data?.issues.nodes.map((i) => [i.labels.totalCount, i.assignees.totalCount])).toEqual([
      [0, 1],
      [1, 0],
      [0, 0],
      [1, 1],
      [0, 0],
      [1, 0],
    ]);
    expect((await run('first: 10, states: [CLOSED]')).data?.issues.nodes.map((i) => i.number)).toEqual([5, 2]);
    expect((await run('first: 10, orderBy: { field: UPDATED_AT, direction: DESC }')).data?.issues.nodes[0]?.number).toBe(1);
    const page = await run('first: 3');
    expect(page.data?.issues.pageInfo.hasNextPage).toBe(true);
  });

  it('the page after a cursor (left to Prisma) continues where the read-path page ended', async () => {
    const first = await run('first: 4, orderBy: { field: COMMENTS, direction: DESC }');
    const next = await run(`first: 4, orderBy: { field: COMMENTS, direction: DESC }, after: "${first.data?.issues.pageInfo.endCursor}"`);
    const whole = await run('first: 10, orderBy: { field: COMMENTS, direction: DESC }');
    expect([...(first.data?.issues.nodes ?? []), ...(next.data?.issues.nodes ?? [])]).toEqual(whole.data?.issues.nodes);
    expect(next.data?.issues.pageInfo.hasNextPage).toBe(false);
  });

  it('no pull requests, no issues of other repositories, and no statement per issue', async () => {
    const empty = await run('first: 10', owner, 'empty');
    expect(empty.data?.issues.nodes).toEqual([]);
    const few = t.queries.length;
    await run('first: 1');
    const one = t.queries.length;
    await run('first: 6');
    expect(t.queries.length).toBe(one);
    expect(few).toBeLessThanOrEqual(one);
    // Counts come from an indexed count per issue, never a whole-table aggregate.
    expect(t.queries.filter((q) => /GROUP BY/i.test(q))).toEqual([]);
  });

  it('the read policy: a disabled issues unit lists nothing, a private repository is null to others', async () => {
    expect((await run('first: 10', basic('other'))).data?.issues.nodes).toHaveLength(6);
    expect((await t.request('PATCH', '/api/v1/repos/owner/list', { headers: owner, body: { has_issues: false } })).statusCode).toBe(200);
    try {
      for (const args of ['first: 10', `first: 10, ${PRISMA}`]) {
        expect((await run(args, owner)).data?.issues.nodes, args).toEqual([]);
        expect((await run(args, basic('other'))).data?.issues.nodes, args).toEqual([]);
      }
    } finally {
      await t.request('PATCH', '/api/v1/repos/owner/list', { headers: owner, body: { has_issues: true } });
    }
    await t.request('PATCH', '/api/v1/repos/owner/list', { headers: owner, body: { private: true } });
    try {
      expect((await run('first: 10', basic('other'))).data).toBeNull();
      expect((await run('first: 10', {})).data).toBeNull();
      expect((await run('first: 10', owner)).data?.issues.nodes).toHaveLength(6);
    } finally {
      await t.request('PATCH', '/api/v1/repos/owner/list', { headers: owner, body: { private: false } });
    }
  });

  it('a repository asked for scalars only needs no Prisma statement; asked for more, Prisma still answers', async () => {
    t.queries.length = 0;
    const res = await gql<{ repository: { name: string } }>(t, '{ repository(owner: "owner", name: "list") { name } }', { headers: owner });
    expect(res.data?.repository.name).toBe('list');
    expect(t.queries.filter((q) => prismaTable('Repository').test(q))).toEqual([]);
    const counted = await gql<{ repository: { issues: { totalCount: number } } }>(
      t,
      '{ repository(owner: "owner", name: "list") { issues(first: 1) { totalCount } } }',
      { headers: owner },
    );
    expect(counted.errors).toBeUndefined();
    expect(counted.data?.repository.issues.totalCount).toBe(6);
  });
});
