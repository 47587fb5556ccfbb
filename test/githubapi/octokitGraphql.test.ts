// A program written for GitHub with @octokit/graphql, typed with @octokit/graphql-schema, run unchanged against the
// forge (issue #32): one nested read and three mutations over real HTTP, the effects checked through /api/v1.
import { graphql } from '@octokit/graphql';
import type { AddCommentPayload, AddReactionPayload, CloseIssuePayload, CreateIssuePayload, Repository } from '@octokit/graphql-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';

describe.each(PROVIDERS)('@octokit/graphql against the forge (%s)', (provider) => {
  let t: TestApp;
  let client: typeof graphql;

  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice = await t.createUser('alice');
    const token = await t.createToken('alice', ['all']);
    await createRepo(t, alice, 'demo', { autoInit: true });
    await t.request('POST', '/api/v1/repos/alice/demo/labels', { headers: basic('alice'), body: { name: 'bug', color: '#ff0000' } });
    const issue = await t.request('POST', '/api/v1/repos/alice/demo/issues', {
      headers: basic('alice'),
      body: { title: 'First', body: 'the first issue', labels: [] },
    });
    expect(issue.statusCode, issue.body).toBe(201);
    await t.request('POST', '/api/v1/repos/alice/demo/issues/1/comments', { headers: basic('alice'), body: { body: 'a reply' } });
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    // GitHub Enterprise's form: baseUrl is the API root, GraphQL at `${baseUrl}/graphql`.
    client = graphql.defaults({ baseUrl: `http://127.0.0.1:${port}/api`, headers: { authorization: `token ${token}` } });
  });
  afterAll(async () => t?.close());

  it('reads a repository, its issues, their labels, authors and comments in one nested query', async () => {
    const { repository } = await client<{ repository: Repository }>(
      `query ($owner: String!, $name: String!) {
        repository(owner: $owner, name: $name) {
          id
          nameWithOwner
          isPrivate
          defaultBranchRef { name target { oid } }
          issues(first: 10, states: OPEN) {
            totalCount
            nodes {
              number
              title
              url
              author { login }
              labels(first: 5) { nodes { name color } }
              comments(first: 5) { totalCount nodes { body author { login } } }
            }
          }
        }
      }`,
      { owner: 'alice', name: 'demo' },
    );
    expect(repository.nameWithOwner).toBe('alice/demo');
    expect(repository.isPrivate).toBe(false);
    expect(repository.defaultBranchRef?.name).toBe('main');
    expect(repository.defaultBranchRef?.target?.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(repository.issues.totalCount).toBe(1);
    const [first] = repository.issues.nodes ?? [];
    expect(first).toMatchObject({ number: 1, title: 'First', author: { login: 'alice' }, labels: { nodes: [] } });
    expect(first?.url).toBe(`${t.config.rootUrl}alice/demo/issues/1`);
    expect(first?.comments).toEqual({ totalCount: 1, nodes: [{ body: 'a reply', author: { login: 'alice' } }] });
  });

  it('creates an issue, comments on it, reacts to it and closes it', async () => {
    const { repository } = await client<{ repository: Repository }>(
      `{ repository(owner: "alice", name: "demo") { id labels(first: 5) { nodes { id name } } } }`,
    );
    const bug = repository.labels?.nodes?.find((l) => l?.name === 'bug');
    expect(bug).toBeTruthy();

    const { createIssue } = await client<{ createIssue: CreateIssuePayload }>(
      `mutation ($input: CreateIssueInput!) { createIssue(input: $input) { clientMutationId issue { id number title labels(first: 5) { nodes { name } } } } }`,
      { input: { repositoryId: repository.id, title: 'From octokit', body: 'typed', labelIds: [bug!.id], clientMutationId: 'c1' } },
    );
    expect(createIssue.clientMutationId).toBe('c1');
    const issue = createIssue.issue!;
    expect(issue.labels?.nodes?.map((l) => l?.name)).toEqual(['bug']);

    const { addComment } = await client<{ addComment: AddCommentPayload }>(
      `mutation ($id: ID!) { addComment(input: { subjectId: $id, body: "thanks" }) { commentEdge { node { body } } } }`,
      { id: issue.id },
    );
    expect(addComment.commentEdge?.node?.body).toBe('thanks');

    const { addReaction } = await client<{ addReaction: AddReactionPayload }>(
      `mutation ($id: ID!) { addReaction(input: { subjectId: $id, content: HEART }) { reaction { content } } }`,
      { id: issue.id },
    );
    expect(addReaction.reaction?.content).toBe('HEART');

    const { closeIssue } = await client<{ closeIssue: CloseIssuePayload }>(
      `mutation ($id: ID!) { closeIssue(input: { issueId: $id }) { issue { state closed } } }`,
      { id: issue.id },
    );
    expect(closeIssue.issue).toEqual({ state: 'CLOSED', closed: true });

    const rest = await t.request('GET', `/api/v1/repos/alice/demo/issues/${issue.number}`, { headers: basic('alice') });
    expect(rest.json()).toMatchObject({ title: 'From octokit', state: 'closed', comments: 1 });
    const reactions = await t.request('GET', `/api/v1/repos/alice/demo/issues/${issue.number}/reactions`, { headers: basic('alice') });
    expect((reactions.json() as Array<{ content: string }>).map((r) => r.content)).toEqual(['heart']);
  });

  it('surfaces a refusal as GraphqlResponseError with GitHub’s error type', async () => {
    const err = await client(`mutation { closeIssue(input: { issueId: "not-an-id" }) { issue { id } } }`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const errors = (err as { errors?: Array<{ type?: string; path?: string[] }> }).errors ?? [];
    expect(errors[0]).toMatchObject({ type: 'NOT_FOUND', path: ['closeIssue'] });
  });
});
