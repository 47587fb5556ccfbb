// GitHub's Query.search (issue #32): GitHub's search syntax over issues and pull requests (the one issue read
// policy: what the viewer may not read is neither found nor counted), repositories and accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql, type GqlResult } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

interface Item {
  __typename: string;
  number?: number;
  isDraft?: boolean;
  repository?: { nameWithOwner: string };
  baseRepository?: { nameWithOwner: string };
  nameWithOwner?: string;
  login?: string;
}
interface Search {
  search: {
    issueCount: number;
    repositoryCount: number;
    userCount: number;
    discussionCount: number;
    nodes: Item[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

const SEARCH = `query($q: String!, $type: SearchType!, $first: Int, $after: String) {
  search(query: $q, type: $type, first: $first, after: $after) {
    issueCount repositoryCount userCount discussionCount
    nodes { __typename
      ... on Issue { number repository { nameWithOwner } }
      ... on PullRequest { number isDraft baseRepository { nameWithOwner } }
      ... on Repository { nameWithOwner }
      ... on User { login }
      ... on Organization { login } }
    pageInfo { hasNextPage endCursor } } }`;

/** An issue or pull request as `owner/name#number`, a repository as its name, an account as its login. */
const label = (i: Item) =>
  i.number !== undefined ? `${(i.repository ?? i.baseRepository)?.nameWithOwner}#${i.number}` : (i.nameWithOwner ?? i.login ?? '?');

describe.each(PROVIDERS)('GraphQL search (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  const run = (q: string, user?: string, type = 'ISSUE', extra: Record<string, unknown> = {}): Promise<GqlResult<Search>> =>
    gql<Search>(t, SEARCH, { variables: { q, type, first: 20, ...extra }, ...(user ? { headers: basic(user) } : {}) });
  const found = async (q: string, user?: string, type = 'ISSUE') => {
    const res = await run(q, user, type);
    expect(res.errors, q).toBeUndefined();
    return res.data!.search.nodes.map(label);
  };
  const post = async (url: string, user: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', `/api/v1${url}`, { headers: basic(user), body });
    expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
    return res.json() as { id: number; number: number };
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob', 'eve']) await t.createUser(u, { fullName: `${u[0]!.toUpperCase()}${u.slice(1)} Example` });
    await post('/orgs', 'alice', { username: 'secretorg', visibility: 'private' });
    await f.createRepo('alice', 'pub');
    await f.createRepo('alice', 'priv', { private: true });
    await f.createRepo('bob', 'other');
    const put = await t.request('PUT', '/api/v1/repos/alice/pub/collaborators/bob', {
      headers: basic('alice'),
      body: { permission: 'write' },
    });
    expect(put.statusCode).toBe(204);
    const bug = await post('/repos/alice/pub/labels', 'alice', { name: 'bug', color: '#ee0701' });
    // In creation order: pub#1 … pub#4, priv#1, other#1.
    await post('/repos/alice/pub/issues', 'alice', { title: 'Crash on start', body: 'seen by @eve', labels: [bug.id], assignees: ['bob'] });
    await f.push('alice', 'pub', 'alice', 'feature', { 'f.txt': 'f\n' });
    await f.open('alice', 'pub', 'alice', { head: 'feature', base: 'main', title: 'WIP: feature' });
    await post('/repos/alice/pub/pulls/2/requested_reviewers', 'alice', { reviewers: ['eve'] });
    await post('/repos/alice/pub/pulls/2/reviews', 'bob', { event: 'COMMENT', body: 'nice' });
    await post('/repos/alice/pub/issues', 'bob', { title: 'Docs typo', body: 'a word is wrong' });
    const close = await t.request('PATCH', '/api/v1/repos/alice/pub/issues/3', { headers: basic('bob'), body: { state: 'closed' } });
    expect(close.statusCode).toBe(201);
    await post('/repos/alice/pub/issues', 'alice', { title: 'Question', body: 'how?' });
    await post('/repos/alice/pub/issues/4/comments', 'eve', { body: 'like this' });
    await post('/repos/alice/priv/issues', 'alice', { title: 'Secret crash', body: 'hush' });
    await post('/repos/bob/other/issues', 'bob', { title: 'Crash elsewhere', body: '' });
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('finds words in titles and bodies; a private repository’s issues are neither found nor counted by others', async () => {
    const asAlice = await run('crash', 'alice');
    expect(asAlice.errors).toBeUndefined();
    expect(asAlice.data!.search.nodes.map(label)).toEqual(['bob/other#1', 'alice/priv#1', 'alice/pub#1']);
    expect(asAlice.data!.search).toMatchObject({ issueCount: 3, repositoryCount: 0, userCount: 0, discussionCount: 0 });
    for (const user of ['eve', undefined]) {
      const res = await run('crash', user);
      expect(res.data!.search.nodes.map(label)).toEqual(['bob/other#1', 'alice/pub#1']);
      expect(res.data!.search.issueCount).toBe(2);
    }
    const named = await run('repo:alice/priv', 'eve');
    expect(named.errors).toBeUndefined();
    expect(named.data!.search).toMatchObject({ issueCount: 0, nodes: [] });
    expect(await found('repo:alice/priv', 'alice')).toEqual(['alice/priv#1']);
    // The same for `is:private`: the viewer's own private issues only.
    expect(await found('is:private', 'eve')).toEqual([]);
    expect(await found('is:private', 'alice')).toEqual(['alice/priv#1']);
  });

  it.each([
    ['repo:alice/pub is:pr', ['alice/pub#2']],
    ['repo:alice/pub type:issue state:closed', ['alice/pub#3']],
    ['repo:alice/pub is:open is:issue sort:created-asc', ['alice/pub#1', 'alice/pub#4']],
    ['repo:alice/pub sort:updated-desc is:closed', ['alice/pub#3']],
    ['label:bug', ['alice/pub#1']],
    ['label:bug,nothing', ['alice/pub#1']],
    ['label:bug label:nothing', []],
    ['assignee:bob', ['alice/pub#1']],
    ['mentions:eve', ['alice/pub#1']],
    ['commenter:eve', ['alice/pub#4']],
    ['involves:eve', ['alice/pub#4', 'alice/pub#1']],
    ['review-requested:eve', ['alice/pub#2']],
    ['reviewed-by:bob', ['alice/pub#2']],
    ['draft:true', ['alice/pub#2']],
    ['is:pr draft:false', []],
    ['is:merged', []],
    ['base:main head:feature', ['alice/pub#2']],
    ['author:bob', ['bob/other#1', 'alice/pub#3']],
    ['user:bob', ['bob/other#1']],
    ['org:alice repo:bob/other is:closed', ['alice/pub#3']],
    ['no:label repo:alice/pub is:issue', ['alice/pub#4', 'alice/pub#3']],
    ['no:assignee is:issue crash', ['bob/other#1', 'alice/priv#1']],
    ['in:title typo', ['alice/pub#3']],
    ['in:body eve', ['alice/pub#1']],
    ['"on start"', ['alice/pub#1']],
    ['foo:bar', []],
    ['author:nobody', []],
  ])('as alice, %s', async (q, expected) => {
    expect(await found(q, 'alice')).toEqual(expected);
  });

  it('reads @me as the viewer, and refuses it without one', async () => {
    expect(await found('author:@me', 'bob')).toEqual(['bob/other#1', 'alice/pub#3']);
    expect(await found('assignee:@me', 'bob')).toEqual(['alice/pub#1']);
    const anonymous = await run('author:@me');
    expect(errorCodes(anonymous)).toEqual(['INVALID_ARGUMENT']);
    expect(anonymous.errors?.[0]?.message).toContain('@me');
  });

  it.each([
    ['created:>2020-01-01', 'created:'],
    ['repo:alice/pub comments:>5', 'comments:'],
    ['-label:bug', '-label:'],
    ['team:acme/devs', 'team:'],
    ['is:bogus', 'is:'],
    ['sort:reactions-desc', 'sort:'],
    ['repo:alice', 'repo:'],
  ])('refuses %s, naming the qualifier', async (q, qualifier) => {
    const res = await run(q, 'alice');
    expect(errorCodes(res)).toEqual(['INVALID_ARGUMENT']);
    expect(res.errors?.[0]?.type).toBe('UNPROCESSABLE');
    expect(res.errors?.[0]?.message).toContain(qualifier);
    expect(res.data?.search ?? null).toBeNull();
  });

  it('answers issues and pull requests as their own types, and pages through them', async () => {
    const first = await run('repo:alice/pub sort:created-asc', 'alice', 'ISSUE', { first: 2 });
    expect(first.errors).toBeUndefined();
    expect(first.data!.search.issueCount).toBe(4);
    expect(first.data!.search.nodes).toEqual([
      { __typename: 'Issue', number: 1, repository: { nameWithOwner: 'alice/pub' } },
      { __typename: 'PullRequest', number: 2, isDraft: true, baseRepository: { nameWithOwner: 'alice/pub' } },
    ]);
    expect(first.data!.search.pageInfo.hasNextPage).toBe(true);
    const next = await run('repo:alice/pub sort:created-asc', 'alice', 'ISSUE', { first: 2, after: first.data!.search.pageInfo.endCursor });
    expect(next.data!.search.nodes.map(label)).toEqual(['alice/pub#3', 'alice/pub#4']);
    expect(next.data!.search.pageInfo.hasNextPage).toBe(false);
    const discussions = await run('crash', 'alice', 'DISCUSSION');
    expect(discussions.data!.search).toMatchObject({ nodes: [], issueCount: 0, discussionCount: 0 });
  });

  it('searches repositories through their read policy', async () => {
    expect(await found('user:alice', 'alice', 'REPOSITORY')).toEqual(['alice/priv', 'alice/pub']);
    const asEve = await run('user:alice', 'eve', 'REPOSITORY');
    expect(asEve.data!.search).toMatchObject({
      repositoryCount: 1,
      issueCount: 0,
      nodes: [{ __typename: 'Repository', nameWithOwner: 'alice/pub' }],
    });
    expect(await found('pri', 'eve', 'REPOSITORY')).toEqual([]);
    expect(await found('pri', 'alice', 'REPOSITORY')).toEqual(['alice/priv']);
    expect(await found('is:public sort:updated-asc other', undefined, 'REPOSITORY')).toEqual(['bob/other']);
    expect(errorCodes(await run('stars:>10', 'alice', 'REPOSITORY'))).toEqual(['INVALID_ARGUMENT']);
  });

  it('searches users and organizations through theirs', async () => {
    expect(await found('type:org', 'alice', 'USER')).toEqual(['secretorg']);
    const asEve = await run('type:org', 'eve', 'USER');
    expect(asEve.data!.search).toMatchObject({ userCount: 0, nodes: [] });
    const people = await run('example', 'eve', 'USER');
    expect(people.data!.search.nodes).toEqual([
      { __typename: 'User', login: 'alice' },
      { __typename: 'User', login: 'bob' },
      { __typename: 'User', login: 'eve' },
    ]);
    expect(people.data!.search.userCount).toBe(3);
    expect(await found('secret', 'alice', 'USER')).toEqual(['secretorg']);
    expect(errorCodes(await run('followers:>1', 'alice', 'USER'))).toEqual(['INVALID_ARGUMENT']);
  });

  it('needs read:issue for issues, as GET /repos/issues/search', async () => {
    const token = await t.createToken('alice', ['read:repository'], 'repo-only');
    const res = await gql<Search>(t, SEARCH, { variables: { q: 'crash', type: 'ISSUE' }, headers: tokenAuth(token) });
    expect(res.data?.search ?? null).toBeNull();
    expect(res.errors).toHaveLength(1);
    const repos = await gql<Search>(t, SEARCH, { variables: { q: 'user:alice', type: 'REPOSITORY' }, headers: tokenAuth(token) });
    expect(repos.errors).toBeUndefined();
    expect(repos.data!.search.repositoryCount).toBe(2);
  });

  it('costs the same statements for two results as for four', async () => {
    const query = (n: number) => `{ search(query: "repo:alice/pub sort:created-asc", type: ISSUE, first: ${n}) { issueCount
      edges { cursor node { __typename
        ... on Issue { title author { login } labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } repository { nameWithOwner } }
        ... on PullRequest { title isDraft author { login } headRefName baseRef { name } mergeStateStatus reviewDecision
          latestReviews(first: 5) { nodes { state authorAssociation author { login } } }
          commits(last: 1) { nodes { commit { oid statusCheckRollup { state } } } } } } } } }`;
    const count = async (n: number) => {
      t.queries.length = 0;
      const res = await gql<{ search: { issueCount: number; edges: unknown[] } }>(t, query(n), { headers: basic('alice') });
      expect(res.errors).toBeUndefined();
      expect(res.data!.search.edges).toHaveLength(n);
      return t.queries.length;
    };
    await count(4);
    expect(await count(2)).toBe(await count(4));
  });
});
