import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

type Json = Record<string, unknown>;

const REVIEW_FIELDS =
  'id databaseId state body official stale dismissed submittedAt commitOid author { login } comments(first: 10) { totalCount nodes { path line originalLine diffSide diffHunk body state author { login } pullRequestReview { databaseId } } }';
const PULL = `
  query($id: ID!, $states: [PullRequestReviewState!]) {
    node(id: $id) {
      ... on PullRequest {
        number
        reviewDecision
        reviews(first: 20, states: $states) { totalCount nodes { ${REVIEW_FIELDS} } }
        reviewRequests(first: 10) { totalCount nodes { id databaseId official requestedReviewer { __typename ... on User { login } ... on Team { name } } } }
      }
    }
  }`;

interface Review {
  id: string;
  databaseId: number;
  state: string;
  body: string;
  official: boolean;
  stale: boolean;
  dismissed: boolean;
  submittedAt: string | null;
  commitOid: string | null;
  author: { login: string } | null;
  comments: { totalCount: number; nodes: Json[] };
}
interface Pull {
  number: number;
  reviewDecision: string | null;
  reviews: { totalCount: number; nodes: Review[] };
  reviewRequests: { totalCount: number; nodes: { id: string; databaseId: number; official: boolean; requestedReviewer: Json | null }[] };
}

