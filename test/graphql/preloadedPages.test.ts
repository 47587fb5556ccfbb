import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';

/**
 * The first pages of an issue's labels, assignees and comments that the issue list preloads are answered from the
 * preloaded rows directly (preload/preloadedPages.ts): the same connection as plugin-prisma's way gives — edges,
 * nodes, cursors, page info, counts — and cursors that page on. The plugin's way is taken by the same query with one
 * node field more that needs its mappings (a label's and a comment's `url`, an assignee's `followers`); the extra
 * field is dropped before comparing.
 */
describe.each(PROVIDERS)('preloaded pages answered directly (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    for (const login of ['ann', 'bob', 'cyd']) await t.createUser(login);
    const h = basic('owner');
    const post = async (url: string, body: unknown, status = 201) => {
      const res = await t.request('POST', url, { headers: h, body });
      expect(res.statusCode, res.body).toBe(status);
      return res.json() as { id: number };
    };
    await post('/api/v1/user/repos', { name: 'r' });
    for (const login of ['ann', 'bob', 'cyd']) {
      const res = await t.request('PUT', `/api/v1/repos/owner/r/collaborators/${login}`, { headers: h, body: { permission: 'write' } });
      expect(res.statusCode, res.body).toBe(204);
    }
    const labels: number[] = [];
    for (const name of ['bug', 'docs', 'ui', 'perf'])
      labels.push((await post('/api/v1/repos/owner/r/labels', { name, color: '#00aabb' })).id);
    // Issue 1: four labels, three assignees, five comments (pages of two cut them); 2: one of each; 3: none.
    await post('/api/v1/repos/owner/r/issues', { title: 'many', labels, assignees: ['ann', 'bob', 'cyd'] });
    await post('/api/v1/repos/owner/r/issues', { title: 'one', labels: [labels[1]], assignees: ['bob'] });
    await post('/api/v1/repos/owner/r/issues', { title: 'none' });
    for (let i = 1; i <= 5; i++) await post('/api/v1/repos/owner/r/issues/1/comments', { body: `c${i}` });
    await post('/api/v1/repos/owner/r/issues/2/comments', { body: 'only' });
  });
  afterAll(() => t.close());

  const pageInfo = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
  const query = (extra: { label: string; user: string; comment: string }, sizes = { labels: 2, assignees: 2, comments: 2 }) => `{
    repository(owner: "owner", name: "r") {
      issues(first: 10, orderBy: { field: CREATED_AT, direction: ASC }) { nodes {
        number
        labels(first: ${sizes.labels}) { totalCount ${pageInfo} edges { cursor node { name color ${extra.label} } } nodes { name } }
        assignees(first: ${sizes.assignees}) { totalCount ${pageInfo} edges { cursor node { login ${extra.user} } } nodes { login } }
        comments(first: ${sizes.comments}) { ${pageInfo} edges { cursor node { body author { login } ${extra.comment} } } nodes { body } }
      } }
    }
  }`;
  const direct = { label: '', user: '', comment: '' };
  const planned = { label: 'url', user: 'followers { totalCount }', comment: 'url' };

  /** The answer without the fields only the planned query asks for. */
  const withoutExtra = (data: unknown): unknown =>
    JSON.parse(JSON.stringify(data), (key, value: unknown) => (key === 'url' || key === 'followers' ? undefined : value));

  for (const sizes of [
    { labels: 2, assignees: 2, comments: 2 },
    { labels: 4, assignees: 3, comments: 5 },
    { labels: 0, assignees: 1, comments: 10 },
  ]) {
    it(`answers what plugin-prisma's way answers (${JSON.stringify(sizes)})`, async () => {
      const fast = await gql(t, query(direct, sizes), { headers: basic('ann') });
      const full = await gql(t, query(planned, sizes), { headers: basic('ann') });
      expect(fast.errors).toBeUndefined();
      expect(full.errors).toBeUndefined();
      expect(fast.data).toEqual(withoutExtra(full.data));
    });
  }

  it('counts, cuts and cursors: the first pages of issue 1, and the cursors page on', async () => {
    interface Page<N> {
      totalCount?: number;
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
      edges: { cursor: string; node: N }[];
    }
    interface Issue {
      number: number;
      labels: Page<{ name: string }>;
      assignees: Page<{ login: string }>;
      comments: Page<{ body: string; author: { login: string } }>;
    }
    const res = await gql<{ repository: { issues: { nodes: Issue[] } } }>(t, query(direct), { headers: basic('ann') });
    expect(res.errors).toBeUndefined();
    const [many, one, none] = res.data!.repository.issues.nodes;
    expect(many!.labels.totalCount).toBe(4);
    expect(many!.labels.edges.map((e) => e.node.name)).toEqual(['bug', 'docs']);
    expect(many!.labels.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(many!.labels.pageInfo.startCursor).toBe(many!.labels.edges[0]!.cursor);
    expect(many!.labels.pageInfo.endCursor).toBe(many!.labels.edges[1]!.cursor);
    expect(many!.assignees.totalCount).toBe(3);
    expect(many!.assignees.edges.map((e) => e.node.login)).toEqual(['ann', 'bob']);
    expect(many!.comments.edges.map((e) => e.node.body)).toEqual(['c1', 'c2']);
    expect(many!.comments.edges[0]!.node.author.login).toBe('owner');
    expect(one!.labels).toMatchObject({ totalCount: 1, pageInfo: { hasNextPage: false }, edges: [{ node: { name: 'docs' } }] });
    expect(one!.comments.pageInfo.hasNextPage).toBe(false);
    expect(none!.labels).toEqual({
      totalCount: 0,
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      edges: [],
      nodes: [],
    });

    // The cursors the direct answer formatted are the plugin's: they page on from where the page ended.
    const next = await gql<{ repository: { issue: Issue } }>(
      t,
      `query($l: String, $a: String, $c: String) { repository(owner: "owner", name: "r") { issue(number: 1) {
        labels(first: 5, after: $l) { edges { node { name } } }
        assignees(first: 5, after: $a) { edges { node { login } } }
        comments(first: 5, after: $c) { edges { node { body } } }
      } } }`,
      {
        headers: basic('ann'),
        variables: { l: many!.labels.pageInfo.endCursor, a: many!.assignees.pageInfo.endCursor, c: many!.comments.pageInfo.endCursor },
      },
    );
    expect(next.errors).toBeUndefined();
    const issue = next.data!.repository.issue;
    expect(issue.labels.edges.map((e) => e.node.name)).toEqual(['ui', 'perf']);
    expect(issue.assignees.edges.map((e) => e.node.login)).toEqual(['cyd']);
    expect(issue.comments.edges.map((e) => e.node.body)).toEqual(['c3', 'c4', 'c5']);
  });

  it('answers each alias its own page when one relation is asked for twice with different sizes', async () => {
    type Names = { nodes: { name: string }[]; pageInfo: { hasNextPage: boolean } };
    for (const [a, b] of [
      [1, 3],
      [3, 1],
    ] as const) {
      const res = await gql<{ repository: { issues: { nodes: { a: Names; b: Names; c: { totalCount: number } }[] } } }>(
        t,
        `{ repository(owner: "owner", name: "r") { issues(first: 1, orderBy: { field: CREATED_AT, direction: ASC }) { nodes {
          a: labels(first: ${a}) { nodes { name } pageInfo { hasNextPage } }
          b: labels(first: ${b}) { nodes { name } pageInfo { hasNextPage } }
          c: labels { totalCount }
        } } } }`,
        { headers: basic('ann') },
      );
      expect(res.errors).toBeUndefined();
      const [issue] = res.data!.repository.issues.nodes;
      const all = ['bug', 'docs', 'ui', 'perf'];
      expect(issue!.a).toEqual({ nodes: all.slice(0, a).map((name) => ({ name })), pageInfo: { hasNextPage: true } });
      expect(issue!.b).toEqual({ nodes: all.slice(0, b).map((name) => ({ name })), pageInfo: { hasNextPage: true } });
      expect(issue!.c.totalCount).toBe(4);
    }
  });

  it('without pageInfo in the operation, pages load no lookahead row and keep every node, both ways', async () => {
    // The preloaders then load each page without the row that tells hasNextPage (preloadedPages.ts pageToLoad).
    const noInfo = (extra: { label: string; comment: string }, sizes: { issues: number; labels: number; comments: number }) => `{
      repository(owner: "owner", name: "r") {
        issues(first: ${sizes.issues}, orderBy: { field: CREATED_AT, direction: ASC }) { nodes {
          number
          labels(first: ${sizes.labels}) { edges { cursor node { name ${extra.label} } } }
          comments(first: ${sizes.comments}) { nodes { body ${extra.comment} } }
        } }
      }
    }`;
    type Answer = {
      repository: {
        issues: {
          nodes: {
            number: number;
            labels: { edges: { cursor: string; node: { name: string } }[] };
            comments: { nodes: { body: string }[] };
          }[];
        };
      };
    };
    const comments = ['c1', 'c2', 'c3', 'c4', 'c5'];
    for (const sizes of [
      { issues: 2, labels: 2, comments: 2 },
      { issues: 3, labels: 4, comments: 5 },
      { issues: 1, labels: 1, comments: 4 },
    ]) {
      const fast = await gql<Answer>(t, noInfo({ label: '', comment: '' }, sizes), { headers: basic('ann') });
      const full = await gql<Answer>(t, noInfo({ label: 'url', comment: 'url' }, sizes), { headers: basic('ann') });
      expect(fast.errors).toBeUndefined();
      expect(full.errors).toBeUndefined();
      expect(fast.data).toEqual(withoutExtra(full.data));
      const issues = fast.data!.repository.issues.nodes;
      expect(issues.map((i) => i.number)).toEqual([1, 2, 3].slice(0, sizes.issues));
      expect(issues[0]!.labels.edges.map((e) => e.node.name)).toEqual(['bug', 'docs', 'ui', 'perf'].slice(0, sizes.labels));
      expect(issues[0]!.comments.nodes.map((c) => c.body)).toEqual(comments.slice(0, sizes.comments));
      // The cursors are the ones a page with pageInfo hands out: the next page starts after the last one.
      const after = issues[0]!.labels.edges.at(-1)!.cursor;
      const next = await gql<{ repository: { issue: { labels: { nodes: { name: string }[] } } } }>(
        t,
        `{ repository(owner: "owner", name: "r") { issue(number: 1) { labels(first: 10, after: "${after}") { nodes { name } } } } }`,
        { headers: basic('ann') },
      );
      expect(next.data?.repository.issue.labels.nodes.map((l) => l.name)).toEqual(['bug', 'docs', 'ui', 'perf'].slice(sizes.labels));
    }
    // pageInfo on one alias of a connection type keeps the lookahead for every page of that type in the operation.
    const mixed = await gql<{
      repository: { issues: { nodes: { a: { nodes: { body: string }[] }; b: { pageInfo: { hasNextPage: boolean } } }[] } };
    }>(
      t,
      `{ repository(owner: "owner", name: "r") { issues(first: 1, orderBy: { field: CREATED_AT, direction: ASC }) { nodes {
        a: comments(first: 3) { nodes { body } }
        b: comments(first: 3) { pageInfo { hasNextPage } }
      } } } }`,
      { headers: basic('ann') },
    );
    expect(mixed.errors).toBeUndefined();
    expect(mixed.data?.repository.issues.nodes[0]).toEqual({
      a: { nodes: comments.slice(0, 3).map((body) => ({ body })) },
      b: { pageInfo: { hasNextPage: true } },
    });
  });

  it('leaves other arguments to the planned way: an order, a cursor, last', async () => {
    const res = await gql<{
      repository: { issues: { nodes: { labels: { nodes: { name: string }[] }; comments: { nodes: { body: string }[] } }[] } };
    }>(
      t,
      `{ repository(owner: "owner", name: "r") { issues(first: 1, orderBy: { field: CREATED_AT, direction: ASC }) { nodes {
        labels(first: 3, orderBy: { field: NAME, direction: DESC }) { nodes { name } }
        comments(last: 2) { nodes { body } }
      } } } }`,
      { headers: basic('ann') },
    );
    expect(res.errors).toBeUndefined();
    const [issue] = res.data!.repository.issues.nodes;
    expect(issue!.labels.nodes.map((l) => l.name)).toEqual(['ui', 'perf', 'docs']);
    expect(issue!.comments.nodes.map((c) => c.body)).toEqual(['c4', 'c5']);
  });
});
