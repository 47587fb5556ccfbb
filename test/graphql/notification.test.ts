import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createRepo } from '../helpers/fixtures.ts';
import { gql, mutationError, type MutationError } from '../helpers/graphql.ts';

interface ThreadNode {
  id: string;
  databaseId: number;
  status: string;
  unread: boolean;
  title: string;
  subjectType: string;
  subjectState: string | null;
  subjectUrl: string | null;
  repository: { nameWithOwner: string } | null;
}

describe.each(PROVIDERS)('GraphQL stars, subscriptions and notifications (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  let pubId = '';
  let privId = '';

  async function run<T>(query: string, as: string | null, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await gql<T>(t, query, { variables, headers: as ? basic(as) : {} });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    return res.data as T;
  }
  /** Runs mutation `name` selecting `__typename` and `fields` of its payload: the payload (null when refused) and the refusal. */
  async function mutate(
    name: string,
    input: Record<string, unknown>,
    as: string,
    fields = '',
  ): Promise<{ payload: Record<string, unknown> | null; error: MutationError | null }> {
    const cap = name.charAt(0).toUpperCase() + name.slice(1);
    const res = await gql<Record<string, Record<string, unknown> | null>>(
      t,
      `mutation($input: ${cap}Input!) { ${name}(input: $input) { __typename ${fields} } }`,
      { variables: { input }, headers: basic(as) },
    );
    const error = mutationError(res, name);
    const payload = res.data?.[name] ?? null;
    if (!error && !payload) throw new Error(`no ${name} result: ${JSON.stringify(res)}`);
    return { payload, error };
  }
  const threadsQuery = (args: string) =>
    `{ viewer { unreadNotificationCount notificationThreads(${args}) { totalCount nodes { id databaseId status unread title subjectType subjectState subjectUrl repository { nameWithOwner } } } } }`;
  async function threads(as: string, args = 'first: 20') {
    const data = await run<{
      viewer: { unreadNotificationCount: number; notificationThreads: { totalCount: number; nodes: ThreadNode[] } };
    }>(threadsQuery(args), as);
    return data.viewer;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol']) users[n] = await t.createUser(n);
    await createRepo(t, users.alice!, 'pub');
    const priv = await createRepo(t, users.alice!, 'priv', { private: true });
    await addCollaborator(t, priv, users.bob!, 'READ');
    const ids = await run<{ a: { id: string }; b: { id: string } }>(
      '{ a: repository(owner: "alice", name: "pub") { id } b: repository(owner: "alice", name: "priv") { id } }',
      'alice',
    );
    pubId = ids.a.id;
    privId = ids.b.id;
  });
  afterAll(() => t.close());

  it('addStar / removeStar: counts, viewerHasStarred, stargazers and starredRepositories through the read policy', async () => {
    expect((await mutate('addStar', { starrableId: pubId }, 'bob', 'starrable { stargazerCount viewerHasStarred }')).payload).toMatchObject(
      {
        __typename: 'AddStarPayload',
        starrable: { stargazerCount: 1, viewerHasStarred: true },
      },
    );
    expect((await mutate('addStar', { starrableId: pubId }, 'bob')).error).toBeNull();
    expect((await mutate('addStar', { starrableId: privId }, 'bob')).error).toBeNull();
    expect((await mutate('addStar', { starrableId: privId }, 'carol')).error).toMatchObject({ code: 'NOT_FOUND' });
    const seen = await run<{ user: { starredRepositories: { totalCount: number; nodes: { nameWithOwner: string }[] } } }>(
      '{ user(login: "bob") { starredRepositories(first: 10) { totalCount nodes { nameWithOwner } } } }',
      'carol',
    );
    expect(seen.user.starredRepositories).toEqual({ totalCount: 1, nodes: [{ nameWithOwner: 'alice/pub' }] });
    const own = await run<{ viewer: { starredRepositories: { totalCount: number } } }>(
      '{ viewer { starredRepositories(first: 10) { totalCount } } }',
      'bob',
    );
    expect(own.viewer.starredRepositories.totalCount).toBe(2);
    const repo = await run<{ repository: { stargazerCount: number; stargazers: { totalCount: number; nodes: { login: string }[] } } }>(
      '{ repository(owner: "alice", name: "pub") { stargazerCount stargazers(first: 5) { totalCount nodes { login } } } }',
      null,
    );
    expect(repo.repository).toEqual({ stargazerCount: 1, stargazers: { totalCount: 1, nodes: [{ login: 'bob' }] } });
    expect((await mutate('removeStar', { starrableId: pubId }, 'bob')).error).toBeNull();
    const after = await run<{ repository: { stargazerCount: number; viewerHasStarred: boolean } }>(
      '{ repository(owner: "alice", name: "pub") { stargazerCount viewerHasStarred } }',
      'bob',
    );
    expect(after.repository).toEqual({ stargazerCount: 0, viewerHasStarred: false });
  });

  it('updateSubscription: SUBSCRIBED, IGNORED, UNSUBSCRIBED; viewerSubscription, watchers and watching agree', async () => {
    expect((await mutate('updateSubscription', { subscribableId: pubId, state: 'SUBSCRIBED' }, 'carol', 'state')).payload).toMatchObject({
      state: 'SUBSCRIBED',
    });
    const repo = await run<{ repository: { watcherCount: number; viewerSubscription: string; watchers: { nodes: { login: string }[] } } }>(
      '{ repository(owner: "alice", name: "pub") { watcherCount viewerSubscription watchers(first: 5) { nodes { login } } } }',
      'carol',
    );
    expect(repo.repository).toEqual({
      watcherCount: 2,
      viewerSubscription: 'SUBSCRIBED',
      watchers: { nodes: [{ login: 'alice' }, { login: 'carol' }] },
    });
    const watching = await run<{ viewer: { watching: { totalCount: number } } }>(
      '{ viewer { watching(first: 5) { totalCount } } }',
      'carol',
    );
    expect(watching.viewer.watching.totalCount).toBe(1);
    expect((await mutate('updateSubscription', { subscribableId: pubId, state: 'IGNORED' }, 'carol')).error).toBeNull();
    const ignored = await run<{ repository: { watcherCount: number; viewerSubscription: string } }>(
      '{ repository(owner: "alice", name: "pub") { watcherCount viewerSubscription } }',
      'carol',
    );
    expect(ignored.repository).toEqual({ watcherCount: 1, viewerSubscription: 'IGNORED' });
    expect((await mutate('updateSubscription', { subscribableId: pubId, state: 'UNSUBSCRIBED' }, 'carol')).error).toBeNull();
    const anon = await run<{ repository: { viewerSubscription: string | null } }>(
      '{ repository(owner: "alice", name: "pub") { viewerSubscription } }',
      null,
    );
    expect(anon.repository.viewerSubscription).toBeNull();
  });

  it('star and watch fields under a list of repositories: the statement count depends on the shape only', async () => {
    const query = `{ user(login: "LOGIN") { repositories(first: 20) { nodes { viewerHasStarred viewerSubscription stargazerCount
      stargazers(first: 3) { totalCount nodes { login } } watchers(first: 3) { totalCount nodes { login } } } }
      starredRepositories(first: 5) { totalCount nodes { name } } watching(first: 5) { totalCount nodes { name } } } }`;
    const count = async (login: string) => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      await run(query.replace('LOGIN', login), 'bob');
      return t.queries.length;
    };
    const one = await t.createUser('one');
    const many = await t.createUser('many');
    await createRepo(t, one, 'r0');
    for (let i = 0; i < 4; i++) {
      const r = await createRepo(t, many, `r${i}`);
      await t.db.star.create({ data: { userId: many.id, repoId: r.id } });
    }
    expect(await count('many')).toBe(await count('one'));
  });

  it('viewer.notificationThreads: filters, totalCount, subject fields; marking read, unread, pinned and all', async () => {
    await t.request('POST', '/api/v1/repos/alice/pub/issues', { headers: basic('bob'), body: { title: 'one' } });
    await t.request('POST', '/api/v1/repos/alice/priv/issues', { headers: basic('bob'), body: { title: 'two' } });
    await t.app.jobs.drain();
    const mine = await threads('alice');
    expect(mine.unreadNotificationCount).toBe(2);
    expect(mine.notificationThreads.totalCount).toBe(2);
    expect(mine.notificationThreads.nodes.map((n) => n.title).sort()).toEqual(['one', 'two']);
    const one = mine.notificationThreads.nodes.find((n) => n.title === 'one')!;
    expect(one).toMatchObject({
      status: 'UNREAD',
      unread: true,
      subjectType: 'ISSUE',
      subjectState: 'OPEN',
      subjectUrl: `${t.config.rootUrl}alice/pub/issues/1`,
      repository: { nameWithOwner: 'alice/pub' },
    });
    expect((await threads('alice', 'first: 1')).notificationThreads).toMatchObject({ totalCount: 2, nodes: [expect.anything()] });
    expect((await threads('alice', 'first: 5, subjectTypes: [PULL_REQUEST]')).notificationThreads.totalCount).toBe(0);
    expect((await threads('alice', 'first: 5, repositoryOwner: "alice", repositoryName: "priv"')).notificationThreads.totalCount).toBe(1);
    expect((await threads('alice', 'first: 5, since: "2999-01-01T00:00:00Z"')).notificationThreads.totalCount).toBe(0);

    expect((await mutate('markNotificationAsRead', { id: one.id }, 'alice', 'notificationThread { status unread }')).payload).toMatchObject(
      {
        notificationThread: { status: 'READ', unread: false },
      },
    );
    expect((await threads('alice')).notificationThreads.totalCount).toBe(1);
    expect((await threads('alice', 'first: 5, all: true')).notificationThreads.totalCount).toBe(2);
    expect((await mutate('markNotificationAsRead', { id: one.id }, 'bob')).error).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect((await mutate('markNotificationAsPinned', { id: one.id }, 'alice', 'notificationThread { status }')).payload).toMatchObject({
      notificationThread: { status: 'PINNED' },
    });
    expect((await threads('alice', 'first: 5, statuses: [PINNED]')).notificationThreads.totalCount).toBe(1);
    expect((await mutate('markNotificationAsUnread', { id: one.id }, 'alice')).error).toBeNull();
    const all = await mutate('markAllNotificationsAsRead', {}, 'alice', 'notificationThreads { title status }');
    expect(all.payload?.notificationThreads).toHaveLength(2);
    expect((await threads('alice')).unreadNotificationCount).toBe(0);
    // Other users' lists are not readable through the graph.
    const other = await run<{ user: { notificationThreads: unknown; unreadNotificationCount: unknown } }>(
      '{ user(login: "alice") { notificationThreads(first: 5) { totalCount } unreadNotificationCount } }',
      'bob',
    );
    expect(other.user).toEqual({ notificationThreads: { totalCount: 0 }, unreadNotificationCount: null });
  });

  it('notificationThreads needs the notification scope; a public-only token sees none', async () => {
    const q = '{ viewer { notificationThreads(first: 5, all: true) { totalCount } } }';
    const noScope = await t.createToken('alice', ['read:user', 'read:repository']);
    const refused = await gql(t, q, { headers: { authorization: `token ${noScope}` } });
    expect(refused.errors?.length).toBeGreaterThan(0);
    const scoped = await t.createToken('alice', ['read:user', 'read:notification']);
    const ok = await gql<{ viewer: { notificationThreads: { totalCount: number } } }>(t, q, {
      headers: { authorization: `token ${scoped}` },
    });
    expect(ok.data?.viewer.notificationThreads.totalCount).toBe(2);
    const publicOnly = await t.createToken('alice', ['public-only', 'read:user', 'read:notification']);
    const none = await gql<{ viewer: { notificationThreads: { totalCount: number } } }>(t, q, {
      headers: { authorization: `token ${publicOnly}` },
    });
    expect(none.data?.viewer.notificationThreads.totalCount).toBe(0);
  });

  it('notification threads with their repositories: the statement count does not grow with the number of threads', async () => {
    const query = `{ viewer { notificationThreads(first: 20, all: true) { totalCount nodes { title repository { nameWithOwner
      owner { login } stargazers(first: 2) { totalCount } viewerHasStarred } } } } }`;
    const count = async (as: string) => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      await run(query, as);
      return t.queries.length;
    };
    for (const u of ['few', 'lots']) await t.createUser(u);
    const owner = await t.createUser('busy');
    for (let i = 0; i < 4; i++) {
      await createRepo(t, owner, `n${i}`);
      await t.request('PUT', `/api/v1/repos/busy/n${i}/subscription`, { headers: basic('lots') });
      if (i === 0) await t.request('PUT', `/api/v1/repos/busy/n${i}/subscription`, { headers: basic('few') });
      await t.request('POST', `/api/v1/repos/busy/n${i}/issues`, { headers: basic('busy'), body: { title: `t${i}` } });
    }
    await t.app.jobs.drain();
    expect((await threads('lots')).notificationThreads.totalCount).toBe(4);
    expect(await count('lots')).toBe(await count('few'));
  });
  it('updateSubscription on issues and pull requests: explicit (un)subscription, viewerSubscription follows', async () => {
    const created = await t.request('POST', '/api/v1/repos/alice/pub/issues', { headers: basic('bob'), body: { title: 'watch me' } });
    const n = (created.json() as { number: number }).number;
    const issue = await run<{ repository: { issue: { id: string; viewerSubscription: string } } }>(
      `{ repository(owner: "alice", name: "pub") { issue(number: ${n}) { id viewerSubscription } } }`,
      'carol',
    );
    expect(issue.repository.issue.viewerSubscription).toBe('UNSUBSCRIBED');
    const res = await mutate(
      'updateSubscription',
      { subscribableId: issue.repository.issue.id, state: 'SUBSCRIBED' },
      'carol',
      'state subscribable { __typename ... on Issue { number viewerSubscription } }',
    );
    expect(res.payload).toMatchObject({
      state: 'SUBSCRIBED',
      subscribable: { __typename: 'Issue', number: n, viewerSubscription: 'SUBSCRIBED' },
    });
    const subs = await t.request('GET', `/api/v1/repos/alice/pub/issues/${n}/subscriptions`);
    expect((subs.json() as { login: string }[]).map((u) => u.login)).toEqual(['carol']);
    expect((await mutate('updateSubscription', { subscribableId: issue.repository.issue.id, state: 'IGNORED' }, 'carol')).error).toBeNull();
    const after = await run<{ repository: { issue: { viewerSubscription: string } } }>(
      `{ repository(owner: "alice", name: "pub") { issue(number: ${n}) { viewerSubscription } } }`,
      'carol',
    );
    expect(after.repository.issue.viewerSubscription).toBe('UNSUBSCRIBED');
    // bob posted it: subscribed by taking part
    const poster = await run<{ repository: { issue: { viewerSubscription: string } } }>(
      `{ repository(owner: "alice", name: "pub") { issue(number: ${n}) { viewerSubscription } } }`,
      'bob',
    );
    expect(poster.repository.issue.viewerSubscription).toBe('SUBSCRIBED');
    const privIssue = await t.request('POST', '/api/v1/repos/alice/priv/issues', { headers: basic('alice'), body: { title: 'hidden' } });
    const gid = (
      await run<{ repository: { issue: { id: string } } }>(
        '{ repository(owner: "alice", name: "priv") { issue(number: 1) { id } } }',
        'alice',
      )
    ).repository.issue.id;
    expect(privIssue.statusCode).toBe(201);
    expect((await mutate('updateSubscription', { subscribableId: gid, state: 'SUBSCRIBED' }, 'carol')).error).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