describe.each(PROVIDERS)('GraphQL pull request reviews (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  const pullIds = new Map<number, string>();

  /** The global id of alice/demo's pull request `n`. */
  async function pullId(n: number, repo = 'demo'): Promise<string> {
    const row = await t.db.pullRequest.findFirstOrThrow({ where: { index: n, baseRepo: { ownerName: 'alice', lowerName: repo } } });
    return encodeGlobalID('PullRequest', row.id);
  }

  async function pull(n: number, user: string | null, states?: string[]): Promise<Pull | null> {
    const res = await gql<{ node: Pull | null }>(t, PULL, {
      variables: { id: pullIds.get(n) ?? (await pullId(n)), states },
      ...(user ? { headers: basic(user) } : {}),
    });
    expect(res.errors).toBeUndefined();
    return res.data?.node ?? null;
  }

  /** Runs `name(input: $input)` as `user` selecting `select` on its payload; returns the payload or the refusal. */
  async function mutate(
    name: string,
    input: Json,
    user: string,
    select = 'pullRequestReview { id databaseId state body official author { login } comments(first: 5) { totalCount } }',
  ): Promise<{ payload: Json | null; error: MutationError | null }> {
    const res = await gql<Record<string, Json | null>>(
      t,
      `mutation($input: ${name.charAt(0).toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { __typename ${select} } }`,
      { variables: { input }, headers: basic(user) },
    );
    const error = mutationError(res, name);
    const payload = res.data?.[name] ?? null;
    if (!error && !payload) throw new Error(`no ${name} result`);
    return { payload, error };
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const name of ['alice', 'paul', 'wendy', 'rita', 'oscar']) await t.createUser(name);
    await t.createUser('root', { admin: true });
    await f.createRepo('alice', 'demo');
    for (const [user, permission] of [
      ['paul', 'write'],
      ['wendy', 'write'],
      ['rita', 'read'],
    ] as const) {
      const res = await t.request('PUT', `/api/v1/repos/alice/demo/collaborators/${user}`, {
        headers: basic('alice'),
        body: { permission },
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    await f.push('alice', 'demo', 'alice', 'main', { 'a.txt': 'one\ntwo\nthree\n' });
    expect(await f.pushAndOpen('alice', 'demo', 'paul', 'feature', { 'a.txt': 'one\n2\nthree\nfour\n' })).toBe(1);
    pullIds.set(1, await pullId(1));
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('addPullRequestReview: verdicts, pending reviews with line comments, refusals', async () => {
    const id = pullIds.get(1);
    expect(await pull(1, 'rita')).toMatchObject({ number: 1, reviewDecision: null, reviews: { totalCount: 0, nodes: [] } });

    const own = await mutate('addPullRequestReview', { pullRequestId: id, event: 'APPROVE' }, 'paul');
    expect(own.error).toMatchObject({ code: 'VALIDATION', message: 'approve your own pull is not allowed' });
    expect((await mutate('addPullRequestReview', { pullRequestId: id, event: 'REQUEST_CHANGES' }, 'wendy')).error).toMatchObject({
      code: 'VALIDATION',
      message: 'review event REQUEST_CHANGES requires a body',
    });
    expect(
      (await mutate('addPullRequestReview', { pullRequestId: encodeGlobalID('PullRequest', 999999), event: 'APPROVE' }, 'wendy')).error,
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(
      (await mutate('addPullRequestReview', { pullRequestId: encodeGlobalID('Issue', 1), event: 'APPROVE' }, 'wendy')).error,
    ).toMatchObject({
      code: 'NOT_FOUND',
    });

    // GitHub's multi-line form: a range is refused (Gitea comments one line); startLine equal to the line is that line.
    const range = await mutate(
      'addPullRequestReview',
      { pullRequestId: id, body: 'range', threads: [{ path: 'a.txt', startLine: 1, line: 2, body: 'these two' }] },
      'wendy',
    );
    expect(range.error).toMatchObject({ code: 'VALIDATION', field: 'startLine' });
    const pending = await mutate(
      'addPullRequestReview',
      {
        pullRequestId: id,
        body: 'first pass',
        threads: [
          { path: 'a.txt', startLine: 2, startSide: 'RIGHT', line: 2, body: 'why 2?' },
          null,
          { path: 'a.txt', line: 2, side: 'LEFT', body: 'was two' },
        ],
      },
      'wendy',
    );
    expect(pending.payload).toMatchObject({
      __typename: 'AddPullRequestReviewPayload',
      pullRequestReview: { state: 'PENDING', body: 'first pass', official: false, comments: { totalCount: 2 } },
    });
    const review = pending.payload?.pullRequestReview as { id: string; databaseId: number };

    // Pending: only its author sees it, everywhere.
    expect((await pull(1, 'rita'))?.reviews.totalCount).toBe(0);
    const mine = await pull(1, 'wendy');
    expect(mine?.reviews.nodes[0]).toMatchObject({ state: 'PENDING', submittedAt: null, author: { login: 'wendy' } });
    expect(mine?.reviews.nodes[0]?.comments.nodes).toEqual([
      {
        path: 'a.txt',
        line: 2,
        originalLine: null,
        diffSide: 'RIGHT',
        diffHunk: expect.stringContaining('+2'),
        body: 'why 2?',
        state: 'PENDING',
        author: { login: 'wendy' },
        pullRequestReview: { databaseId: review.databaseId },
      },
      {
        path: 'a.txt',
        line: null,
        originalLine: 2,
        diffSide: 'LEFT',
        diffHunk: expect.stringContaining('-two'),
        body: 'was two',
        state: 'PENDING',
        author: { login: 'wendy' },
        pullRequestReview: { databaseId: review.databaseId },
      },
    ]);
    const nodeQuery = `query($id: ID!) { node(id: $id) { ... on PullRequestReview { state } } }`;
    expect(
      (await gql<{ node: Json | null }>(t, nodeQuery, { variables: { id: review.id }, headers: basic('rita') })).data?.node,
    ).toBeNull();
    expect((await gql<{ node: Json | null }>(t, nodeQuery, { variables: { id: review.id }, headers: basic('wendy') })).data?.node).toEqual({
      state: 'PENDING',
    });

    const submitted = await mutate('submitPullRequestReview', { pullRequestReviewId: review.id, event: 'APPROVE', body: 'lgtm' }, 'wendy');
    expect(submitted.payload).toMatchObject({
      pullRequestReview: { id: review.id, state: 'APPROVED', body: 'lgtm', official: true, comments: { totalCount: 2 } },
    });
    expect((await mutate('submitPullRequestReview', { pullRequestReviewId: review.id, event: 'APPROVE' }, 'wendy')).error).toMatchObject({
      code: 'VALIDATION',
      message: 'only a pending review can be submitted',
    });

    const asRita = await pull(1, 'rita');
    expect(asRita).toMatchObject({ reviewDecision: 'APPROVED', reviews: { totalCount: 1 } });
    expect(asRita?.reviews.nodes[0]).toMatchObject({ state: 'APPROVED', official: true, author: { login: 'wendy' } });
    expect(asRita?.reviews.nodes[0]?.comments.nodes[0]).toMatchObject({ state: 'SUBMITTED' });
    expect(asRita?.reviews.nodes[0]?.submittedAt).toEqual(expect.any(String));
    expect(asRita?.reviews.nodes[0]?.commitOid).toMatch(/^[0-9a-f]{40}$/);

    // A reader's rejection is unofficial: the decision stays.
    await mutate('addPullRequestReview', { pullRequestId: id, event: 'REQUEST_CHANGES', body: 'hmm' }, 'rita');
    expect((await pull(1, 'rita'))?.reviewDecision).toBe('APPROVED');
    // An official one wins.
    await mutate('addPullRequestReview', { pullRequestId: id, event: 'REQUEST_CHANGES', body: 'on second thought' }, 'alice');
    expect((await pull(1, 'rita'))?.reviewDecision).toBe('CHANGES_REQUESTED');
    const byState = await pull(1, 'rita', ['CHANGES_REQUESTED']);
    expect(byState?.reviews.nodes.map((r) => r.author?.login)).toEqual(['rita', 'alice']);
    expect(byState?.reviews.totalCount).toBe(2);
    // The same reviewer approving later replaces the rejection.
    await mutate('addPullRequestReview', { pullRequestId: id, event: 'APPROVE' }, 'alice');
    expect((await pull(1, 'rita'))?.reviewDecision).toBe('APPROVED');
  });

  it('submitPullRequestReview by pull request, deletePullRequestReview, dismissPullRequestReview', async () => {
    const n = await f.pushAndOpen('alice', 'demo', 'paul', 'second', { 'b.txt': 'b\n' });
    const id = await pullId(n);
    pullIds.set(n, id);
    expect((await mutate('submitPullRequestReview', { pullRequestId: id, event: 'COMMENT', body: 'x' }, 'oscar')).error).toMatchObject({
      code: 'NOT_FOUND',
    });
    await mutate('addPullRequestReview', { pullRequestId: id, body: 'draft' }, 'oscar');
    const sub = await mutate('submitPullRequestReview', { pullRequestId: id, event: 'COMMENT', body: 'from an outsider' }, 'oscar');
    expect(sub.payload).toMatchObject({
      pullRequestReview: { state: 'COMMENTED', body: 'from an outsider', official: false, author: { login: 'oscar' } },
    });
    const oscars = sub.payload?.pullRequestReview as { id: string };

    expect(
      (await mutate('deletePullRequestReview', { pullRequestReviewId: oscars.id }, 'rita', 'pullRequest { number }')).error,
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    expect(
      (await mutate('deletePullRequestReview', { pullRequestReviewId: oscars.id }, 'oscar', 'pullRequest { number }')).payload,
    ).toMatchObject({
      pullRequest: { number: n },
    });
    expect((await pull(n, 'rita'))?.reviews.totalCount).toBe(0);

    const approval = (await mutate('addPullRequestReview', { pullRequestId: id, event: 'APPROVE' }, 'wendy')).payload
      ?.pullRequestReview as {
      id: string;
    };
    expect(
      (
        await mutate(
          'dismissPullRequestReview',
          { pullRequestReviewId: approval.id, message: 'stale' },
          'wendy',
          'pullRequestReview { state }',
        )
      ).error,
    ).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'Must be repo admin',
    });
    const dismissed = await mutate(
      'dismissPullRequestReview',
      { pullRequestReviewId: approval.id, message: 'stale' },
      'alice',
      'pullRequestReview { state dismissed }',
    );
    expect(dismissed.payload).toMatchObject({ pullRequestReview: { state: 'DISMISSED', dismissed: true } });
    expect(await pull(n, 'rita', ['DISMISSED'])).toMatchObject({ reviewDecision: null, reviews: { totalCount: 1 } });
    expect(
      (
        await mutate(
          'dismissPullRequestReview',
          { pullRequestReviewId: encodeGlobalID('PullRequestReview', 999999), message: 'x' },
          'alice',
        )
      ).error,
    ).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('requestReviews / requestReviewsByLogin: replace by default, union adds; reviewRequests lists users and teams', async () => {
    const n = await f.pushAndOpen('alice', 'demo', 'paul', 'third', { 'c.txt': 'c\n' });
    const id = await pullId(n);
    pullIds.set(n, id);
    const rita = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'rita' } });
    const select =
      'pullRequest { reviewRequests(first: 10) { totalCount nodes { official requestedReviewer { ... on User { login } } } } }';
    const first = await mutate(
      'requestReviews',
      { pullRequestId: id, userLogins: ['wendy'], userIds: [encodeGlobalID('User', rita.id)] },
      'paul',
      select,
    );
    expect(first.payload).toMatchObject({
      pullRequest: {
        reviewRequests: {
          totalCount: 2,
          nodes: [
            { official: true, requestedReviewer: { login: 'wendy' } },
            { official: false, requestedReviewer: { login: 'rita' } },
          ],
        },
      },
    });
    // Without union the requested set becomes exactly the given one.
    const replaced = await mutate('requestReviewsByLogin', { pullRequestId: id, userLogins: ['alice'] }, 'paul', select);
    expect(replaced.payload).toMatchObject({
      pullRequest: { reviewRequests: { totalCount: 1, nodes: [{ requestedReviewer: { login: 'alice' } }] } },
    });
    const union = await mutate('requestReviews', { pullRequestId: id, userLogins: ['wendy'], union: true }, 'paul', select);
    expect((union.payload?.pullRequest as { reviewRequests: { totalCount: number } }).reviewRequests.totalCount).toBe(2);
    expect((await mutate('requestReviews', { pullRequestId: id, userLogins: ['paul'], union: true }, 'paul', select)).error).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining("poster of pr can't be reviewer"),
    });
    expect((await mutate('requestReviews', { pullRequestId: id, userLogins: ['nobody'] }, 'paul', select)).error).toMatchObject({
      code: 'NOT_FOUND',
      message: "user doesn't exist: nobody",
    });
    expect((await mutate('requestReviews', { pullRequestId: id, userLogins: ['rita'], union: true }, 'oscar', select)).error).toMatchObject(
      {
        code: 'VALIDATION',
        message: expect.stringContaining("Doer can't choose reviewer"),
      },
    );
    // Replacing withdraws the others' requests first, which an outsider may not do either.
    expect((await mutate('requestReviews', { pullRequestId: id, userLogins: ['rita'] }, 'oscar', select)).error).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining("Doer can't remove reviewer"),
    });

    const requests = await pull(n, 'oscar');
    expect(requests?.reviewRequests.nodes.map((r) => r.requestedReviewer)).toEqual([
      { __typename: 'User', login: 'alice' },
      { __typename: 'User', login: 'wendy' },
    ]);
    const request = requests?.reviewRequests.nodes[0];
    const node = await gql<{ node: Json | null }>(
      t,
      'query($id: ID!) { node(id: $id) { ... on ReviewRequest { databaseId pullRequest { number } } } }',
      {
        variables: { id: request?.id },
        headers: basic('oscar'),
      },
    );
    expect(node.data?.node).toEqual({ databaseId: request?.databaseId, pullRequest: { number: n } });
    // A review request is not a review, and a review is not a request.
    expect(
      (
        await gql<{ node: Json | null }>(t, 'query($id: ID!) { node(id: $id) { id } }', {
          variables: { id: encodeGlobalID('PullRequestReview', request?.databaseId ?? 0) },
        })
      ).data?.node,
    ).toBeNull();

    // Teams of an organization repository.
    expect((await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'acme' } })).statusCode).toBe(201);
    expect(
      (
        await t.request('POST', '/api/v1/orgs/acme/repos', {
          headers: basic('alice'),
          body: { name: 'proj', auto_init: true, default_branch: 'main' },
        })
      ).statusCode,
    ).toBe(201);
    await f.push('acme', 'proj', 'alice', 'topic', { 't.txt': 't\n' });
    const opened = await f.open('acme', 'proj', 'alice', { head: 'topic', base: 'main' });
    const row = await t.db.pullRequest.findFirstOrThrow({
      where: { index: opened.json.number as number, baseRepo: { ownerName: 'acme' } },
    });
    const teamSelect = 'pullRequest { reviewRequests(first: 10) { nodes { requestedReviewer { __typename ... on Team { name } } } } }';
    const teams = await mutate(
      'requestReviews',
      { pullRequestId: encodeGlobalID('PullRequest', row.id), teamSlugs: ['owners'] },
      'alice',
      teamSelect,
    );
    expect(teams.payload).toMatchObject({
      pullRequest: { reviewRequests: { nodes: [{ requestedReviewer: { __typename: 'Team', name: 'Owners' } }] } },
    });
    // Anonymous viewers cannot see the team: the request is left out.
    const anon = await gql<{ node: Pull | null }>(
      t,
      'query($id: ID!) { node(id: $id) { ... on PullRequest { reviewRequests(first: 5) { totalCount } } } }',
      {
        variables: { id: encodeGlobalID('PullRequest', row.id) },
      },
    );
    expect(anon.data?.node).toEqual({ reviewRequests: { totalCount: 0 } });
  });

  it('private pull requests, their reviews, comments and requests are invisible to outsiders', async () => {
    await f.createRepo('alice', 'secret', { private: true });
    await f.push('alice', 'secret', 'alice', 'main', { 's.txt': 's\n' });
    const n = await f.pushAndOpen('alice', 'secret', 'alice', 'topic', { 's.txt': 'S\n' });
    const id = await pullId(n, 'secret');
    const review = await mutate(
      'addPullRequestReview',
      { pullRequestId: id, event: 'COMMENT', body: 'note', threads: [{ path: 's.txt', line: 1, body: 'here' }] },
      'root',
      'pullRequestReview { id comments(first: 1) { nodes { id } } }',
    );
    const r = review.payload?.pullRequestReview as { id: string; comments: { nodes: { id: string }[] } };
    expect((await mutate('addPullRequestReview', { pullRequestId: id, event: 'COMMENT', body: 'x' }, 'oscar')).error).toMatchObject({
      code: 'NOT_FOUND',
    });
    const q = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';
    const ids = [id, r.id, r.comments.nodes[0]?.id];
    expect((await gql<{ nodes: (Json | null)[] }>(t, q, { variables: { ids }, headers: basic('oscar') })).data?.nodes).toEqual([
      null,
      null,
      null,
    ]);
    expect((await gql<{ nodes: (Json | null)[] }>(t, q, { variables: { ids } })).data?.nodes).toEqual([null, null, null]);
    expect((await gql<{ nodes: (Json | null)[] }>(t, q, { variables: { ids }, headers: basic('alice') })).data?.nodes).toEqual(
      ids.map((x) => ({ id: x })),
    );
  });

  it("addPullRequestReview comments: GitHub's diff positions become lines of the pushed diff; positions outside it are refused", async () => {
    // a.txt's diff: @@ -1,3 +1,4 @@ / " one" (1) / "-two" (2) / "+2" (3) / " three" (4) / "+four" (5).
    const id = pullIds.get(1);
    for (const position of [6, 0]) {
      const out = await mutate(
        'addPullRequestReview',
        { pullRequestId: id, body: 'by position', comments: [{ path: 'a.txt', position, body: 'out of range' }] },
        'oscar',
      );
      expect(out.error).toMatchObject({
        code: 'VALIDATION',
        type: 'UNPROCESSABLE',
        message: `position ${position} is not a line in the diff of a.txt`,
      });
    }
    const elsewhere = await mutate(
      'addPullRequestReview',
      { pullRequestId: id, body: 'by position', comments: [{ path: 'zzz.txt', position: 1, body: 'no such file' }] },
      'oscar',
    );
    expect(elsewhere.error).toMatchObject({ type: 'UNPROCESSABLE', message: 'position 1 is not a line in the diff of zzz.txt' });
    // The refusals wrote nothing: oscar has no review yet.
    expect((await pull(1, 'oscar', ['PENDING']))?.reviews.totalCount).toBe(0);

    const placed = await mutate(
      'addPullRequestReview',
      {
        pullRequestId: id,
        body: 'by position',
        comments: [
          { path: 'a.txt', position: 2, body: 'the old two' },
          null,
          { path: 'a.txt', position: 5, body: 'the new four' },
          { path: 'a.txt', position: 1, body: 'context' },
        ],
      },
      'oscar',
    );
    expect(placed.error).toBeNull();
    const pending = (await pull(1, 'oscar', ['PENDING']))?.reviews.nodes[0];
    expect(pending?.comments.nodes.map((c) => [c.body, c.diffSide, c.line, c.originalLine])).toEqual([
      ['the old two', 'LEFT', null, 2],
      ['the new four', 'RIGHT', 4, null],
      ['context', 'RIGHT', 1, null],
    ]);
    expect(pending?.comments.nodes[1]?.diffHunk).toEqual(expect.stringContaining('+four'));
  });
});

