import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

interface PullNode {
  id: string;
  number: number;
  baseRefName: string;
  merged: boolean;
  viewerCanMerge: boolean;
}

describe.each(PROVIDERS)('GraphQL updatePullRequest / mergePullRequest (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const name of ['alice', 'writer', 'reader', 'bob']) await t.createUser(name);
    await f.createRepo('alice', 'demo');
    for (const [user, permission] of [
      ['reader', 'read'],
      ['writer', 'write'],
    ] as const) {
      expect(
        (await t.request('PUT', `/api/v1/repos/alice/demo/collaborators/${user}`, { headers: basic('alice'), body: { permission } }))
          .statusCode,
      ).toBe(204);
    }
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  /** The pull request's global id and viewer fields, as `user` sees it. */
  const pullNode = async (index: number, user = 'alice'): Promise<PullNode> => {
    const res = await gql<{ repository: { pullRequest: PullNode } }>(
      t,
      `{ repository(owner: "alice", name: "demo") { pullRequest(number: ${index}) { id number baseRefName merged viewerCanMerge } } }`,
      { headers: basic(user) },
    );
    expect(res.errors).toBeUndefined();
    return res.data!.repository.pullRequest;
  };

  const UPDATE = `mutation($input: UpdatePullRequestInput!) { updatePullRequest(input: $input) {
    __typename pullRequest { number title body baseRefName state } } }`;
  const MERGE = `mutation($input: MergePullRequestInput!) { mergePullRequest(input: $input) {
    __typename pullRequest { number merged state mergeCommitOid } } }`;
  type Updated = { updatePullRequest: { pullRequest: { title: string; body: string; baseRefName: string; state: string } } | null };
  type Merged = { mergePullRequest: { pullRequest: { merged: boolean; state: string; mergeCommitOid: string } } | null };

  it('updatePullRequest edits title, body, base, state and labels through the REST service', async () => {
    await f.push('alice', 'demo', 'alice', 'develop', { 'dev.txt': 'dev\n' });
    const index = await f.pushAndOpen('alice', 'demo', 'writer', 'gq-edit', { 'gq.txt': 'one\n' }, { title: 'before' });
    const node = await pullNode(index);
    const label = (
      await t.request('POST', '/api/v1/repos/alice/demo/labels', { headers: basic('alice'), body: { name: 'gq', color: '00ff00' } })
    ).json() as { id: number };
    const labelNode = await gql<{ repository: { label: { id: string } } }>(
      t,
      '{ repository(owner: "alice", name: "demo") { label(name: "gq") { id } } }',
      { headers: basic('alice') },
    );
    const labelId = labelNode.data?.repository.label.id;
    expect(labelId).toEqual(expect.any(String));

    const res = await gql<Updated>(t, UPDATE, {
      headers: basic('writer'),
      variables: { input: { pullRequestId: node.id, title: 'after', body: 'text', baseRefName: 'develop', labelIds: [labelId] } },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.updatePullRequest?.pullRequest).toMatchObject({ title: 'after', body: 'text', baseRefName: 'develop', state: 'OPEN' });
    const rest = (await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}`)).json() as {
      base: { ref: string };
      labels: { id: number }[];
    };
    expect(rest.base.ref).toBe('develop');
    expect(rest.labels.map((l) => l.id)).toEqual([label.id]);

    // GitHub's assigneeIds and projectIds, by global id: the new sets.
    const ids = await gql<{ user: { id: string } }>(t, '{ user(login: "writer") { id } }', { headers: basic('alice') });
    const board = (
      await t.request('POST', '/api/v1/repos/alice/demo/projects', { headers: basic('alice'), body: { title: 'PR board' } })
    ).json<{ id: number }>();
    const sets = await gql<{
      updatePullRequest: {
        pullRequest: { assignees: { nodes: { login: string }[] }; projectCards: { nodes: { project: { name: string } }[] } };
      } | null;
    }>(
      t,
      `mutation($input: UpdatePullRequestInput!) { updatePullRequest(input: $input) {
        pullRequest { assignees(first: 5) { nodes { login } } projectCards(first: 5) { nodes { project { name } } } } } }`,
      {
        headers: basic('writer'),
        variables: {
          input: { pullRequestId: node.id, assigneeIds: [ids.data?.user.id], projectIds: [encodeGlobalID('Project', board.id)] },
        },
      },
    );
    expect(sets.errors, JSON.stringify(sets.errors)).toBeUndefined();
    expect(sets.data?.updatePullRequest?.pullRequest).toEqual({
      assignees: { nodes: [{ login: 'writer' }] },
      projectCards: { nodes: [{ project: { name: 'PR board' } }] },
    });

    const closed = await gql<Updated>(t, UPDATE, {
      headers: basic('writer'),
      variables: { input: { pullRequestId: node.id, state: 'CLOSED' } },
    });
    expect(closed.data?.updatePullRequest?.pullRequest.state).toBe('CLOSED');
    const reopened = await gql<Updated>(t, UPDATE, {
      headers: basic('writer'),
      variables: { input: { pullRequestId: node.id, state: 'OPEN' } },
    });
    expect(reopened.data?.updatePullRequest?.pullRequest.state).toBe('OPEN');

    // Typed errors: missing base (NOT_FOUND), a stranger (PERMISSION_DENIED), a stale version (CONFLICT), an id of another type.
    const missing = await gql<Updated>(t, UPDATE, {
      headers: basic('writer'),
      variables: { input: { pullRequestId: node.id, baseRefName: 'nope' } },
    });
    expect(mutationError(missing, 'updatePullRequest')).toMatchObject({
      code: 'NOT_FOUND',
      message: "new base 'nope' not exist",
    });
    const stranger = await gql<Updated>(t, UPDATE, {
      headers: basic('bob'),
      variables: { input: { pullRequestId: node.id, title: 'x' } },
    });
    expect(mutationError(stranger, 'updatePullRequest')).toMatchObject({ code: 'PERMISSION_DENIED' });
    const stale = await gql<Updated>(t, UPDATE, {
      headers: basic('writer'),
      variables: { input: { pullRequestId: node.id, body: 'x', contentVersion: 999 } },
    });
    expect(mutationError(stale, 'updatePullRequest')).toMatchObject({ code: 'CONFLICT' });
    const anon = await gql<Updated>(t, UPDATE, {
      variables: { input: { pullRequestId: node.id, title: 'x' } },
    });
    expect(mutationError(anon, 'updatePullRequest')).toMatchObject({ code: 'UNAUTHENTICATED' });
    const wrongType = await gql<Updated>(t, UPDATE, {
      headers: basic('alice'),
      variables: { input: { pullRequestId: labelId, title: 'x' } },
    });
    expect(mutationError(wrongType, 'updatePullRequest')).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('mergePullRequest merges with each method the REST route has, viewerCanMerge follows the permission, refusals are typed', async () => {
    const index = await f.pushAndOpen('alice', 'demo', 'writer', 'gq-merge', { 'gm.txt': 'one\n' }, { title: 'Merge via GraphQL' });
    const node = await pullNode(index);
    expect(node.viewerCanMerge).toBe(true);
    expect((await pullNode(index, 'reader')).viewerCanMerge).toBe(false);
    expect((await pullNode(index, 'writer')).viewerCanMerge).toBe(true);

    const denied = await gql<Merged>(t, MERGE, {
      headers: basic('reader'),
      variables: { input: { pullRequestId: node.id } },
    });
    expect(mutationError(denied, 'mergePullRequest')).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'User not allowed to merge PR',
    });
    const stale = await gql<Merged>(t, MERGE, {
      headers: basic('writer'),
      variables: { input: { pullRequestId: node.id, expectedHeadOid: '0'.repeat(40) } },
    });
    expect(mutationError(stale, 'mergePullRequest')).toMatchObject({ code: 'CONFLICT', message: 'head out of date' });

    // GitHub's authorEmail: one of the merger's activated addresses, else refused before anything merges.
    expect(
      (await t.request('POST', '/api/v1/user/emails', { headers: basic('writer'), body: { emails: ['w2@example.com'] } })).statusCode,
    ).toBe(201);
    const squash = { pullRequestId: node.id, mergeMethod: 'SQUASH', commitHeadline: 'Squashed through GraphQL', commitBody: 'details' };
    const foreignEmail = await gql<Merged>(t, MERGE, {
      headers: basic('writer'),
      variables: { input: { ...squash, authorEmail: 'alice@example.com' } },
    });
    expect(mutationError(foreignEmail, 'mergePullRequest')).toMatchObject({ code: 'VALIDATION', field: 'authorEmail' });
    const res = await gql<Merged>(t, MERGE, {
      headers: basic('writer'),
      variables: { input: { ...squash, authorEmail: 'W2@example.com' } },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.mergePullRequest?.pullRequest).toMatchObject({ merged: true, state: 'MERGED' });
    const dir = f.git.dir('gq-clone');
    await f.git.ok(['clone', '-q', f.url('alice', 'demo', 'alice'), dir]);
    const log = (await f.git.ok(['log', '-1', '--format=%H %P|%B'], { cwd: dir })).trim();
    expect(log.split('|')[0]?.split(' ')).toHaveLength(2);
    expect(log.split('|')[0]?.split(' ')[0]).toBe(res.data?.mergePullRequest?.pullRequest.mergeCommitOid);
    expect(log.split('|')[1]).toMatch(/^Squashed through GraphQL\n\ndetails/);
    expect((await f.git.ok(['log', '-1', '--format=%ce'], { cwd: dir })).trim()).toBe('w2@example.com');
    expect((await pullNode(index)).viewerCanMerge).toBe(false);
    const again = await gql<Merged>(t, MERGE, {
      headers: basic('writer'),
      variables: { input: { pullRequestId: node.id } },
    });
    expect(mutationError(again, 'mergePullRequest')).toMatchObject({ code: 'PRECONDITION_FAILED', message: 'The PR is already merged' });

    // FAST_FORWARD_ONLY and a disallowed method.
    const ffIndex = await f.pushAndOpen('alice', 'demo', 'writer', 'gq-ff', { 'ff.txt': 'one\n' }, { title: 'ff' });
    const ffNode = await pullNode(ffIndex);
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/demo', { headers: basic('alice'), body: { allow_rebase: false } })).statusCode,
    ).toBe(200);
    const refused = await gql<Merged>(t, MERGE, {
      headers: basic('alice'),
      variables: { input: { pullRequestId: ffNode.id, mergeMethod: 'REBASE' } },
    });
    expect(mutationError(refused, 'mergePullRequest')).toMatchObject({
      code: 'PRECONDITION_FAILED',
      message: 'rebase is not allowed an allowed merge style for this repository',
    });
    const head = (await t.request('GET', `/api/v1/repos/alice/demo/pulls/${ffIndex}`)).json() as { head: { sha: string } };
    const ff = await gql<Merged>(t, MERGE, {
      headers: basic('alice'),
      variables: {
        input: { pullRequestId: ffNode.id, mergeMethod: 'FAST_FORWARD_ONLY', expectedHeadOid: head.head.sha, deleteBranch: true },
      },
    });
    expect(ff.data?.mergePullRequest?.pullRequest.mergeCommitOid).toBe(head.head.sha);
    expect((await t.request('GET', '/api/v1/repos/alice/demo/branches/gq-ff')).statusCode).toBe(404);

    const unknown = await gql<Merged>(t, MERGE, {
      headers: basic('alice'),
      variables: { input: { pullRequestId: 'UHVsbFJlcXVlc3Q6OTk5OQ==' } },
    });
    expect(mutationError(unknown, 'mergePullRequest')).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('pullRequests { nodes { viewerCanMerge } } costs the same number of statements for 2 and for 6 pull requests', async () => {
    await f.createRepo('alice', 'many');
    await t.request('PUT', '/api/v1/repos/alice/many/collaborators/writer', { headers: basic('alice'), body: { permission: 'write' } });
    let opened = 0;
    const growTo = async (n: number) => {
      while (opened < n) {
        opened++;
        await f.pushAndOpen('alice', 'many', 'writer', `many-${opened}`, { [`m${opened}.txt`]: 'x\n' });
      }
    };
    const count = async (n: number) => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<{ repository: { pullRequests: { nodes: { viewerCanMerge: boolean }[] } } }>(
        t,
        '{ repository(owner: "alice", name: "many") { pullRequests(first: 20) { nodes { number viewerCanMerge } } } }',
        { headers: basic('writer') },
      );
      expect(res.errors).toBeUndefined();
      expect(res.data?.repository.pullRequests.nodes).toHaveLength(n);
      expect(res.data?.repository.pullRequests.nodes.every((p) => p.viewerCanMerge)).toBe(true);
      return t.queries.length;
    };
    await growTo(2);
    const small = await count(2);
    await growTo(6);
    const large = await count(6);
    console.info(`[${provider}] pullRequests { viewerCanMerge }: ${small} statements for 2, ${large} for 6`);
    expect(large).toBe(small);
  });
});
