// What `gh pr status` and `gh pr checks` (gh 2.23) send, verbatim, and the fields behind them (issue #32):
// PullRequest.baseRef/headRef, latestReviews, PullRequestCommit.commit as a Commit, Commit.statusCheckRollup with
// statuses and Actions jobs as check runs, isRequired, Ref.branchProtectionRule, and `search` (search.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

/** gh 2.23's PullRequestStatus query (pkg/cmd/pr/status), as it sends it. */
const PR_STATUS = `fragment pr on PullRequest {number,title,state,url,isDraft,isCrossRepository,headRefName,headRepositoryOwner{id,login,...on User{name}},mergeStateStatus,statusCheckRollup: commits(last: 1) {nodes {commit {statusCheckRollup {contexts(first:100) {nodes {__typename...on StatusContext {context,state,targetUrl,createdAt},...on CheckRun {name,checkSuite{workflowRun{workflow{name}}},status,conclusion,startedAt,completedAt,detailsUrl}},pageInfo{hasNextPage,endCursor}}}}}},baseRef{branchProtectionRule{requiresStrictStatusChecks}}}
  fragment prWithReviews on PullRequest {...pr,reviewDecision,latestReviews(first: 100) {nodes {author{login},authorAssociation,submittedAt,body,state}}}

  query PullRequestStatus($owner: String!, $repo: String!, $headRefName: String!, $viewerQuery: String!, $reviewerQuery: String!, $per_page: Int = 10) {
    repository(owner: $owner, name: $repo) {
      defaultBranchRef {
        name
      }
      pullRequests(headRefName: $headRefName, first: $per_page, orderBy: { field: CREATED_AT, direction: DESC }) {
        totalCount
        edges {
          node {
            ...prWithReviews
          }
        }
      }
    }

      viewerCreated: search(query: $viewerQuery, type: ISSUE, first: $per_page) {
       totalCount: issueCount
        edges {
          node {
            ...prWithReviews
          }
        }
      }
      reviewRequested: search(query: $reviewerQuery, type: ISSUE, first: $per_page) {
        totalCount: issueCount
        edges {
          node {
            ...pr
          }
        }
      }
    }`;

/** gh 2.23's PullRequestStatusChecks query (pkg/cmd/pr/checks), as it sends it. */
const PR_CHECKS = `query PullRequestStatusChecks($id: ID!, $endCursor: String) {
    node(id: $id) {
      ...on PullRequest {
        statusCheckRollup: commits(last: 1) {nodes {commit {statusCheckRollup {contexts(first:100,after:$endCursor) {nodes {__typename...on StatusContext {context,state,targetUrl,createdAt,isRequired(pullRequestId: $id)},...on CheckRun {name,checkSuite{workflowRun{workflow{name}}},status,conclusion,startedAt,completedAt,detailsUrl,isRequired(pullRequestId: $id)}},pageInfo{hasNextPage,endCursor}}}}}}
      }
    }
  }`;

const WORKFLOW = `name: CI
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo test
`;

interface Context {
  __typename: 'StatusContext' | 'CheckRun';
  context?: string;
  state?: string;
  targetUrl?: string | null;
  name?: string;
  status?: string;
  conclusion?: string | null;
  detailsUrl?: string | null;
  startedAt?: string | null;
  checkSuite?: { workflowRun: { workflow: { name: string } } | null };
  isRequired?: boolean;
}
interface Pr {
  number: number;
  title: string;
  isDraft: boolean;
  headRefName: string;
  mergeStateStatus: string;
  baseRef: { branchProtectionRule: { requiresStrictStatusChecks: boolean } | null } | null;
  statusCheckRollup: { nodes: { commit: { statusCheckRollup: { contexts: { nodes: Context[] } } | null } }[] };
  reviewDecision?: string | null;
  latestReviews?: {
    nodes: { author: { login: string } | null; authorAssociation: string; submittedAt: string; body: string; state: string }[];
  };
}
interface Status {
  repository: { defaultBranchRef: { name: string }; pullRequests: { totalCount: number; edges: { node: Pr }[] } };
  viewerCreated: { totalCount: number; edges: { node: Pr }[] };
  reviewRequested: { totalCount: number; edges: { node: Pr }[] };
}