const COUNTED = `{
  repository(owner: "acme", name: "board") {
    pullRequests(first: 30) {
      nodes {
        author { login }
        reviews(first: 10) { nodes { author { login } } }
        reviewRequests(first: 10) { nodes { requestedReviewer { ... on User { login } ... on Team { name } } } }
        files(first: 20) { nodes { path } }
      }
    }
  }
}`;

interface Counted {
  repository: {
    pullRequests: {
      nodes: {
        author: { login: string } | null;
        reviews: { nodes: { author: { login: string } | null }[] };
        reviewRequests: { nodes: { requestedReviewer: { login?: string; name?: string } | null }[] };
        files: { nodes: { path: string }[] } | null;
      }[];
    };
  };
}

/**
 * The N+1 guard: pull requests → author, reviews → author, review requests → user or team, files
 * costs the same number of SQL statements however many pull requests, reviews and requests there are.
 */
describe.each(PROVIDERS)('GraphQL pull request reviews: statement count (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let opened = 0;

  /** Opens pull requests until there are `n`, each with `reviews` reviews and a user and a team request. */
  async function growTo(n: number, reviews: number): Promise<void> {
    while (opened < n) {
      opened++;
      await f.push('acme', 'board', 'owner', `topic-${opened}`, { [`f${opened}.txt`]: 'x\n', [`g${opened}.txt`]: 'y\n' });
      const { json } = await f.open('acme', 'board', 'poster', { head: `topic-${opened}`, base: 'main' });
      const path = `/api/v1/repos/acme/board/pulls/${String(json.number)}`;
      for (let i = 0; i < reviews; i++) {
        const res = await t.request('POST', `${path}/reviews`, {
          headers: basic(`rev${i}`),
          body: { event: 'COMMENT', body: `review ${i}` },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const req = await t.request('POST', `${path}/requested_reviewers`, {
        headers: basic('owner'),
        body: { reviewers: ['rev9'], team_reviewers: ['reviewers'] },
      });
      expect(req.statusCode, req.body).toBe(201);
    }
  }

  async function count(n: number, reviews: number): Promise<number> {
    await t.app.deps.notifier.drain();
    t.queries.length = 0;
    const res = await gql<Counted>(t, COUNTED, { headers: basic('owner') });
    const statements = t.queries.length;
    expect(res.errors).toBeUndefined();
    const nodes = res.data?.repository.pullRequests.nodes ?? [];
    expect(nodes).toHaveLength(n);
    for (const pr of nodes) {
      expect(pr.author).toEqual({ login: 'poster' });
      expect(pr.reviews.nodes.length).toBeGreaterThanOrEqual(1);
      expect(pr.reviews.nodes.every((r) => r.author?.login.startsWith('rev'))).toBe(true);
      expect(pr.reviewRequests.nodes.map((r) => r.requestedReviewer)).toEqual([{ login: 'rev9' }, { name: 'reviewers' }]);
      expect(pr.files?.nodes).toHaveLength(2);
    }
    expect(nodes[0]?.reviews.nodes).toHaveLength(reviews);
    return statements;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const name of ['owner', 'poster', ...Array.from({ length: 10 }, (_, i) => `rev${i}`)]) await t.createUser(name);
    expect((await t.request('POST', '/api/v1/orgs', { headers: basic('owner'), body: { username: 'acme' } })).statusCode).toBe(201);
    expect(
      (
        await t.request('POST', '/api/v1/orgs/acme/repos', {
          headers: basic('owner'),
          body: { name: 'board', auto_init: true, default_branch: 'main' },
        })
      ).statusCode,
    ).toBe(201);
    const team = await t.request('POST', '/api/v1/orgs/acme/teams', {
      headers: basic('owner'),
      body: {
        name: 'reviewers',
        permission: 'read',
        units_map: { 'repo.code': 'read', 'repo.pulls': 'read' },
        includes_all_repositories: true,
      },
    });
    expect(team.statusCode, team.body).toBe(201);
    expect((await t.request('PUT', `/api/v1/teams/${String(team.json().id)}/members/rev9`, { headers: basic('owner') })).statusCode).toBe(
      204,
    );
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('stays constant as pull requests, reviews and requests grow', async () => {
    await growTo(2, 1);
    const small = await count(2, 1);
    await growTo(7, 3);
    const large = await count(7, 3);
    console.info(
      `[${provider}] pullRequests → author, reviews → author, reviewRequests → reviewer, files: ${small} statements for 2 pull requests, ${large} for 7`,
    );
    expect(large).toBe(small);
  });
});
