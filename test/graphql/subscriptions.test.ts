import { encodeGlobalID } from '@pothos/plugin-relay';
import { createClient, type Client } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { PullFixture } from '../helpers/pull.ts';
import { repoTopic } from '../../src/notify/liveBus.ts';

interface Received {
  data?: Record<
    string,
    { action: string; issue?: { number: number; title: string }; pullRequest?: { number: number }; actor?: { login: string } | null }
  >;
  errors?: { message: string; extensions?: { code?: string; limit?: string; max?: number } }[];
}

/** Access tokens of the test users (cheap to verify, unlike passwords, so many clients connect quickly under load). */
const tokens = new Map<string, string>();

/** A graphql-sse client (distinct connections) subscribed as `user` (with a token); collects what it receives. */
function subscribe(url: string, query: string, user?: string) {
  const token = user ? tokens.get(user) : undefined;
  if (user && !token) throw new Error(`no token for ${user}`);
  const client: Client = createClient({
    url,
    headers: token ? tokenAuth(token) : {},
    retryAttempts: 0,
  });
  const received: Received[] = [];
  let ended: unknown = null;
  let done = false;
  const unsubscribe = client.subscribe<Received['data']>(
    { query },
    {
      next: (r) => {
        received.push(r as Received);
      },
      error: (e) => {
        ended = e;
        done = true;
      },
      complete: () => {
        done = true;
      },
    },
  );
  return {
    received,
    get ended() {
      return ended;
    },
    get done() {
      return done;
    },
    async until(pred: () => boolean, what: string) {
      const deadline = Date.now() + 30_000;
      while (!pred()) {
        if (Date.now() > deadline)
          throw new Error(
            `timed out waiting for ${what}; received ${JSON.stringify(received)}; ended ${String(ended)} ${JSON.stringify(ended)}`,
          );
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close() {
      unsubscribe();
      client.dispose();
    },
  };
}

const ISSUE_EVENTS = (repo: string) => {
  const [owner, name] = repo.split('/');
  return `subscription { issueEvents(owner: "${owner}", name: "${name}") { action issue { number title } actor { login } } }`;
};
const PULL_EVENTS = (repo: string) => {
  const [owner, name] = repo.split('/');
  return `subscription { pullRequestEvents(owner: "${owner}", name: "${name}") { action pullRequest { number } actor { login } } }`;
};

/**
 * GraphQL subscriptions over Server-Sent Events with a real graphql-sse client: events from writes made through
 * REST, GraphQL and git push; permission checked per event (a removed collaborator stops receiving); limits.
 */
describe.each(PROVIDERS)('GraphQL subscriptions over SSE (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let url: string;

  /** Waits until `n` streams listen to the repository's topic (the subscriptions are established). */
  const listening = async (repo: string, n: number) => {
    const [owner, name] = repo.split('/');
    const row = await t.db.repository.findFirstOrThrow({ where: { ownerName: owner, lowerName: name } });
    const deadline = Date.now() + 30_000;
    while (t.app.deps.live.subscriberCount(repoTopic(row.id)) !== n) {
      if (Date.now() > deadline)
        throw new Error(`expected ${n} subscribers of ${repo}, have ${t.app.deps.live.subscriberCount(repoTopic(row.id))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const settle = async () => {
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
    await t.app.deps.notifier.drain();
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('alice');
    await t.createUser('bob');
    await t.createUser('carol');
    for (const name of ['alice', 'bob', 'carol']) tokens.set(name, await t.createToken(name));
    // Yoga and the schema load on first use (seconds under load): not inside the first test's waits.
    await t.app.warmUp();
    f = await PullFixture.start(t);
    url = `http://127.0.0.1:${f.port}/api/graphql`;
    await f.createRepo('alice', 'secret', { private: true });
    const added = await t.request('PUT', '/api/v1/repos/alice/secret/collaborators/bob', {
      headers: basic('alice'),
      body: { permission: 'write' },
    });
    expect(added.statusCode).toBe(204);
  });
  afterAll(async () => {
    f.dispose();
    await t.close();
  });

  it('issueEvents receives writes made through REST, GraphQL and git push, and stops when access is removed', async () => {
    const bob = subscribe(url, ISSUE_EVENTS('alice/secret'), 'bob');
    const alice = subscribe(url, ISSUE_EVENTS('alice/secret'), 'alice');
    try {
      await listening('alice/secret', 2);
      const created = await t.request('POST', '/api/v1/repos/alice/secret/issues', {
        headers: basic('alice'),
        body: { title: 'Live one' },
      });
      expect(created.statusCode).toBe(201);
      await bob.until(() => bob.received.length >= 1, 'CREATED');
      expect(bob.received[0]?.data?.issueEvents).toEqual({
        action: 'CREATED',
        issue: { number: 1, title: 'Live one' },
        actor: { login: 'alice' },
      });

      const issue = await t.db.issue.findFirstOrThrow({ where: { title: 'Live one' } });
      const mutation = await t.graphql(
        'mutation($id: ID!) { addComment(input: { subjectId: $id, body: "via graphql" }) { __typename } }',
        { id: encodeGlobalID('Issue', issue.id) },
        basic('bob'),
      );
      expect(mutation.json()).toEqual({ data: { addComment: { __typename: 'AddCommentPayload' } } });
      await bob.until(() => bob.received.length >= 2, 'COMMENTED');
      expect(bob.received[1]?.data?.issueEvents).toMatchObject({ action: 'COMMENTED', actor: { login: 'bob' } });

      const dir = await f.workTree('alice', 'secret', 'alice');
      await f.git.commit(dir, 'fix.txt', 'fixed\n', 'Fixes #1');
      await f.git.ok(['push', '-q', 'origin', 'main'], { cwd: dir });
      await settle();
      await bob.until(() => bob.received.some((r) => r.data?.issueEvents?.action === 'CLOSED'), 'CLOSED');

      const removed = await t.request('DELETE', '/api/v1/repos/alice/secret/collaborators/bob', { headers: basic('alice') });
      expect(removed.statusCode).toBe(204);
      const before = bob.received.length;
      const aliceBefore = alice.received.length;
      await t.request('POST', '/api/v1/repos/alice/secret/issues', { headers: basic('alice'), body: { title: 'After removal' } });
      await settle();
      await alice.until(() => alice.received.length > aliceBefore, 'the owner receiving the next event');
      // Events are delivered in order to every subscriber: alice got the later one, bob's check refused it.
      await new Promise((r) => setTimeout(r, 200));
      expect(bob.received).toHaveLength(before);
      expect(alice.received.at(-1)?.data?.issueEvents?.issue?.title).toBe('After removal');
    } finally {
      bob.close();
      alice.close();
    }
  });

  it('pullRequestEvents: created, commented and merged; issueEvents does not carry pull requests', async () => {
    await f.createRepo('alice', 'pubrepo');
    const pulls = subscribe(url, PULL_EVENTS('alice/pubrepo'));
    const issues = subscribe(url, ISSUE_EVENTS('alice/pubrepo'));
    try {
      await listening('alice/pubrepo', 2);
      const pr = await f.pushAndOpen('alice', 'pubrepo', 'alice', 'feature', { 'f.txt': 'f\n' });
      await pulls.until(() => pulls.received.length >= 1, 'CREATED');
      await t.request('POST', `/api/v1/repos/alice/pubrepo/issues/${pr}/comments`, { headers: basic('carol'), body: { body: 'LGTM' } });
      const merged = await t.request('POST', `/api/v1/repos/alice/pubrepo/pulls/${pr}/merge`, {
        headers: basic('alice'),
        body: { Do: 'merge' },
      });
      expect(merged.statusCode).toBe(200);
      await pulls.until(() => pulls.received.length >= 3, 'MERGED');
      expect(pulls.received.map((r) => [r.data?.pullRequestEvents?.action, r.data?.pullRequestEvents?.pullRequest?.number])).toEqual([
        ['CREATED', pr],
        ['COMMENTED', pr],
        ['MERGED', pr],
      ]);
      expect(issues.received).toEqual([]);
    } finally {
      pulls.close();
      issues.close();
    }
  });

  it('an invisible repository is NOT_FOUND; subscriptions per user are limited with an error naming the limit', async () => {
    const anon = subscribe(url, ISSUE_EVENTS('alice/secret'));
    await anon.until(() => anon.done || anon.received.length > 0, 'the NOT_FOUND refusal');
    expect(anon.received[0]?.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    anon.close();

    // The previous test's clients are gone (their streams ended) before counting this test's.
    await listening('alice/pubrepo', 0);
    const max = t.config.live.maxSubscriptionsPerUser;
    t.config.live.maxSubscriptionsPerUser = 2;
    const open = [subscribe(url, ISSUE_EVENTS('alice/pubrepo'), 'carol'), subscribe(url, ISSUE_EVENTS('alice/pubrepo'), 'carol')];
    try {
      await listening('alice/pubrepo', 2);
      const third = subscribe(url, ISSUE_EVENTS('alice/pubrepo'), 'carol');
      await third.until(() => third.done || third.received.length > 0, 'the limit refusal');
      expect(third.received[0]?.errors?.[0]?.extensions).toMatchObject({
        code: 'SUBSCRIPTION_LIMIT',
        limit: 'subscriptionsPerUser',
        max: 2,
      });
      third.close();
      // Another account has its own slots.
      const other = subscribe(url, ISSUE_EVENTS('alice/pubrepo'), 'bob');
      await listening('alice/pubrepo', 3);
      await t.request('POST', '/api/v1/repos/alice/pubrepo/issues', { headers: basic('alice'), body: { title: 'still flowing' } });
      await other.until(() => other.received.length >= 1, 'an event for another user');
      expect(other.received[0]?.data?.issueEvents?.action).toBe('CREATED');
      other.close();
      // A closed subscription (the client went away) gives its slot back.
      open.pop()?.close();
      await listening('alice/pubrepo', 1);
      const again = subscribe(url, ISSUE_EVENTS('alice/pubrepo'), 'carol');
      await listening('alice/pubrepo', 2);
      await t.request('POST', '/api/v1/repos/alice/pubrepo/issues', { headers: basic('alice'), body: { title: 'slot back' } });
      await again.until(() => again.received.length >= 1, 'an event after a slot was released');
      expect(again.received[0]?.errors).toBeUndefined();
      again.close();
    } finally {
      for (const s of open) s.close();
      t.config.live.maxSubscriptionsPerUser = max;
    }
  });

  it("notificationReceived: the viewer's new notification threads (published by the notification job as notification.created)", async () => {
    const carol = await t.db.user.findFirstOrThrow({ where: { lowerName: 'carol' } });
    const bob = await t.db.user.findFirstOrThrow({ where: { lowerName: 'bob' } });
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'pubrepo' } });
    await t.request('POST', '/api/v1/repos/alice/pubrepo/issues', { headers: basic('alice'), body: { title: 'notified' } });
    const issue = await t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, title: 'notified' } });
    const secret = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'secret' } });
    const secretIssue = await t.db.issue.findFirstOrThrow({ where: { repoId: secret.id } });
    const query = 'subscription { notificationReceived { notificationId repository { nameWithOwner } subject { number title } } }';
    const anon = subscribe(url, query);
    await anon.until(() => anon.done || anon.received.length > 0, 'the UNAUTHENTICATED refusal');
    expect(anon.received[0]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    anon.close();

    const sub = subscribe(url, query, 'carol');
    const deadline = Date.now() + 30_000;
    while (t.app.deps.live.subscriberCount(`notifications:${carol.id}`) !== 1) {
      if (Date.now() > deadline) throw new Error('notificationReceived never subscribed');
      await new Promise((r) => setTimeout(r, 20));
    }
    try {
      const mine = await t.db.notification.create({ data: { userId: carol.id, repoId: repo.id, issueId: issue.id, source: 'ISSUE' } });
      // A thread on an issue carol cannot read (a private repository she is not in) is not delivered.
      const hidden = await t.db.notification.create({
        data: { userId: carol.id, repoId: secret.id, issueId: secretIssue.id, source: 'ISSUE' },
      });
      const bobs = await t.db.notification.create({ data: { userId: bob.id, repoId: repo.id, issueId: issue.id, source: 'ISSUE' } });
      t.app.deps.notifier.publish([
        { type: 'notification.created', notificationId: hidden.id, userId: carol.id, repoId: secret.id, issueId: secretIssue.id },
        { type: 'notification.created', notificationId: bobs.id, userId: bob.id, repoId: repo.id, issueId: issue.id },
        { type: 'notification.created', notificationId: mine.id, userId: carol.id, repoId: repo.id, issueId: issue.id },
      ]);
      await sub.until(() => sub.received.length >= 1, 'the notification');
      await new Promise((r) => setTimeout(r, 200));
      expect(sub.received.map((r) => r.data)).toEqual([
        {
          notificationReceived: {
            notificationId: mine.id,
            repository: { nameWithOwner: 'alice/pubrepo' },
            subject: { number: issue.index, title: issue.title },
          },
        },
      ]);
      // The real path: carol watches the repository, alice opens an issue, the notification job publishes it.
      expect((await t.request('PUT', '/api/v1/repos/alice/pubrepo/subscription', { headers: basic('carol') })).statusCode).toBe(200);
      await t.request('POST', '/api/v1/repos/alice/pubrepo/issues', { headers: basic('alice'), body: { title: 'through the job' } });
      await t.app.jobs.drain();
      const isJobs = (r: (typeof sub.received)[number]): boolean =>
        (r.data as { notificationReceived?: { subject?: { title?: string } } } | undefined)?.notificationReceived?.subject?.title ===
        'through the job';
      await sub.until(() => sub.received.some(isJobs), 'the notification written by the job');
      const thread = await t.db.notification.findFirstOrThrow({ where: { userId: carol.id, issue: { title: 'through the job' } } });
      expect(sub.received.filter(isJobs).map((r) => r.data)).toEqual([
        {
          notificationReceived: {
            notificationId: thread.id,
            repository: { nameWithOwner: 'alice/pubrepo' },
            subject: { number: expect.any(Number), title: 'through the job' },
          },
        },
      ]);
    } finally {
      sub.close();
    }
  });
});
