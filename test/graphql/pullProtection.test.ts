import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator } from '../helpers/fixtures.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';
import { restApi } from '../rest/protection/restApi.ts';
import { PullFixture } from '../helpers/pull.ts';

interface PullState {
  id: string;
  title: string;
  isDraft: boolean;
  mergeStateStatus: string;
  reviewDecision: string | null;
  viewerCanMerge: boolean;
  autoMergeRequest: { mergeMethod: string; commitHeadline: string; enabledBy: { login: string } } | null;
}

const STATE =
  'id title isDraft mergeStateStatus reviewDecision viewerCanMerge autoMergeRequest { mergeMethod commitHeadline enabledBy { login } }';

/** Issue 20 item 5 in the graph: protection-aware merge state, auto-merge and drafts, through the REST services. */
describe.each(PROVIDERS)('GraphQL pull request protection, auto-merge and drafts (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;

  const api = restApi(() => t);
  const pull = async (n: number, user = 'alice'): Promise<PullState> => {
    const res = await gql<{ repository: { pullRequest: PullState } }>(
      t,
      `{ repository(owner: "alice", name: "demo") { pullRequest(number: ${n}) { ${STATE} } } }`,
      { headers: basic(user) },
    );
    expect(res.errors).toBeUndefined();
    return res.data!.repository.pullRequest;
  };
  const run = async (name: string, input: Record<string, unknown>, user: string) => {
    const type = name[0]!.toUpperCase() + name.slice(1);
    const res = await gql<Record<string, { pullRequest: PullState } | null>>(
      t,
      `mutation($input: ${type}Input!) { ${name}(input: $input) { pullRequest { ${STATE} } } }`,
      { headers: basic(user), variables: { input } },
    );
    return { payload: res.data?.[name] ?? null, error: mutationError(res, name) };
  };
  /** A mutation that must succeed: its payload. */
  const mutate = async (name: string, input: Record<string, unknown>, user = 'alice') => {
    const { payload, error } = await run(name, input, user);
    expect(error).toBeNull();
    return payload!;
  };
  /** A mutation that must be refused: its error. */
  const refused = async (name: string, input: Record<string, unknown>, user = 'alice'): Promise<MutationError | null> => {
    const { payload, error } = await run(name, input, user);
    expect(payload).toBeNull();
    return error;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob', 'carol', 'dave']) await t.createUser(u);
    repo = await f.createRepo('alice', 'demo');
    for (const u of ['bob', 'carol']) await addCollaborator(t, repo, { name: u }, 'write');
    await addCollaborator(t, repo, { name: 'dave' }, 'read');
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('mergeStateStatus, reviewDecision and viewerCanMerge follow the rule the merge checks', async () => {
    const n = await f.pushAndOpen('alice', 'demo', 'bob', 'feature', { 'feature.txt': 'x\n' });
    await t.app.jobs.drain();
    expect(await pull(n, 'bob')).toMatchObject({ mergeStateStatus: 'CLEAN', reviewDecision: null, viewerCanMerge: true });

    const rule = await api('POST', '/repos/alice/demo/branch_protections', 'alice', {
      rule_name: 'main',
      enable_status_check: true,
      status_check_contexts: ['ci/*'],
      required_approvals: 1,
    });
    expect(rule.status).toBe(201);
    expect(await pull(n, 'bob')).toMatchObject({ mergeStateStatus: 'BLOCKED', reviewDecision: 'REVIEW_REQUIRED', viewerCanMerge: false });
    // A repository admin may override failed protection (force_merge), so the merge is open to her.
    expect((await pull(n, 'alice')).viewerCanMerge).toBe(true);

    const head = (await api('GET', `/repos/alice/demo/pulls/${n}`, 'alice')).json.head as { sha: string };
    await api('POST', `/repos/alice/demo/statuses/${head.sha}`, 'bob', { state: 'success', context: 'ci/build' });
    expect((await pull(n, 'bob')).mergeStateStatus).toBe('BLOCKED');
    expect((await api('POST', `/repos/alice/demo/pulls/${n}/reviews`, 'carol', { event: 'APPROVED', body: '' })).status).toBe(200);
    expect(await pull(n, 'bob')).toMatchObject({ mergeStateStatus: 'CLEAN', reviewDecision: 'APPROVED', viewerCanMerge: true });
    // A status no rule requires makes it UNSTABLE, not BLOCKED.
    await api('POST', `/repos/alice/demo/statuses/${head.sha}`, 'bob', { state: 'failure', context: 'lint' });
    expect((await pull(n, 'bob')).mergeStateStatus).toBe('UNSTABLE');
    expect((await api('POST', `/repos/alice/demo/pulls/${n}/reviews`, 'carol', { event: 'REQUEST_CHANGES', body: 'no' })).status).toBe(200);
    expect((await pull(n, 'bob')).reviewDecision).toBe('CHANGES_REQUESTED');
    await api('DELETE', '/repos/alice/demo/branch_protections/main', 'alice');
  });

  it('enablePullRequestAutoMerge / disablePullRequestAutoMerge schedule and cancel through the REST service', async () => {
    await api('POST', '/repos/alice/demo/branch_protections', 'alice', {
      rule_name: 'main',
      enable_status_check: true,
      status_check_contexts: ['ci'],
    });
    const n = await f.pushAndOpen('alice', 'demo', 'bob', 'auto', { 'auto.txt': 'x\n' });
    await t.app.jobs.drain();
    const { id } = await pull(n);
    const enabled = await mutate('enablePullRequestAutoMerge', { pullRequestId: id, mergeMethod: 'SQUASH', commitHeadline: 'Squashed' });
    expect(enabled.pullRequest.autoMergeRequest).toEqual({
      mergeMethod: 'SQUASH',
      commitHeadline: 'Squashed',
      enabledBy: { login: 'alice' },
    });
    expect((await refused('enablePullRequestAutoMerge', { pullRequestId: id }))?.code).toBe('CONFLICT');
    expect((await refused('disablePullRequestAutoMerge', { pullRequestId: id }, 'carol'))?.code).toBe('PERMISSION_DENIED');
    const disabled = await mutate('disablePullRequestAutoMerge', { pullRequestId: id });
    expect(disabled.pullRequest.autoMergeRequest).toBeNull();
    expect((await refused('disablePullRequestAutoMerge', { pullRequestId: id }))?.code).toBe('NOT_FOUND');

    // Scheduled again with GitHub's authorEmail (shown to the scheduler only), it merges by itself once the required
    // check passes, and the merge commit carries that address.
    expect((await refused('enablePullRequestAutoMerge', { pullRequestId: id, authorEmail: 'bob@example.com' }))?.code).toBe('VALIDATION');
    await mutate('enablePullRequestAutoMerge', { pullRequestId: id, authorEmail: 'alice@example.com' });
    const emailAs = async (user: string) =>
      (
        await gql<{ node: { autoMergeRequest: { authorEmail: string | null } } }>(
          t,
          `{ node(id: "${id}") { ... on PullRequest { autoMergeRequest { authorEmail } } } }`,
          {
            headers: basic(user),
          },
        )
      ).data?.node.autoMergeRequest.authorEmail;
    expect([await emailAs('alice'), await emailAs('bob')]).toEqual(['alice@example.com', null]);
    const head = (await api('GET', `/repos/alice/demo/pulls/${n}`, 'alice')).json.head as { sha: string };
    await api('POST', `/repos/alice/demo/statuses/${head.sha}`, 'bob', { state: 'success', context: 'ci' });
    await t.app.jobs.drain();
    const merged = (await api('GET', `/repos/alice/demo/pulls/${n}`, 'alice')).json;
    expect(merged.merged).toBe(true);
    const commit = (await api('GET', `/repos/alice/demo/git/commits/${merged.merge_commit_sha as string}`, 'alice')).json;
    expect((commit.commit as { committer: { email: string } }).committer.email).toBe('alice@example.com');
    await api('DELETE', '/repos/alice/demo/branch_protections/main', 'alice');
  });

  it('convertPullRequestToDraft / markPullRequestReadyForReview edit the title; leaving WIP feeds pull_request_ready_for_review on every door', async () => {
    const n = await f.pushAndOpen('alice', 'demo', 'bob', 'draft', { 'draft.txt': 'x\n' }, { title: 'Draft me' });
    const { id } = await pull(n);
    const draft = await mutate('convertPullRequestToDraft', { pullRequestId: id }, 'bob');
    expect(draft.pullRequest).toMatchObject({ title: 'WIP: Draft me', isDraft: true, mergeStateStatus: 'DRAFT' });
    const ready = await mutate('markPullRequestReadyForReview', { pullRequestId: id }, 'bob');
    expect(ready.pullRequest).toMatchObject({ title: 'Draft me', isDraft: false });
    await mutate('convertPullRequestToDraft', { pullRequestId: id }, 'bob');
    expect((await refused('markPullRequestReadyForReview', { pullRequestId: id }, 'dave'))?.code).toBe('PERMISSION_DENIED');
    await mutate('markPullRequestReadyForReview', { pullRequestId: id }, 'bob');
    await t.app.deps.notifier.drain();
    const rows = () =>
      t.db.action.findMany({
        where: { repoId: repo.id, opType: 'PULL_REQUEST_READY_FOR_REVIEW', userId: { not: 0 } },
        orderBy: { id: 'asc' },
      });
    expect((await rows()).filter((r) => r.actUserId === r.userId).map((r) => r.content)).toEqual([`${n}|Draft me`, `${n}|Draft me`]);

    // The REST door: a title edit from [WIP] to plain writes the same row.
    await api('PATCH', `/repos/alice/demo/issues/${n}`, 'bob', { title: '[WIP] Draft me again' });
    await api('PATCH', `/repos/alice/demo/pulls/${n}`, 'bob', { title: 'Ready now' });
    await t.app.deps.notifier.drain();
    expect((await rows()).filter((r) => r.actUserId === r.userId).map((r) => r.content)).toEqual([
      `${n}|Draft me`,
      `${n}|Draft me`,
      `${n}|Ready now`,
    ]);
    const feed = await api('GET', '/repos/alice/demo/activities/feeds', 'alice');
    expect((feed.json as unknown as { op_type: string }[]).some((a) => a.op_type === 'pull_request_ready_for_review')).toBe(true);

    // Notifications: going back to work in progress tells nobody; leaving it notifies the watchers (alice).
    const unread = async () => {
      await t.app.deps.notifier.drain();
      await t.app.jobs.drain();
      return (await api('GET', '/notifications/new', 'alice')).json.new;
    };
    await unread();
    expect((await api('PUT', '/notifications', 'alice')).status).toBe(205);
    await api('PATCH', `/repos/alice/demo/pulls/${n}`, 'bob', { title: 'WIP: once more' });
    expect(await unread()).toBe(0);
    await mutate('markPullRequestReadyForReview', { pullRequestId: id }, 'bob');
    expect(await unread()).toBe(1);
  });

  it('mergeStateStatus over a page of pull requests costs the same statements for 2 and for 5', async () => {
    await api('POST', '/repos/alice/demo/branch_protections', 'alice', { rule_name: 'main', required_approvals: 1 });
    const count = async () => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<{ repository: { pullRequests: { nodes: PullState[] } } }>(
        t,
        '{ repository(owner: "alice", name: "demo") { pullRequests(first: 20, states: OPEN) { nodes { mergeStateStatus reviewDecision viewerCanMerge } } } }',
        { headers: basic('bob') },
      );
      expect(res.errors).toBeUndefined();
      return { statements: t.queries.length, n: res.data!.repository.pullRequests.nodes.length };
    };
    const before = await count();
    for (let i = before.n; i < 2; i++) await f.pushAndOpen('alice', 'demo', 'bob', `sc-a${i}`, { [`sca${i}.txt`]: 'x\n' });
    const small = await count();
    for (let i = 0; i < 3; i++) await f.pushAndOpen('alice', 'demo', 'bob', `sc-b${i}`, { [`scb${i}.txt`]: 'x\n' });
    const large = await count();
    expect(large.n).toBe(small.n + 3);
    console.info(
      `[${provider}] pullRequests { mergeStateStatus reviewDecision viewerCanMerge }: ${small.statements} for ${small.n}, ${large.statements} for ${large.n}`,
    );
    expect(large.statements).toBe(small.statements);
  });
});
