import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, blockUser, createComment } from '../helpers/fixtures.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';

const CONTENTS = ['THUMBS_UP', 'THUMBS_DOWN', 'LAUGH', 'HOORAY', 'CONFUSED', 'HEART', 'ROCKET', 'EYES'];
const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

/** A mutation's outcome: the payload (`<Name>Payload`) or, for a refused mutation, the error at its path. */
interface Result<P> {
  payload: (P & { __typename: string }) | null;
  error: MutationError | null;
}
interface Group {
  content: string;
  createdAt: string | null;
  viewerHasReacted: boolean;
  reactors: { totalCount: number; nodes: { login: string }[] };
}
interface TimeNode {
  seconds: number;
  user: { login: string } | null;
}
interface TimesOut {
  totalTrackedTime: number | null;
  trackedTimes: { totalCount: number; nodes: TimeNode[] } | null;
}

const GROUPS = 'reactionGroups { content createdAt viewerHasReacted reactors(first: 10) { totalCount nodes { ... on User { login } } } }';
const TIMES = 'totalTrackedTime trackedTimes(first: 10) { totalCount nodes { seconds user { login } } }';

describe.each(PROVIDERS)('GraphQL reactions and tracked time (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};

  /** Runs `name(input: $input)` selecting `fields` on `<Name>Payload`, and returns the payload or the refusal. */
  async function mutate<P>(name: string, fields: string, input: Record<string, unknown>, viewer: string): Promise<Result<P>> {
    const type = name.charAt(0).toUpperCase() + name.slice(1);
    const q = `mutation($input: ${type}Input!) { ${name}(input: $input) { __typename ${fields} } }`;
    const res = await gql<Record<string, Result<P>['payload']>>(t, q, { variables: { input }, headers: as(viewer) });
    const error = mutationError(res, name);
    const payload = res.data?.[name] ?? null;
    if (!error && !payload) throw new Error(`no ${name} result`);
    return { payload, error };
  }
  /** As `mutate`, for a mutation that must succeed: its payload. */
  async function ok<P>(name: string, fields: string, input: Record<string, unknown>, viewer: string): Promise<P & { __typename: string }> {
    const { payload, error } = await mutate<P>(name, fields, input, viewer);
    if (!payload) throw new Error(`${name} was refused: ${JSON.stringify(error)}`);
    return payload;
  }
  async function newRepo(owner: string, name: string, isPrivate = false): Promise<Models.Repository> {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: as(owner), body: { name, private: isPrivate } });
    expect(res.statusCode, res.body).toBe(201);
    const repo = await t.db.repository.findUniqueOrThrow({ where: { id: res.json().id as number } });
    await addCollaborator(t, repo, users.reader!, 'read');
    await addCollaborator(t, repo, users.writer!, 'write');
    return repo;
  }
  async function newIssue(viewer: string, repo: string, title = 'an issue'): Promise<Models.Issue> {
    const res = await t.request('POST', `/api/v1/repos/${repo}/issues`, { headers: as(viewer), body: { title } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.issue.findUniqueOrThrow({ where: { id: res.json().id as number } });
  }
  const issueGid = (issue: Models.Issue) => encodeGlobalID('Issue', issue.id);
  const commentGid = (comment: Models.Comment) => encodeGlobalID('IssueComment', comment.id);
  async function issueNode<T>(issue: Models.Issue, fields: string, viewer: string): Promise<T | null> {
    const res = await gql<{ node: T | null }>(t, `{ node(id: "${issueGid(issue)}") { ... on Issue { ${fields} } } }`, {
      headers: as(viewer),
    });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data?.node ?? null;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'reader', 'writer', 'outsider', 'blocked']) users[n] = await t.createUser(n);
    await newRepo('alice', 'pub');
    await newRepo('alice', 'priv', true);
    await blockUser(t, users.alice!, users.blocked!);
  });
  afterAll(() => t.close());

  it('addReaction / removeReaction on an issue: idempotent, the same rows as REST, reactionGroups in GitHub form', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const fields = `reaction { databaseId content user { login } } subject { __typename ... on Issue { number } } ${GROUPS}`;
    type Payload = {
      reaction: { databaseId: number; content: string; user: { login: string } } | null;
      subject: { __typename: string; number: number };
      reactionGroups: Group[];
    };
    const added = await ok<Payload>('addReaction', fields, { subjectId: issueGid(issue), content: 'HEART' }, 'reader');
    expect(added.reaction).toMatchObject({ content: 'HEART', user: { login: 'reader' } });
    expect(added.subject).toEqual({ __typename: 'Issue', number: issue.index });
    expect(added.reactionGroups?.map((g) => g.content)).toEqual(CONTENTS);
    const heart = added.reactionGroups?.find((g) => g.content === 'HEART');
    expect(heart).toMatchObject({ viewerHasReacted: true, reactors: { totalCount: 1, nodes: [{ login: 'reader' }] } });
    expect(heart?.createdAt).toEqual(expect.any(String));
    expect(added.reactionGroups?.find((g) => g.content === 'EYES')).toEqual({
      content: 'EYES',
      createdAt: null,
      viewerHasReacted: false,
      reactors: { totalCount: 0, nodes: [] },
    });

    const again = await ok<Payload>('addReaction', fields, { subjectId: issueGid(issue), content: 'HEART' }, 'reader');
    expect(again.reaction?.databaseId).toBe(added.reaction?.databaseId);
    const rest = await t.request('GET', `/api/v1/repos/alice/pub/issues/${issue.index}/reactions`);
    expect(rest.json()).toEqual([expect.objectContaining({ content: 'heart', user: expect.objectContaining({ login: 'reader' }) })]);
    expect(
      (
        await t.request('POST', `/api/v1/repos/alice/pub/issues/${issue.index}/reactions`, {
          headers: as('writer'),
          body: { content: 'heart' },
        })
      ).statusCode,
    ).toBe(201);

    const asWriter = await issueNode<{ reactionGroups: Group[] }>(issue, GROUPS, 'writer');
    expect(asWriter?.reactionGroups.find((g) => g.content === 'HEART')).toMatchObject({
      viewerHasReacted: true,
      reactors: { totalCount: 2, nodes: [{ login: 'reader' }, { login: 'writer' }] },
    });
    const paged = await issueNode<{ reactionGroups: { reactors: { totalCount: number; nodes: { login: string }[] } }[] }>(
      issue,
      'reactionGroups { reactors(first: 1) { totalCount nodes { ... on User { login } } } }',
      'anon',
    );
    expect(paged?.reactionGroups[5]).toEqual({ reactors: { totalCount: 2, nodes: [{ login: 'reader' }] } });
    const asAnon = await issueNode<{ reactionGroups: Group[] }>(issue, GROUPS, 'anon');
    expect(asAnon?.reactionGroups.every((g) => !g.viewerHasReacted)).toBe(true);

    const removed = await ok<Payload>('removeReaction', fields, { subjectId: issueGid(issue), content: 'HEART' }, 'reader');
    expect(removed.reaction).toBeNull();
    expect(removed.reactionGroups?.find((g) => g.content === 'HEART')).toMatchObject({
      viewerHasReacted: false,
      reactors: { totalCount: 1, nodes: [{ login: 'writer' }] },
    });
  });

  it('IssueComment.reactionGroups and reactions on comments (subject IssueComment)', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    const comment = await createComment(t, users.writer!, issue, 'hi');
    const other = await createComment(t, users.writer!, issue, 'there');
    const added = await ok<{ subject: { __typename: string; databaseId: number } }>(
      'addReaction',
      'subject { __typename ... on IssueComment { databaseId } }',
      { subjectId: commentGid(comment), content: 'ROCKET' },
      'reader',
    );
    expect(added.subject).toEqual({ __typename: 'IssueComment', databaseId: comment.id });
    expect(
      (
        await t.request('POST', `/api/v1/repos/alice/pub/issues/comments/${other.id}/reactions`, {
          headers: as('alice'),
          body: { content: '-1' },
        })
      ).statusCode,
    ).toBe(201);
    t.queries.length = 0;
    const res = await gql<{ nodes: { databaseId: number; reactionGroups: Group[] }[] }>(
      t,
      `{ nodes(ids: ["${commentGid(comment)}", "${commentGid(other)}"]) { ... on IssueComment { databaseId ${GROUPS} } } }`,
      { headers: as('reader') },
    );
    expect(res.errors).toBeUndefined();
    // Both comments' reactions come from one batched query.
    expect(t.queries.filter((q) => /FROM\s+\S*Reaction\W/i.test(q))).toHaveLength(1);
    const [first, second] = res.data?.nodes ?? [];
    expect(first?.reactionGroups.find((g) => g.content === 'ROCKET')).toMatchObject({
      viewerHasReacted: true,
      reactors: { totalCount: 1, nodes: [{ login: 'reader' }] },
    });
    expect(second?.reactionGroups.find((g) => g.content === 'THUMBS_DOWN')).toMatchObject({
      viewerHasReacted: false,
      reactors: { nodes: [{ login: 'alice' }] },
    });
    expect(second?.reactionGroups.filter((g) => g.reactors.totalCount > 0)).toHaveLength(1);
    // The issue's own groups do not include its comments' reactions.
    expect(
      (await issueNode<{ reactionGroups: Group[] }>(issue, GROUPS, 'reader'))?.reactionGroups.every((g) => g.reactors.totalCount === 0),
    ).toBe(true);
  });

  it('reaction mutations are refused: anonymous, invisible, locked, blocked, wrong subject type', async () => {
    const pub = await newIssue('alice', 'alice/pub');
    const priv = await newIssue('alice', 'alice/priv');
    const code = async (viewer: string, subjectId: string) =>
      (await mutate<object>('addReaction', 'clientMutationId', { subjectId, content: 'EYES' }, viewer)).error?.code;
    expect(await code('anon', issueGid(pub))).toBe('UNAUTHENTICATED');
    expect(await code('outsider', issueGid(priv))).toBe('NOT_FOUND');
    expect(await code('anon', issueGid(priv))).toBe('NOT_FOUND');
    expect(await code('blocked', issueGid(pub))).toBe('PERMISSION_DENIED');
    expect(await code('reader', encodeGlobalID('User', users.alice!.id))).toBe('NOT_FOUND');
    expect(await code('reader', encodeGlobalID('Issue', 999999))).toBe('NOT_FOUND');
    await t.db.issue.update({ where: { id: pub.id }, data: { isLocked: true } });
    const locked = await mutate<object>('addReaction', 'clientMutationId', { subjectId: issueGid(pub), content: 'EYES' }, 'reader');
    expect(locked.error).toMatchObject({ code: 'PERMISSION_DENIED', message: 'no permission to change reaction' });
    expect(
      (await mutate<object>('addReaction', 'clientMutationId', { subjectId: issueGid(pub), content: 'EYES' }, 'writer')).error,
    ).toBeNull();
    expect(await issueNode(priv, GROUPS, 'outsider')).toBeNull();
  });

  it('tracked time: addTrackedTime/deleteTrackedTime through the REST services; Issue.trackedTimes and totalTrackedTime follow the REST rules', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    type AddOut = {
      trackedTime: { databaseId: number; seconds: number; createdAt: string; user: { login: string } };
      issue: { totalTrackedTime: number };
    };
    const added = await ok<AddOut>(
      'addTrackedTime',
      'trackedTime { databaseId seconds createdAt user { login } } issue { totalTrackedTime }',
      { issueId: issueGid(issue), seconds: 600, createdAt: '2020-02-02T02:02:02Z' },
      'writer',
    );
    expect(added.trackedTime).toMatchObject({ seconds: 600, createdAt: '2020-02-02T02:02:02.000Z', user: { login: 'writer' } });
    expect(added.issue?.totalTrackedTime).toBe(600);
    expect(
      (await t.request('POST', `/api/v1/repos/alice/pub/issues/${issue.index}/times`, { headers: as('alice'), body: { time: 60 } }))
        .statusCode,
    ).toBe(200);
    const rest = await t.request('GET', `/api/v1/repos/alice/pub/issues/${issue.index}/times`, { headers: as('alice') });
    expect(rest.json().map((x: { time: number }) => x.time)).toEqual([600, 60]);

    expect(await issueNode<TimesOut>(issue, TIMES, 'writer')).toEqual({
      totalTrackedTime: 660,
      trackedTimes: {
        totalCount: 2,
        nodes: [
          { seconds: 600, user: { login: 'writer' } },
          { seconds: 60, user: { login: 'alice' } },
        ],
      },
    });
    // Non-writers list only their own entries (as REST); the total is everyone's, as Gitea's issue page shows it.
    expect(await issueNode<TimesOut>(issue, TIMES, 'reader')).toEqual({
      totalTrackedTime: 660,
      trackedTimes: { totalCount: 0, nodes: [] },
    });
    expect(await issueNode<TimesOut>(issue, TIMES, 'anon')).toEqual({ totalTrackedTime: 660, trackedTimes: { totalCount: 0, nodes: [] } });

    const denied = await mutate<object>('addTrackedTime', 'clientMutationId', { issueId: issueGid(issue), seconds: 5 }, 'reader');
    expect(denied.error?.code).toBe('PERMISSION_DENIED');
    const zero = await mutate<object>('addTrackedTime', 'clientMutationId', { issueId: issueGid(issue), seconds: 0 }, 'writer');
    expect(zero.error).toMatchObject({ code: 'VALIDATION', field: 'seconds' });
    expect(
      (await mutate<object>('addTrackedTime', 'clientMutationId', { issueId: commentGidFor(issue), seconds: 5 }, 'writer')).error?.code,
    ).toBe('NOT_FOUND');

    const foreign = await mutate<object>('deleteTrackedTime', 'clientMutationId', { trackedTimeId: added.trackedTime.databaseId }, 'alice');
    expect(foreign.error?.code).toBe('PERMISSION_DENIED');
    const gone = await ok<{ issue: TimesOut }>(
      'deleteTrackedTime',
      `issue { ${TIMES} }`,
      { trackedTimeId: added.trackedTime.databaseId },
      'writer',
    );
    expect(gone.issue).toEqual({
      totalTrackedTime: 60,
      trackedTimes: { totalCount: 1, nodes: [{ seconds: 60, user: { login: 'alice' } }] },
    });
    expect(
      (await mutate<object>('deleteTrackedTime', 'clientMutationId', { trackedTimeId: added.trackedTime.databaseId }, 'writer')).error
        ?.code,
    ).toBe('NOT_FOUND');
    expect((await mutate<object>('deleteTrackedTime', 'clientMutationId', { trackedTimeId: 999999 }, 'writer')).error?.code).toBe(
      'NOT_FOUND',
    );

    const reset = await ok<{ issue: TimesOut }>('resetTrackedTimes', `issue { ${TIMES} }`, { issueId: issueGid(issue) }, 'alice');
    expect(reset.issue).toEqual({ totalTrackedTime: 0, trackedTimes: { totalCount: 0, nodes: [] } });
  });

  it('stopwatch mutations, and a disabled time tracker: the fields are null and adding is INVALID_ARGUMENT', async () => {
    const issue = await newIssue('alice', 'alice/pub');
    expect(await mutate<object>('startStopwatch', 'clientMutationId', { issueId: issueGid(issue) }, 'writer')).toEqual({
      payload: { __typename: 'StartStopwatchPayload', clientMutationId: null },
      error: null,
    });
    expect((await mutate<object>('startStopwatch', 'clientMutationId', { issueId: issueGid(issue) }, 'writer')).error?.code).toBe(
      'CONFLICT',
    );
    const stopped = await ok<{ issue: TimesOut }>('stopStopwatch', `issue { ${TIMES} }`, { issueId: issueGid(issue) }, 'writer');
    expect(stopped.issue?.trackedTimes?.totalCount).toBe(1);
    expect((await mutate<object>('cancelStopwatch', 'clientMutationId', { issueId: issueGid(issue) }, 'writer')).error?.code).toBe(
      'CONFLICT',
    );
    expect((await mutate<object>('startStopwatch', 'clientMutationId', { issueId: issueGid(issue) }, 'reader')).error?.code).toBe(
      'PERMISSION_DENIED',
    );

    const patched = await t.request('PATCH', '/api/v1/repos/alice/pub', {
      headers: as('alice'),
      body: {
        has_issues: true,
        internal_tracker: { enable_time_tracker: false, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true },
      },
    });
    expect(patched.statusCode).toBe(200);
    expect(await issueNode<TimesOut>(issue, TIMES, 'alice')).toEqual({ totalTrackedTime: null, trackedTimes: null });
    expect(
      (await mutate<object>('addTrackedTime', 'clientMutationId', { issueId: issueGid(issue), seconds: 5 }, 'alice')).error?.code,
    ).toBe('INVALID_ARGUMENT');
  });

  it('repository { issues(first: 50) } with reactionGroups and tracked times costs the same statements for 2 and 12 issues', async () => {
    await newRepo('alice', 'busy');
    const reactors = ['alice', 'reader', 'writer'];
    const add = async (n: number, perIssue: number) => {
      for (let i = 0; i < n; i++) {
        const issue = await newIssue('alice', 'alice/busy', `i${i}`);
        for (const who of reactors.slice(0, perIssue)) {
          expect(
            (
              await t.request('POST', `/api/v1/repos/alice/busy/issues/${issue.index}/reactions`, {
                headers: as(who),
                body: { content: 'heart' },
              })
            ).statusCode,
          ).toBe(201);
        }
        expect(
          (await t.request('POST', `/api/v1/repos/alice/busy/issues/${issue.index}/times`, { headers: as('writer'), body: { time: 30 } }))
            .statusCode,
        ).toBe(200);
      }
    };
    const q = `{ repository(owner: "alice", name: "busy") { issues(first: 50) { totalCount nodes { number reactionGroups { content viewerHasReacted reactors(first: 5) { totalCount nodes { ... on User { login } } } } ${TIMES} } } } }`;
    type Out = { repository: { issues: { totalCount: number; nodes: ({ reactionGroups: Group[] } & TimesOut)[] } } };
    const measure = async () => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await gql<Out>(t, q, { headers: as('reader') });
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return { statements: t.queries.length, sql: [...t.queries], issues: res.data?.repository.issues };
    };
    await add(2, 1);
    await measure(); // warm-up (PostgreSQL type lookups)
    const small = await measure();
    await add(10, 3);
    const large = await measure();
    expect(small.issues?.totalCount).toBe(2);
    expect(large.issues?.totalCount).toBe(12);
    const hearts = large.issues?.nodes.map((n) => n.reactionGroups.find((g) => g.content === 'HEART')?.reactors.totalCount);
    expect(hearts?.filter((c) => c === 3)).toHaveLength(10);
    expect(large.issues?.nodes.every((n) => n.totalTrackedTime === 30 && n.trackedTimes?.totalCount === 0)).toBe(true);
    console.info(
      `[${provider}] issues(first: 50) with reactionGroups and tracked times: ${small.statements} statements for 2 issues, ${large.statements} for 12`,
    );
    expect(large.statements, large.sql.join('\n')).toBe(small.statements);
  });

  /** An IssueComment global id whose number is an issue id: must not be taken for that issue. */
  function commentGidFor(issue: Models.Issue): string {
    return encodeGlobalID('IssueComment', issue.id);
  }
});
