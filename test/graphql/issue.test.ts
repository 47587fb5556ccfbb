import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../helpers/db.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { gql, mutationError } from '../helpers/graphql.ts';

interface IssueNode {
  id: string;
  number: number;
  title: string;
  state: string;
  author: { login: string } | null;
  labels: { totalCount: number; nodes: { name: string }[] };
  assignees: { nodes: { login: string }[] };
}

describe.each(PROVIDERS)('GraphQL issues (%s)', (provider) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('owner');
    await t.createUser('reader');
    await t.createUser('stranger');
    expect((await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name: 'pub' } })).statusCode).toBe(201);
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name: 'priv', private: true } })).statusCode,
    ).toBe(201);
    await t.request('PUT', '/api/v1/repos/owner/priv/collaborators/reader', { headers: basic('owner'), body: { permission: 'read' } });
  });
  afterAll(() => t.close());

  it('createIssue → repository.issue(number:) → closeIssue/reopenIssue, through the REST services', async () => {
    const label = (
      await t.request('POST', '/api/v1/repos/owner/pub/labels', { headers: basic('owner'), body: { name: 'bug', color: 'ff0000' } })
    ).json() as { id: number };
    const created = await gql<{ createIssue: { issue: IssueNode } | null }>(
      t,
      `mutation { createIssue(input: { repositoryOwner: "owner", repositoryName: "pub", title: "Crash", body: "boom", labelIds: [${label.id}], assigneeLogins: ["owner"] }) { issue { id number title state author { login } labels(first: 5) { totalCount nodes { name } } assignees(first: 5) { nodes { login } } } } }`,
      { headers: basic('owner') },
    );
    expect(mutationError(created, 'createIssue')).toBeNull();
    const issue = created.data?.createIssue?.issue;
    expect(issue).toMatchObject({
      number: 1,
      title: 'Crash',
      state: 'OPEN',
      author: { login: 'owner' },
      labels: { totalCount: 1, nodes: [{ name: 'bug' }] },
      assignees: { nodes: [{ login: 'owner' }] },
    });
    expect((await t.request('GET', '/api/v1/repos/owner/pub/issues/1')).json().title).toBe('Crash');

    const closed = await gql<{ closeIssue: { issue: { state: string } } | null }>(
      t,
      `mutation { closeIssue(input: { issueId: "${issue?.id}" }) { issue { state } } }`,
      { headers: basic('owner') },
    );
    expect(mutationError(closed, 'closeIssue')).toBeNull();
    expect(closed.data?.closeIssue?.issue.state).toBe('CLOSED');
    expect((await t.request('GET', '/api/v1/repos/owner/pub')).json().open_issues_count).toBe(0);
    const denied = await gql<{ reopenIssue: { issue: { state: string } } | null }>(
      t,
      `mutation { reopenIssue(input: { issueId: "${issue?.id}" }) { issue { state } } }`,
      { headers: basic('stranger') },
    );
    expect(mutationError(denied, 'reopenIssue')?.code).toBe('PERMISSION_DENIED');
    const reopened = await gql<{ reopenIssue: { issue: { state: string } } | null }>(
      t,
      `mutation { reopenIssue(input: { issueId: "${issue?.id}" }) { issue { state } } }`,
      { headers: basic('owner') },
    );
    expect(mutationError(reopened, 'reopenIssue')).toBeNull();
    expect(reopened.data?.reopenIssue?.issue.state).toBe('OPEN');

    const byNumber = await gql<{ repository: { issue: { title: string } | null; issues: { totalCount: number } } }>(
      t,
      '{ repository(owner: "owner", name: "pub") { issue(number: 1) { title } issues(first: 5, states: [OPEN]) { totalCount } } }',
      { headers: basic('stranger') },
    );
    expect(byNumber.data?.repository).toEqual({ issue: { title: 'Crash' }, issues: { totalCount: 1 } });
  });

  it("a private repository's issues are absent for strangers, present for readers (node(id:) included)", async () => {
    const res = await t.request('POST', '/api/v1/repos/owner/priv/issues', { headers: basic('owner'), body: { title: 'secret' } });
    expect(res.statusCode).toBe(201);
    const asOwner = await gql<{ repository: { issue: { id: string } } }>(
      t,
      '{ repository(owner: "owner", name: "priv") { issue(number: 1) { id } } }',
      { headers: basic('owner') },
    );
    const id = asOwner.data?.repository.issue.id;
    const stranger = await gql<{ node: { title: string } | null }>(t, `{ node(id: "${id}") { ... on Issue { title } } }`, {
      headers: basic('stranger'),
    });
    expect(stranger.data?.node).toBeNull();
    const reader = await gql<{ node: { title: string } | null }>(t, `{ node(id: "${id}") { ... on Issue { title } } }`, {
      headers: basic('reader'),
    });
    expect(reader.data?.node).toEqual({ title: 'secret' });
  });

  it('repository { issues(first: 50) { author labels assignees comments(first: 10) { author } reactionGroups } } is constant as issues, labels and comments grow', async () => {
    expect((await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name: 'busy' } })).statusCode).toBe(201);
    await t.request('PUT', '/api/v1/repos/owner/busy/collaborators/reader', { headers: basic('owner'), body: { permission: 'write' } });
    const newLabels = async (names: string[]) =>
      Promise.all(
        names.map(
          async (n) =>
            (
              (
                await t.request('POST', '/api/v1/repos/owner/busy/labels', { headers: basic('owner'), body: { name: n, color: '00ff00' } })
              ).json() as { id: number }
            ).id,
        ),
      );
    let issues = 0;
    const add = async (n: number, labels: number[], comments: number) => {
      for (let i = 0; i < n; i++) {
        const r = await t.request('POST', '/api/v1/repos/owner/busy/issues', {
          headers: basic('owner'),
          body: { title: `i${i}`, labels, assignees: ['owner', 'reader'] },
        });
        expect(r.statusCode).toBe(201);
        const number = ++issues;
        for (let c = 0; c < comments; c++) {
          const who = c % 2 ? 'reader' : 'owner';
          expect(
            (
              await t.request('POST', `/api/v1/repos/owner/busy/issues/${number}/comments`, {
                headers: basic(who),
                body: { body: `c${c}` },
              })
            ).statusCode,
          ).toBe(201);
        }
        for (const [who, content] of [
          ['owner', '+1'],
          ['reader', 'heart'],
        ] as const) {
          expect(
            (await t.request('POST', `/api/v1/repos/owner/busy/issues/${number}/reactions`, { headers: basic(who), body: { content } }))
              .statusCode,
          ).toBe(201);
        }
      }
    };
    const q = `{ repository(owner: "owner", name: "busy") { issues(first: 50) { totalCount nodes { number author { login }
      labels(first: 10) { nodes { name } } assignees(first: 10) { nodes { login } }
      comments(first: 10) { totalCount nodes { body author { login } } }
      reactionGroups { content viewerHasReacted reactors(first: 5) { totalCount nodes { ... on User { login } } } } } } } }`;
    type Shape = {
      repository: {
        issues: {
          totalCount: number;
          nodes: {
            comments: { totalCount: number; nodes: { author: { login: string } | null }[] };
            reactionGroups: { content: string; reactors: { totalCount: number } }[];
          }[];
        };
      };
    };
    const measure = async () => {
      await t.app.deps.notifier.drain(); // activity and mention rows for the new issues are written in the background
      t.queries.length = 0;
      const res = await gql<Shape>(t, q, { headers: basic('reader') });
      expect(res.errors).toBeUndefined();
      return { statements: t.queries.length, data: res.data?.repository.issues };
    };
    await add(2, await newLabels(['a', 'b']), 2);
    await measure(); // warm-up: the PostgreSQL driver looks up type information once per connection
    const small = await measure();
    await add(18, await newLabels(['c', 'd', 'e', 'f']), 6);
    const large = await measure();
    expect(small.data?.totalCount).toBe(2);
    expect(large.data?.totalCount).toBe(20);
    const newest = large.data?.nodes[0];
    expect(newest?.comments.totalCount).toBe(6);
    expect(newest?.comments.nodes.map((c) => c.author?.login)).toEqual(['owner', 'reader', 'owner', 'reader', 'owner', 'reader']);
    expect(
      newest?.reactionGroups
        .filter((g) => g.reactors.totalCount > 0)
        .map((g) => g.content)
        .sort(),
    ).toEqual(['HEART', 'THUMBS_UP']);
    console.log(
      `[${provider}] issues → author, labels, assignees, comments → author, reactionGroups: ${small.statements} statements for 2 issues, ${large.statements} for 20`,
    );
    expect(large.statements).toBe(small.statements);
  });
});
