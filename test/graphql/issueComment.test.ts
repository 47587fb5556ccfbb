import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';

interface CommentNode {
  id: string;
  databaseId: number;
  body: string;
  author: { login: string } | null;
  url: string;
  lastEditedAt: string | null;
  viewerCanUpdate: boolean;
  viewerCanDelete: boolean;
  viewerDidAuthor: boolean;
  isMinimized: boolean;
}
type Payload<K extends string, T> = Record<K, (T & { __typename: string }) | null>;

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));
const COMMENT_FIELDS = 'id databaseId body author { login } url lastEditedAt viewerCanUpdate viewerCanDelete viewerDidAuthor isMinimized';

describe.each(PROVIDERS)('GraphQL issue comments and timeline (%s)', (provider) => {
  let t: TestApp;
  const repos: Record<string, Models.Repository> = {};

  const rest = (method: string, viewer: string, path: string, body?: unknown) =>
    t.request(method, `/api/v1/repos/${path}`, { headers: as(viewer), ...(body === undefined ? {} : { body }) });
  async function issueId(viewer: string, repo: string, n: number): Promise<string> {
    const [owner, name] = repo.split('/');
    const res = await gql<{ repository: { issue: { id: string } } }>(
      t,
      `{ repository(owner: "${owner}", name: "${name}") { issue(number: ${n}) { id } } }`,
      { headers: as(viewer) },
    );
    return res.data?.repository.issue.id ?? '';
  }
  const comments = (viewer: string, repo: string, n: number, args = 'first: 10') => {
    const [owner, name] = repo.split('/');
    return gql<{
      repository: {
        issue: {
          commentCount: number;
          comments: { totalCount: number; nodes: CommentNode[]; pageInfo: { endCursor: string; hasNextPage: boolean } };
        } | null;
      } | null;
    }>(
      t,
      `{ repository(owner: "${owner}", name: "${name}") { issue(number: ${n}) { commentCount comments(${args}) { totalCount pageInfo { endCursor hasNextPage } nodes { ${COMMENT_FIELDS} } } } } }`,
      { headers: as(viewer) },
    );
  };
  const addComment = (viewer: string, subjectId: string, body: string) =>
    gql<Payload<'addComment', { commentEdge: { cursor: string; node: CommentNode }; subject: { commentCount: number } }>>(
      t,
      `mutation($id: ID!, $body: String!) { addComment(input: { subjectId: $id, body: $body }) { __typename commentEdge { cursor node { ${COMMENT_FIELDS} } } subject { ... on Issue { commentCount } } } }`,
      { headers: as(viewer), variables: { id: subjectId, body } },
    );

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['owner', 'reader', 'writer', 'stranger']) await t.createUser(n);
    for (const [name, isPrivate] of [
      ['pub', false],
      ['priv', true],
      ['busy', false],
    ] as const) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('owner'), body: { name, private: isPrivate } });
      expect(res.statusCode).toBe(201);
      repos[name] = await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
      await t.request('PUT', `/api/v1/repos/owner/${name}/collaborators/reader`, { headers: basic('owner'), body: { permission: 'read' } });
      await t.request('PUT', `/api/v1/repos/owner/${name}/collaborators/writer`, {
        headers: basic('owner'),
        body: { permission: 'write' },
      });
    }
  });
  afterAll(() => t.close());

  it('Issue.comments: plain comments oldest first, totalCount, paging, url and viewer permissions per role', async () => {
    const n = (await rest('POST', 'owner', 'owner/pub/issues', { title: 'talk' })).json().number as number;
    await rest('POST', 'reader', `owner/pub/issues/${n}/comments`, { body: 'first' });
    await rest('PATCH', 'owner', `owner/pub/issues/${n}`, { state: 'closed' });
    await rest('POST', 'writer', `owner/pub/issues/${n}/comments`, { body: 'second' });
    await rest('POST', 'stranger', `owner/pub/issues/${n}/comments`, { body: 'third' });
    const asReader = await comments('reader', 'owner/pub', n);
    expect(asReader.errors).toBeUndefined();
    const issue = asReader.data?.repository?.issue;
    expect(issue?.commentCount).toBe(3);
    expect(issue?.comments.totalCount).toBe(3);
    expect(issue?.comments.nodes.map((c) => [c.body, c.author?.login, c.viewerCanUpdate, c.viewerCanDelete, c.viewerDidAuthor])).toEqual([
      ['first', 'reader', true, true, true],
      ['second', 'writer', false, false, false],
      ['third', 'stranger', false, false, false],
    ]);
    const first = issue?.comments.nodes[0];
    expect(first).toMatchObject({
      lastEditedAt: null,
      isMinimized: false,
      url: `http://localhost:3000/owner/pub/issues/${n}#issuecomment-${first?.databaseId}`,
    });
    const asWriter = await comments('writer', 'owner/pub', n);
    expect(asWriter.data?.repository?.issue?.comments.nodes.map((c) => c.viewerCanUpdate)).toEqual([true, true, true]);
    const anon = await comments('anon', 'owner/pub', n);
    expect(anon.data?.repository?.issue?.comments.nodes.map((c) => [c.viewerCanUpdate, c.viewerCanDelete])).toEqual([
      [false, false],
      [false, false],
      [false, false],
    ]);
    const page = await comments('owner', 'owner/pub', n, 'first: 2');
    expect(page.data?.repository?.issue?.comments.pageInfo.hasNextPage).toBe(true);
    const next = await comments('owner', 'owner/pub', n, `first: 2, after: "${page.data?.repository?.issue?.comments.pageInfo.endCursor}"`);
    expect(next.data?.repository?.issue?.comments.nodes.map((c) => c.body)).toEqual(['third']);
    await rest('PATCH', 'reader', `owner/pub/issues/comments/${first?.databaseId}`, { body: 'first, edited' });
    const edited = await comments('reader', 'owner/pub', n);
    expect(edited.data?.repository?.issue?.comments.nodes[0]).toMatchObject({ body: 'first, edited', lastEditedAt: expect.any(String) });
  });

  it('node(id:) hides comments of private repositories from strangers', async () => {
    const n = (await rest('POST', 'owner', 'owner/priv/issues', { title: 'secret' })).json().number as number;
    const c = (await rest('POST', 'owner', `owner/priv/issues/${n}/comments`, { body: 'hush' })).json();
    const id = (await comments('owner', 'owner/priv', n)).data?.repository?.issue?.comments.nodes[0]?.id;
    expect(id).toBeTruthy();
    const q = `{ node(id: "${id}") { ... on IssueComment { databaseId body } } }`;
    expect((await gql<{ node: unknown }>(t, q, { headers: basic('stranger') })).data?.node).toBeNull();
    expect((await gql<{ node: unknown }>(t, q)).data?.node).toBeNull();
    expect((await gql<{ node: unknown }>(t, q, { headers: basic('reader') })).data?.node).toEqual({ databaseId: c.id, body: 'hush' });
    expect((await comments('stranger', 'owner/priv', n)).data?.repository).toBeNull();
  });

  it('addComment / updateIssueComment / deleteIssueComment call the REST services, with typed errors', async () => {
    const n = (await rest('POST', 'owner', 'owner/pub/issues', { title: 'mutate' })).json().number as number;
    const subject = await issueId('owner', 'owner/pub', n);
    const added = await addComment('reader', subject, 'via graphql');
    expect(added.errors).toBeUndefined();
    expect(added.data?.addComment).toMatchObject({
      __typename: 'AddCommentPayload',
      commentEdge: { node: { body: 'via graphql', author: { login: 'reader' } } },
      subject: { commentCount: 1 },
    });
    const commentId = added.data?.addComment?.commentEdge.node.id ?? '';
    const after = await comments('owner', 'owner/pub', n, `first: 5, after: "${added.data?.addComment?.commentEdge.cursor}"`);
    expect(after.data?.repository?.issue?.comments.nodes).toEqual([]);

    expect(mutationError(await addComment('anon', subject, 'x'), 'addComment')?.code).toBe('UNAUTHENTICATED');
    expect(mutationError(await addComment('reader', subject, ''), 'addComment')?.code).toBe('VALIDATION');
    expect(mutationError(await addComment('reader', commentId, 'not an issue id'), 'addComment')?.code).toBe('NOT_FOUND');
    const privN = (await rest('POST', 'owner', 'owner/priv/issues', { title: 'p' })).json().number as number;
    const privSubject = await issueId('owner', 'owner/priv', privN);
    expect(mutationError(await addComment('stranger', privSubject, 'x'), 'addComment')?.code).toBe('NOT_FOUND');
    await t.db.issue.update({ where: { repoId_index: { repoId: repos.pub!.id, index: n } }, data: { isLocked: true } });
    expect(mutationError(await addComment('stranger', subject, 'x'), 'addComment')).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'You cannot comment on a locked issue.',
    });
    await t.db.issue.update({ where: { repoId_index: { repoId: repos.pub!.id, index: n } }, data: { isLocked: false } });

    const update = (viewer: string, id: string, body: string) =>
      gql<Payload<'updateIssueComment', { issueComment: { body: string } | null }>>(
        t,
        `mutation($id: ID!, $body: String!) { updateIssueComment(input: { id: $id, body: $body }) { __typename issueComment { body } } }`,
        { headers: as(viewer), variables: { id, body } },
      );
    expect(mutationError(await update('stranger', commentId, 'hijack'), 'updateIssueComment')?.code).toBe('PERMISSION_DENIED');
    expect(mutationError(await update('reader', subject, 'wrong type'), 'updateIssueComment')?.code).toBe('NOT_FOUND');
    expect((await update('reader', commentId, 'edited')).data?.updateIssueComment?.issueComment).toEqual({ body: 'edited' });
    expect((await update('writer', commentId, 'moderated')).data?.updateIssueComment?.issueComment).toEqual({ body: 'moderated' });

    const del = (viewer: string, id: string) =>
      gql<Payload<'deleteIssueComment', { issue: { commentCount: number } }>>(
        t,
        `mutation($id: ID!) { deleteIssueComment(input: { id: $id }) { __typename issue { commentCount } } }`,
        { headers: as(viewer), variables: { id } },
      );
    expect(mutationError(await del('stranger', commentId), 'deleteIssueComment')?.code).toBe('PERMISSION_DENIED');
    expect((await del('reader', commentId)).data?.deleteIssueComment?.issue).toEqual({ commentCount: 0 });
    expect(mutationError(await del('reader', commentId), 'deleteIssueComment')?.code).toBe('NOT_FOUND');
  });

  it('Issue.timelineItems: GitHub event types over the comment rows, itemTypes filter, totalCount, event nodes', async () => {
    const label = (await rest('POST', 'owner', 'owner/priv/labels', { name: 'bug', color: 'ff0000' })).json() as { id: number };
    const n = (await rest('POST', 'owner', 'owner/priv/issues', { title: 'Old', labels: [label.id], assignees: ['writer'] })).json()
      .number as number;
    await rest('PATCH', 'owner', `owner/priv/issues/${n}`, { title: 'New', state: 'closed' });
    await rest('POST', 'reader', `owner/priv/issues/${n}/comments`, { body: 'why closed?' });
    await rest('PATCH', 'owner', `owner/priv/issues/${n}`, { state: 'open', assignees: [] });
    const query = (
      args: string,
    ) => `{ repository(owner: "owner", name: "priv") { issue(number: ${n}) { timelineItems(${args}) { totalCount nodes {
      __typename
      ... on IssueComment { body }
      ... on LabeledEvent { id actor { login } label { name } labelable { ... on Issue { title } } }
      ... on AssignedEvent { assignee { ... on User { login } } }
      ... on UnassignedEvent { assignee { ... on User { login } } }
      ... on RenamedTitleEvent { previousTitle currentTitle }
      ... on ClosedEvent { actor { login } createdAt closable { ... on Issue { number } } }
      ... on ReopenedEvent { actor { login } }
    } } } } }`;
    type Timeline = { repository: { issue: { timelineItems: { totalCount: number; nodes: Record<string, unknown>[] } } } | null };
    const all = await gql<Timeline>(t, query('first: 50'), { headers: basic('reader') });
    expect(all.errors).toBeUndefined();
    const items = all.data?.repository?.issue.timelineItems;
    expect(items?.nodes.map((i) => i.__typename)).toEqual([
      'LabeledEvent',
      'AssignedEvent',
      'RenamedTitleEvent',
      'ClosedEvent',
      'IssueComment',
      'UnassignedEvent',
      'ReopenedEvent',
    ]);
    expect(items?.totalCount).toBe(7);
    expect(items?.nodes[0]).toMatchObject({ actor: { login: 'owner' }, label: { name: 'bug' }, labelable: { title: 'New' } });
    expect(items?.nodes[2]).toEqual({ __typename: 'RenamedTitleEvent', previousTitle: 'Old', currentTitle: 'New' });
    expect(items?.nodes[3]).toMatchObject({ actor: { login: 'owner' }, closable: { number: n } });
    expect(items?.nodes[5]).toEqual({ __typename: 'UnassignedEvent', assignee: { login: 'writer' } });
    const filtered = await gql<Timeline>(t, query('first: 50, itemTypes: [ISSUE_COMMENT, CLOSED_EVENT]'), { headers: basic('reader') });
    expect(filtered.data?.repository?.issue.timelineItems).toEqual({
      totalCount: 2,
      nodes: [expect.objectContaining({ __typename: 'ClosedEvent' }), { __typename: 'IssueComment', body: 'why closed?' }],
    });
    // GitHub's kinds this timeline never holds are accepted and match nothing, alone or beside others.
    const githubOnly = await gql<Timeline>(t, query('first: 50, itemTypes: [MENTIONED_EVENT, SUBSCRIBED_EVENT]'), {
      headers: basic('reader'),
    });
    expect(githubOnly.data?.repository?.issue.timelineItems).toEqual({ totalCount: 0, nodes: [] });
    const mixed = await gql<Timeline>(t, query('first: 50, itemTypes: [CROSS_REFERENCED_EVENT, CLOSED_EVENT]'), {
      headers: basic('reader'),
    });
    expect(mixed.data?.repository?.issue.timelineItems).toEqual({
      totalCount: 1,
      nodes: [expect.objectContaining({ __typename: 'ClosedEvent' })],
    });
    const labeledId = items?.nodes[0]?.id as string;
    const nodeQ = `{ node(id: "${labeledId}") { __typename ... on LabeledEvent { label { name } } } }`;
    expect((await gql<{ node: unknown }>(t, nodeQ, { headers: basic('reader') })).data?.node).toEqual({
      __typename: 'LabeledEvent',
      label: { name: 'bug' },
    });
    expect((await gql<{ node: unknown }>(t, nodeQ, { headers: basic('stranger') })).data?.node).toBeNull();
    expect((await gql<Timeline>(t, query('first: 5'), { headers: basic('stranger') })).data?.repository).toBeNull();
  });

  describe('statement counts do not grow with issues and comments', () => {
    async function grow(issues: number, perIssue: number): Promise<void> {
      for (let i = 0; i < issues; i++) {
        const n = (await rest('POST', 'owner', 'owner/busy/issues', { title: `i${i}`, assignees: ['writer'] })).json().number as number;
        for (let j = 0; j < perIssue; j++) {
          const res = await rest('POST', j % 2 ? 'reader' : 'writer', `owner/busy/issues/${n}/comments`, { body: `c${j}` });
          expect(res.statusCode).toBe(201);
        }
        await rest('PATCH', 'owner', `owner/busy/issues/${n}`, { state: 'closed' });
      }
    }
    async function measure(query: string): Promise<{ statements: number; data: unknown }> {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<unknown>(t, query, { headers: basic('reader') });
      expect(res.errors).toBeUndefined();
      return { statements: t.queries.length, data: res.data };
    }
    const COMMENTS =
      '{ repository(owner: "owner", name: "busy") { issues(first: 50, states: [CLOSED]) { totalCount nodes { number comments(first: 10) { totalCount nodes { body author { login } viewerCanUpdate url } } } } } }';
    const TIMELINE = `{ repository(owner: "owner", name: "busy") { issues(first: 50, states: [CLOSED]) { totalCount nodes { number timelineItems(first: 20) { totalCount nodes {
      __typename ... on IssueComment { body author { login } } ... on ClosedEvent { actor { login } } ... on AssignedEvent { assignee { ... on User { login } } actor { login } }
    } } } } } }`;

    it('repository { issues(first: 50) { comments(first: 10) { author } } } and timelineItems', async () => {
      await grow(2, 2);
      await measure(COMMENTS); // warm-up: the PostgreSQL driver looks up type information once per connection
      const smallComments = await measure(COMMENTS);
      const smallTimeline = await measure(TIMELINE);
      await grow(8, 5);
      const largeComments = await measure(COMMENTS);
      const largeTimeline = await measure(TIMELINE);
      type Issues = {
        repository: {
          issues: { totalCount: number; nodes: { comments?: { totalCount: number }; timelineItems?: { totalCount: number } }[] };
        };
      };
      expect((largeComments.data as Issues).repository.issues.totalCount).toBe(10);
      expect((largeComments.data as Issues).repository.issues.nodes.map((i) => i.comments?.totalCount).sort()).toEqual([
        2, 2, 5, 5, 5, 5, 5, 5, 5, 5,
      ]);
      expect((largeTimeline.data as Issues).repository.issues.nodes.map((i) => i.timelineItems?.totalCount).sort()).toEqual([
        4, 4, 7, 7, 7, 7, 7, 7, 7, 7,
      ]);
      console.info(
        `[${provider}] issues→comments: ${smallComments.statements}/${largeComments.statements} statements; issues→timelineItems: ${smallTimeline.statements}/${largeTimeline.statements}`,
      );
      expect(largeComments.statements).toBe(smallComments.statements);
      expect(largeTimeline.statements).toBe(smallTimeline.statements);
    });
  });
});