const contextsOf = (pr: Pr) => pr.statusCheckRollup.nodes[0]?.commit.statusCheckRollup?.contexts.nodes ?? [];

describe.each(PROVIDERS)('gh pr status / gh pr checks against the graph (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let head = '';
  let prId = '';
  /** A check run's, its suite's and its workflow's node ids. */
  let checkIds: string[] = [];

  const rest = async (
    method: 'POST' | 'PUT' | 'PATCH',
    url: string,
    user: string,
    body: Record<string, unknown>,
    status = [200, 201, 204],
  ) => {
    const res = await t.request(method, `/api/v1/repos/alice/app${url}`, { headers: basic(user), body });
    expect(status, `${method} ${url}: ${res.body}`).toContain(res.statusCode);
    return res;
  };
  const status = async (user: string, headRefName = 'topic') => {
    const res = await gql<Status>(t, PR_STATUS, {
      headers: basic(user),
      variables: {
        owner: 'alice',
        repo: 'app',
        headRefName,
        viewerQuery: `repo:alice/app state:open is:pr author:${user}`,
        reviewerQuery: `repo:alice/app state:open review-requested:${user}`,
      },
    });
    expect(res.errors).toBeUndefined();
    return res.data!;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob', 'carol', 'eve']) await t.createUser(u);
    await f.createRepo('alice', 'app');
    await rest('PUT', '/collaborators/bob', 'alice', { permission: 'write' });
    // PR 1: alice's, with a workflow whose push run has two jobs (no runner: they wait), a status, and reviews.
    head = await f.push('alice', 'app', 'alice', 'topic', { '.gitea/workflows/ci.yaml': WORKFLOW, 'a.txt': 'a\n' });
    await t.app.jobs.drain();
    const { json } = await f.open('alice', 'app', 'alice', { head: 'topic', base: 'main', title: 'Topic' });
    expect(json.number).toBe(1);
    await rest('POST', `/statuses/${head}`, 'alice', { state: 'success', context: 'ci/lint', target_url: 'https://ci.example/lint' });
    await rest('POST', '/pulls/1/reviews', 'bob', { event: 'COMMENT', body: 'first look' });
    await rest('POST', '/pulls/1/reviews', 'bob', { event: 'APPROVED', body: 'lgtm' });
    await rest('POST', '/pulls/1/reviews', 'carol', { event: 'PENDING', body: 'still reading' });
    await rest('POST', '/branch_protections', 'alice', {
      rule_name: 'main',
      enable_status_check: true,
      status_check_contexts: ['ci/*', 'CI / build*'],
      block_on_outdated_branch: true,
    });
    // PR 2: bob's work in progress, with alice asked to review it.
    await f.push('alice', 'app', 'bob', 'fix', { 'b.txt': 'b\n' });
    await f.open('alice', 'app', 'bob', { head: 'fix', base: 'main', title: 'WIP: fix' });
    await rest('POST', '/pulls/2/requested_reviewers', 'bob', { reviewers: ['alice'] });
    const ids = await gql<{ repository: { pullRequest: { id: string } } }>(
      t,
      '{ repository(owner: "alice", name: "app") { pullRequest(number: 1) { id } } }',
    );
    prId = ids.data!.repository.pullRequest.id;
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('gh pr status validates and answers: the current branch, the viewer’s pull requests and those awaiting their review', async () => {
    const data = await status('alice');
    expect(data.repository.defaultBranchRef.name).toBe('main');
    expect(data.repository.pullRequests.totalCount).toBe(1);
    const pr = data.repository.pullRequests.edges[0]!.node;
    expect(pr).toMatchObject({ number: 1, title: 'Topic', isDraft: false, headRefName: 'topic' });
    // The admin sees the base branch's rule; the latest review of each reviewer, no pending one.
    expect(pr.baseRef).toEqual({ branchProtectionRule: { requiresStrictStatusChecks: true } });
    expect(pr.latestReviews?.nodes).toEqual([
      { author: { login: 'bob' }, authorAssociation: 'COLLABORATOR', submittedAt: expect.any(String), body: 'lgtm', state: 'APPROVED' },
    ]);
    // The status, then the Actions jobs as check runs (their own commit statuses are not listed twice).
    const contexts = contextsOf(pr);
    expect(contexts.map((c) => [c.__typename, c.context ?? c.name])).toEqual([
      ['StatusContext', 'ci/lint'],
      ['CheckRun', 'build'],
      ['CheckRun', 'test'],
    ]);
    expect(contexts[0]).toMatchObject({ state: 'SUCCESS', targetUrl: 'https://ci.example/lint' });
    expect(contexts[1]).toEqual({
      __typename: 'CheckRun',
      name: 'build',
      checkSuite: { workflowRun: { workflow: { name: 'CI' } } },
      status: 'QUEUED',
      conclusion: null,
      startedAt: null,
      completedAt: null,
      detailsUrl: `${t.config.rootUrl}alice/app/actions/runs/1/jobs/0`,
    });
    expect(contexts[2]).toMatchObject({ status: 'WAITING', detailsUrl: expect.stringMatching(/\/actions\/runs\/1\/jobs\/1$/) });

    expect(data.viewerCreated.totalCount).toBe(1);
    expect(data.viewerCreated.edges.map((e) => e.node.number)).toEqual([1]);
    expect(data.reviewRequested.totalCount).toBe(1);
    expect(data.reviewRequested.edges[0]?.node).toMatchObject({ number: 2, isDraft: true, headRefName: 'fix' });
    expect(data.reviewRequested.edges[0]?.node.latestReviews).toBeUndefined();
  });

  it('shows the rule only to repository admins, and each viewer the reviews they may see', async () => {
    const asBob = await status('bob', 'fix');
    const pr = asBob.repository.pullRequests.edges[0]!.node;
    expect(pr.number).toBe(2);
    expect(pr.baseRef).toEqual({ branchProtectionRule: null });
    expect(asBob.viewerCreated.edges.map((e) => e.node.number)).toEqual([2]);
    expect(asBob.reviewRequested.totalCount).toBe(0);
    // carol's own pending review is not one of the latest reviews either.
    const asCarol = await status('carol');
    expect(asCarol.repository.pullRequests.edges[0]?.node.latestReviews?.nodes.map((r) => r.author?.login)).toEqual(['bob']);
  });

  it('gh pr checks: each context says whether the base branch rule requires it', async () => {
    const res = await gql<{
      node: { statusCheckRollup: { nodes: { commit: { statusCheckRollup: { contexts: { nodes: Context[] } } } }[] } };
    }>(t, PR_CHECKS, { headers: basic('eve'), variables: { id: prId } });
    expect(res.errors).toBeUndefined();
    const nodes = res.data!.node.statusCheckRollup.nodes[0]!.commit.statusCheckRollup.contexts.nodes;
    expect(nodes.map((c) => [c.context ?? c.name, c.isRequired])).toEqual([
      ['ci/lint', true],
      ['build', true],
      ['test', false],
    ]);
    const byNumber = await gql<{ repository: { object: { statusCheckRollup: { contexts: { nodes: Context[] } } } } }>(
      t,
      `{ repository(owner: "alice", name: "app") { object(expression: "${head}") { ... on Commit { statusCheckRollup { contexts(first: 10) {
         nodes { ... on StatusContext { context isRequired(pullRequestNumber: 1) } ... on CheckRun { name isRequired(pullRequestNumber: 2) } } } } } } } }`,
      { headers: basic('eve') },
    );
    expect(byNumber.errors).toBeUndefined();
    expect(byNumber.data!.repository.object.statusCheckRollup.contexts.nodes.map((c) => c.isRequired)).toEqual([true, true, false]);
    const neither = await gql<unknown>(
      t,
      `{ repository(owner: "alice", name: "app") { object(expression: "${head}") { ... on Commit { statusCheckRollup { contexts(first: 1) {
         nodes { ... on StatusContext { isRequired } } } } } } } }`,
    );
    expect(errorCodes(neither)).toEqual(['INVALID_ARGUMENT']);
    const unknown = await gql<unknown>(
      t,
      `{ repository(owner: "alice", name: "app") { object(expression: "${head}") { ... on Commit { statusCheckRollup { contexts(first: 1) {
         nodes { ... on StatusContext { isRequired(pullRequestNumber: 99) } } } } } } } }`,
    );
    expect(errorCodes(unknown)).toEqual(['NOT_FOUND']);
  });

  it('pull request commits are Commits: dates, and the roll-up state of statuses and check runs', async () => {
    const res = await gql<{
      repository: {
        pullRequest: {
          baseRef: { name: string; targetOid: string };
          headRef: { name: string; targetOid: string };
          commits: {
            totalCount: number;
            nodes: { commit: { oid: string; authoredDate: string; statusCheckRollup: Record<string, unknown> } }[];
          };
        };
      };
    }>(
      t,
      `{ repository(owner: "alice", name: "app") { pullRequest(number: 1) { baseRef { name targetOid } headRef { name targetOid }
         commits(last: 1) { totalCount nodes { commit { oid authoredDate statusCheckRollup { state commit { oid } contexts(first: 1) {
           totalCount checkRunCount statusContextCount checkRunCountsByState { state count } statusContextCountsByState { state count }
           nodes { __typename } pageInfo { hasNextPage } } } } } } } } }`,
      { headers: basic('eve') },
    );
    expect(res.errors).toBeUndefined();
    const pr = res.data!.repository.pullRequest;
    expect(pr.baseRef.name).toBe('main');
    expect(pr.headRef).toEqual({ name: 'topic', targetOid: head });
    expect(pr.commits.totalCount).toBe(2);
    const commit = pr.commits.nodes[0]!.commit;
    expect(commit.oid).toBe(head);
    expect(Number.isNaN(Date.parse(commit.authoredDate))).toBe(false);
    expect(commit.statusCheckRollup).toEqual({
      state: 'PENDING',
      commit: { oid: head },
      contexts: {
        totalCount: 3,
        checkRunCount: 2,
        statusContextCount: 1,
        checkRunCountsByState: [
          { state: 'QUEUED', count: 1 },
          { state: 'WAITING', count: 1 },
        ],
        statusContextCountsByState: [{ state: 'SUCCESS', count: 1 }],
        nodes: [{ __typename: 'StatusContext' }],
        pageInfo: { hasNextPage: true },
      },
    });
  });

  it('check runs, their suites and workflows are nodes; a pending review is its author’s alone', async () => {
    const res = await gql<{
      repository: {
        object: {
          statusCheckRollup: {
            contexts: { nodes: { id?: string; checkSuite?: { id: string; workflowRun: { workflow: { id: string } } } }[] };
          };
        };
      };
    }>(
      t,
      `{ repository(owner: "alice", name: "app") { object(expression: "${head}") { ... on Commit { statusCheckRollup { contexts(first: 3) {
         nodes { ... on CheckRun { id checkSuite { id workflowRun { workflow { id } } } } } } } } } } }`,
    );
    expect(res.errors).toBeUndefined();
    const run = res.data!.repository.object.statusCheckRollup.contexts.nodes[1]!;
    const ids = (checkIds = [run.id!, run.checkSuite!.id, run.checkSuite!.workflowRun.workflow.id]);
    const nodes = await gql<{ nodes: Record<string, unknown>[] }>(
      t,
      `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on CheckRun { name } ... on CheckSuite { status conclusion }
         ... on Workflow { name resourcePath } } }`,
      { variables: { ids } },
    );
    expect(nodes.errors).toBeUndefined();
    expect(nodes.data!.nodes).toEqual([
      { __typename: 'CheckRun', name: 'build' },
      { __typename: 'CheckSuite', status: 'QUEUED', conclusion: null },
      { __typename: 'Workflow', name: 'CI', resourcePath: '/alice/app/actions?workflow=ci.yaml' },
    ]);

    const runs = await gql<{ repository: { workflowRuns: { nodes: unknown[] } } }>(
      t,
      '{ repository(owner: "alice", name: "app") { workflowRuns(first: 5) { nodes { runNumber workflow { id name } checkSuite { id status } } } } }',
    );
    expect(runs.errors).toBeUndefined();
    expect(runs.data!.repository.workflowRuns.nodes).toEqual([
      { runNumber: 1, workflow: { id: ids[2], name: 'CI' }, checkSuite: { id: ids[1], status: 'QUEUED' } },
    ]);

    const reviews = async (user: string) =>
      (
        await gql<{
          repository: {
            pullRequest: { latestReviews: { totalCount: number }; reviews: { nodes: { state: string; commit: { oid: string } | null }[] } };
          };
        }>(
          t,
          '{ repository(owner: "alice", name: "app") { pullRequest(number: 1) { latestReviews { totalCount } reviews(first: 10) { nodes { state commit { oid } } } } } }',
          { headers: basic(user) },
        )
      ).data!.repository.pullRequest;
    expect((await reviews('carol')).reviews.nodes.map((r) => r.state)).toEqual(['COMMENTED', 'APPROVED', 'PENDING']);
    expect((await reviews('carol')).latestReviews.totalCount).toBe(1);
    expect((await reviews('eve')).reviews.nodes).toEqual([
      { state: 'COMMENTED', commit: { oid: head } },
      { state: 'APPROVED', commit: { oid: head } },
    ]);
  });

  it("a review's reaction groups are those of its body comment (what users react to)", async () => {
    const approved = await t.db.review.findFirstOrThrow({ where: { type: 'APPROVE' } });
    const body = await t.db.comment.findFirstOrThrow({ where: { reviewId: approved.id, type: 'REVIEW' } });
    await rest('POST', `/issues/comments/${body.id}/reactions`, 'alice', { content: '+1' }, [201]);
    const res = await gql<{
      repository: {
        pullRequest: {
          reviews: {
            nodes: { body: string; reactionGroups: { content: string; viewerHasReacted: boolean; users: { totalCount: number } }[] }[];
          };
        };
      };
    }>(
      t,
      '{ repository(owner: "alice", name: "app") { pullRequest(number: 1) { reviews(first: 10) { nodes { body reactionGroups { content viewerHasReacted users { totalCount } } } } } } }',
      { headers: basic('alice') },
    );
    expect(res.errors).toBeUndefined();
    const byBody = Object.fromEntries(
      res.data!.repository.pullRequest.reviews.nodes.map((r) => [r.body, r.reactionGroups.filter((g) => g.users.totalCount > 0)]),
    );
    expect(byBody.lgtm).toEqual([{ content: 'THUMBS_UP', viewerHasReacted: true, users: { totalCount: 1 } }]);
    expect(byBody['first look']).toEqual([]);
  });

  it('costs the same statements for one pull request as for two', async () => {
    const query = (n: number) =>
      `query { repository(owner: "alice", name: "app") { pullRequests(first: ${n}, orderBy: { field: CREATED_AT, direction: ASC }) { nodes { number reviewDecision
         baseRef { name branchProtectionRule { requiresStrictStatusChecks } } headRef { name }
         latestReviews(first: 10) { nodes { state authorAssociation author { login } commit { oid } } }
         commits(last: 1) { nodes { commit { statusCheckRollup { state contexts(first: 10) { nodes { __typename
           ... on StatusContext { context isRequired(pullRequestNumber: 1) }
           ... on CheckRun { name checkSuite { workflowRun { workflow { name } } } isRequired(pullRequestNumber: 1) } } } } } } } } } } }`;
    const count = async (n: number) => {
      t.queries.length = 0;
      const res = await gql<{ repository: { pullRequests: { nodes: unknown[] } } }>(t, query(n), { headers: basic('alice') });
      expect(res.errors).toBeUndefined();
      expect(res.data!.repository.pullRequests.nodes).toHaveLength(n);
      return t.queries.length;
    };
    await count(2);
    expect(await count(1)).toBe(await count(2));
  });

  it('without the Actions unit, jobs are the statuses they wrote, and their check runs are gone', async () => {
    await rest('PATCH', '', 'alice', { has_actions: false });
    const data = await status('alice');
    const contexts = contextsOf(data.repository.pullRequests.edges[0]!.node);
    expect(contexts.map((c) => [c.__typename, c.context, c.state])).toEqual([
      ['StatusContext', 'CI / build (push)', 'PENDING'],
      ['StatusContext', 'CI / test (push)', 'PENDING'],
      ['StatusContext', 'ci/lint', 'SUCCESS'],
    ]);
    // A disabled unit does not exist: node(id:) finds neither the job, nor its run, nor its workflow.
    const nodes = await gql<{ nodes: unknown[] }>(t, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }', {
      headers: basic('alice'),
      variables: { ids: checkIds },
    });
    expect(nodes.errors).toBeUndefined();
    expect(nodes.data?.nodes).toEqual([null, null, null]);
  });
});
