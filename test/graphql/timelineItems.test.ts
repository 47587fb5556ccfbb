import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

type Json = Record<string, unknown>;
interface Page {
  totalCount: number;
  pageInfo: { hasPreviousPage: boolean; hasNextPage: boolean; endCursor: string | null };
  nodes: Json[];
}

// GitHub's timeline shapes: unions, skip, label events without deleted labels, the pull request's own events.
describe.each(PROVIDERS)('GraphQL timelines as GitHub unions (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let issue: number;

  const rest = (method: string, user: string, path: string, body?: unknown) =>
    t.request(method, `/api/v1/repos/${path}`, { headers: basic(user), ...(body === undefined ? {} : { body }) });

  const NODE = `__typename
    ... on LabeledEvent { label { name } }
    ... on UnlabeledEvent { label { name } }
    ... on IssueComment { body }`;
  const PULL_NODE = `__typename
    ... on MergedEvent { actor { login } mergeRefName url pullRequest { number } }
    ... on HeadRefDeletedEvent { headRefName pullRequest { number } }`;

  async function issueTimeline(args: string, user = 'alice'): Promise<Page> {
    const res = await gql<{ repository: { issue: { timelineItems: Page } } }>(
      t,
      `{ repository(owner: "alice", name: "demo") { issue(number: ${issue}) { timelineItems(${args}) {
        totalCount pageInfo { hasPreviousPage hasNextPage endCursor } nodes { ${NODE} } } } } }`,
      { headers: basic(user) },
    );
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data!.repository.issue.timelineItems;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    await f.createRepo('alice', 'demo');
    const ids: number[] = [];
    for (const name of ['kept', 'doomed'])
      ids.push((await rest('POST', 'alice', 'alice/demo/labels', { name, color: 'ff0000' })).json().id);
    issue = (await rest('POST', 'alice', 'alice/demo/issues', { title: 'Labels', labels: ids })).json().number;
    for (const body of ['one', 'two', 'three']) await rest('POST', 'alice', `alice/demo/issues/${issue}/comments`, { body });
    expect((await rest('DELETE', 'alice', `alice/demo/issues/${issue}/labels/${ids[1]}`)).statusCode).toBe(204);
    expect((await rest('DELETE', 'alice', `alice/demo/issues/${issue}/labels/${ids[0]}`)).statusCode).toBe(204);
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('label events of a deleted label are not listed: the page and totalCount agree', async () => {
    const before = await issueTimeline('first: 20, itemTypes: [LABELED_EVENT, UNLABELED_EVENT]');
    expect(before.nodes.map((n) => `${String(n.__typename)}:${(n.label as Json).name as string}`)).toEqual([
      'LabeledEvent:kept',
      'LabeledEvent:doomed',
      'UnlabeledEvent:doomed',
      'UnlabeledEvent:kept',
    ]);
    expect(before.totalCount).toBe(4);
    const doomed = (await rest('GET', 'alice', 'alice/demo/labels')).json().find((l: Json) => l.name === 'doomed') as Json;
    expect((await rest('DELETE', 'alice', `alice/demo/labels/${doomed.id as number}`)).statusCode).toBe(204);
    const after = await issueTimeline('first: 20');
    expect(after.nodes.map((n) => n.__typename)).toEqual([
      'LabeledEvent',
      'IssueComment',
      'IssueComment',
      'IssueComment',
      'UnlabeledEvent',
    ]);
    expect(after.totalCount).toBe(5);
    expect(after.nodes[0]).toEqual({ __typename: 'LabeledEvent', label: { name: 'kept' } });
    expect((await issueTimeline('last: 1, itemTypes: [UNLABELED_EVENT]')).nodes).toEqual([
      { __typename: 'UnlabeledEvent', label: { name: 'kept' } },
    ]);
  });

  it('skip: passes over items from the page start (after a cursor too), within first/last limits', async () => {
    // The timeline now: LabeledEvent(kept), one, two, three, UnlabeledEvent(kept).
    const skipped = await issueTimeline('first: 2, skip: 1');
    expect(skipped.nodes).toEqual([
      { __typename: 'IssueComment', body: 'one' },
      { __typename: 'IssueComment', body: 'two' },
    ]);
    expect(skipped.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    expect(skipped.totalCount).toBe(5);
    const next = await issueTimeline(`first: 5, after: "${skipped.pageInfo.endCursor}", skip: 1`);
    expect(next.nodes.map((n) => n.__typename)).toEqual(['UnlabeledEvent']);
    expect(next.pageInfo.hasNextPage).toBe(false);
    expect((await issueTimeline('first: 5, skip: 0')).nodes).toHaveLength(5);
    expect((await issueTimeline('first: 5, skip: 9')).nodes).toEqual([]);
    expect((await issueTimeline('last: 2, skip: 1')).nodes.map((n) => n.body)).toEqual(['two', 'three']);
    for (const [skip, code] of [
      [-1, 'INVALID_ARGUMENT'],
      [101, 'EXCESSIVE_PAGINATION'],
    ] as const) {
      const res = await gql(
        t,
        `{ repository(owner: "alice", name: "demo") { issue(number: ${issue}) { timelineItems(first: 1, skip: ${skip}) { totalCount } } } }`,
        {
          headers: basic('alice'),
        },
      );
      expect(res.errors?.[0]).toMatchObject({ message: expect.stringContaining('`skip`'), extensions: { code } });
    }
  });

  it("PullRequest.timelineItems holds the pull request's merge and head branch deletion; itemTypes of GitHub's PR kinds", async () => {
    const n = await f.pushAndOpen('alice', 'demo', 'alice', 'topic', { 't.txt': 't\n' });
    const merged = await rest('POST', 'alice', `alice/demo/pulls/${n}/merge`, { Do: 'merge', delete_branch_after_merge: true });
    expect(merged.statusCode, merged.body).toBe(200);
    const q = (args: string) =>
      gql<{ repository: { pullRequest: { timelineItems: Page } } }>(
        t,
        `{ repository(owner: "alice", name: "demo") { pullRequest(number: ${n}) { timelineItems(${args}) {
          totalCount pageInfo { hasPreviousPage hasNextPage endCursor } nodes { ${PULL_NODE} } edges { node { __typename } } } } } }`,
        { headers: basic('alice') },
      );
    const all = await q('first: 20');
    expect(all.errors).toBeUndefined();
    const items = all.data!.repository.pullRequest.timelineItems;
    expect(items.nodes).toEqual([
      {
        __typename: 'MergedEvent',
        actor: { login: 'alice' },
        mergeRefName: 'main',
        url: expect.stringMatching(new RegExp(`/alice/demo/pulls/${n}#issuecomment-\\d+$`)),
        pullRequest: { number: n },
      },
      { __typename: 'HeadRefDeletedEvent', headRefName: 'topic', pullRequest: { number: n } },
    ]);
    expect(items.totalCount).toBe(2);
    const only = (await q('first: 20, itemTypes: [HEAD_REF_DELETED_EVENT, PULL_REQUEST_REVIEW]')).data!.repository.pullRequest
      .timelineItems;
    expect(only).toMatchObject({ totalCount: 1, nodes: [{ __typename: 'HeadRefDeletedEvent' }] });
    expect((await q('first: 1, skip: 1')).data!.repository.pullRequest.timelineItems.nodes).toEqual([
      expect.objectContaining({ __typename: 'HeadRefDeletedEvent' }),
    ]);
    // Its issue's timeline (IssueTimelineItems) has no pull request events.
    const asIssue = await gql<{ repository: { pullRequest: { issue: { timelineItems: { totalCount: number } } } } }>(
      t,
      `{ repository(owner: "alice", name: "demo") { pullRequest(number: ${n}) { issue { timelineItems(first: 5) { totalCount } } } } }`,
      { headers: basic('alice') },
    );
    expect(asIssue.errors).toBeUndefined();
    expect(asIssue.data?.repository.pullRequest.issue.timelineItems.totalCount).toBe(0);
  });
});
