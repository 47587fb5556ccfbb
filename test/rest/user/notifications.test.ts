import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { enqueue } from '../../../src/jobs/enqueue.ts';
import { NOTIFICATION_JOB } from '../../../src/notify/notificationJob.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator, createRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

interface Thread {
  id: number;
  unread: boolean;
  pinned: boolean;
  updated_at: string;
  url: string;
  repository: { full_name: string; permissions?: unknown } | null;
  subject: { title: string; type: string; state: string; url: string; html_url: string; latest_comment_url: string };
}

describe.each(PROVIDERS)('REST notifications (%s)', (provider) => {
  let t: TestApp;
  const users: Record<string, Models.User> = {};
  const repos: Record<string, Models.Repository> = {};
  const api = (p: string) => `/api/v1${p}`;

  async function issue(owner: string, repo: string, by: string, title: string, body = ''): Promise<number> {
    const res = await t.request('POST', api(`/repos/${owner}/${repo}/issues`), { headers: basic(by), body: { title, body } });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.jobs.drain();
    return (res.json() as { number: number }).number;
  }
  async function comment(owner: string, repo: string, index: number, by: string, body = 'a comment'): Promise<void> {
    const res = await t.request('POST', api(`/repos/${owner}/${repo}/issues/${index}/comments`), { headers: basic(by), body: { body } });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.jobs.drain();
  }
  async function edit(owner: string, repo: string, index: number, by: string, body: Record<string, unknown>): Promise<void> {
    const res = await t.request('PATCH', api(`/repos/${owner}/${repo}/issues/${index}`), { headers: basic(by), body });
    expect(res.statusCode, res.body).toBe(201);
    await t.app.jobs.drain();
  }
  async function threads(user: string, query = ''): Promise<Thread[]> {
    const res = await t.request('GET', api(`/notifications${query}`), { headers: basic(user) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const titles = async (user: string, query = '') => (await threads(user, query)).map((th) => th.subject.title);
  /** Who holds a thread on the issue titled `title`. */
  async function holders(title: string): Promise<string[]> {
    const rows = await t.db.notification.findMany({ where: { issue: { title } }, include: { user: true }, orderBy: { userId: 'asc' } });
    return rows.map((r) => r.user.name).sort();
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina']) users[n] = await t.createUser(n);
    users.root = await t.createUser('root', { admin: true });
    repos.pub = await createRepo(t, users.alice!, 'pub');
    repos.priv = await createRepo(t, users.alice!, 'priv', { private: true });
    await addCollaborator(t, repos.priv, users.bob!, 'READ');
    await addCollaborator(t, repos.priv, users.carol!, 'WRITE');
    await t.request('PUT', api('/repos/alice/pub/subscription'), { headers: basic('erin') });
  });
  afterAll(() => t.close());

  it('a new issue notifies repository watchers and mentioned users, never the author; asynchronously, by a job', async () => {
    const res = await t.request('POST', api('/repos/alice/pub/issues'), {
      headers: basic('bob'),
      body: { title: 'first', body: 'hi @dave' },
    });
    expect(res.statusCode).toBe(201);
    expect(await holders('first')).toEqual([]);
    const job = await t.db.job.findFirst({ where: { kind: NOTIFICATION_JOB.name }, orderBy: { id: 'desc' } });
    expect(job?.status).toBe('PENDING');
    await t.app.jobs.drain();
    expect(await holders('first')).toEqual(['alice', 'dave', 'erin']);
    const [th] = await threads('erin');
    expect(th).toMatchObject({
      unread: true,
      pinned: false,
      url: `${t.config.rootUrl}api/v1/notifications/threads/${th!.id}`,
      repository: { full_name: 'alice/pub' },
      subject: {
        title: 'first',
        type: 'Issue',
        state: 'open',
        url: `${t.config.rootUrl}api/v1/repos/alice/pub/issues/1`,
        html_url: `${t.config.rootUrl}alice/pub/issues/1`,
        latest_comment_url: '',
        latest_comment_html_url: '',
      },
    });
    expect(th!.repository).not.toHaveProperty('permissions');
  });

  it('a comment notifies watchers and participants (the poster), not the commenter; an issue unwatcher is skipped', async () => {
    const index = await issue('alice', 'pub', 'bob', 'second');
    expect(await holders('second')).toEqual(['alice', 'erin']);
    // erin unsubscribes from this issue explicitly: 201, then 200 when already so.
    expect(
      (await t.request('DELETE', api(`/repos/alice/pub/issues/${index}/subscriptions/erin`), { headers: basic('erin') })).statusCode,
    ).toBe(201);
    expect(
      (await t.request('DELETE', api(`/repos/alice/pub/issues/${index}/subscriptions/erin`), { headers: basic('erin') })).statusCode,
    ).toBe(200);
    await t.db.notification.updateMany({ where: { issue: { title: 'second' } }, data: { status: 'READ' } });
    await comment('alice', 'pub', index, 'frank', 'me too');
    expect(await holders('second')).toEqual(['alice', 'bob', 'erin']);
    const unread = await t.db.notification.findMany({ where: { issue: { title: 'second' }, status: 'UNREAD' }, include: { user: true } });
    expect(unread.map((n) => n.user.name).sort()).toEqual(['alice', 'bob']);
    // frank took part: the next comment reaches him.
    await comment('alice', 'pub', index, 'bob', 'thanks');
    expect(await holders('second')).toEqual(['alice', 'bob', 'erin', 'frank']);
    const [bobs] = await threads('bob');
    const c = await t.db.comment.findFirst({ where: { content: 'thanks' } });
    expect(bobs!.subject.latest_comment_url).toBe(`${t.config.rootUrl}api/v1/repos/alice/pub/issues/comments/${c!.id}`);
  });

  it('private repositories: only readers get threads; a stale watch of an outsider gives nothing; losing access hides threads', async () => {
    await t.db.watch.create({ data: { userId: users.dave!.id, repoId: repos.priv!.id, mode: 'NORMAL' } });
    await t.request('PUT', api('/repos/alice/priv/subscription'), { headers: basic('bob') });
    const index = await issue('alice', 'priv', 'carol', 'secret', 'cc @gina');
    expect(await holders('secret')).toEqual(['alice', 'bob']);
    expect(await titles('bob')).toContain('secret');
    expect((await t.request('GET', api('/notifications/new'), { headers: basic('bob') })).json()).toEqual({ new: 2 });
    const bobThread = (await threads('bob')).find((th) => th.subject.title === 'secret')!;
    await t.request('DELETE', api('/repos/alice/priv/collaborators/bob'), { headers: basic('alice') });
    expect(await titles('bob')).not.toContain('secret');
    expect((await t.request('GET', api('/notifications/new'), { headers: basic('bob') })).json()).toEqual({ new: 1 });
    expectGiteaError(await t.request('GET', api(`/notifications/threads/${bobThread.id}`), { headers: basic('bob') }), 404);
    expectGiteaError(await t.request('GET', api('/repos/alice/priv/notifications'), { headers: basic('bob') }), 404);
    await addCollaborator(t, repos.priv!, users.bob!, 'READ');
    expect(await titles('bob')).toContain('secret');
    await t.db.watch.deleteMany({ where: { userId: users.dave!.id, repoId: repos.priv!.id } });
    void index;
  });

  it('assignees and requested targets get a thread (not a self-assignment); close and reopen reach the watchers', async () => {
    // bob's watch went with his collaboration (previous test): only alice watches.
    const index = await issue('alice', 'priv', 'alice', 'assigned');
    expect(await holders('assigned')).toEqual([]);
    await edit('alice', 'priv', index, 'alice', { assignees: ['carol', 'alice'] });
    expect(await holders('assigned')).toEqual(['carol']);
    await t.db.notification.updateMany({ where: { issue: { title: 'assigned' } }, data: { status: 'READ' } });
    await edit('alice', 'priv', index, 'carol', { state: 'closed' });
    const rows = await t.db.notification.findMany({ where: { issue: { title: 'assigned' } }, include: { user: true } });
    expect(rows.map((r) => [r.user.name, r.status]).sort()).toEqual([
      ['alice', 'UNREAD'],
      ['carol', 'READ'],
    ]);
    await edit('alice', 'priv', index, 'alice', { state: 'open' });
    const reopened = await t.db.notification.findMany({ where: { issue: { title: 'assigned' } }, include: { user: true } });
    expect(reopened.map((r) => [r.user.name, r.status]).sort()).toEqual([
      ['alice', 'UNREAD'],
      ['carol', 'READ'],
    ]);
    const alices = (await threads('alice')).find((th) => th.subject.title === 'assigned');
    expect(alices?.subject.state).toBe('open');
  });

  it('a replayed or duplicated fan-out job does not duplicate threads; a pinned thread stays pinned', async () => {
    const index = await issue('alice', 'pub', 'bob', 'replay');
    const before = await t.db.notification.count();
    const issueRow = await t.db.issue.findFirstOrThrow({ where: { title: 'replay' } });
    const payload = {
      event: 'comment.created',
      issueId: issueRow.id,
      actorId: users.bob!.id,
      commentId: null,
      audience: 'broadcast' as const,
      targets: [],
      mentionsIn: null,
    };
    const alices = (await threads('alice')).find((th) => th.subject.title === 'replay')!;
    expect(
      (await t.request('PATCH', api(`/notifications/threads/${alices.id}?to-status=pinned`), { headers: basic('alice') })).statusCode,
    ).toBe(205);
    await enqueue(t.db, NOTIFICATION_JOB, payload);
    await enqueue(t.db, NOTIFICATION_JOB, payload);
    await t.app.jobs.drain();
    expect(await t.db.notification.count()).toBe(before);
    expect((await t.db.notification.findUniqueOrThrow({ where: { id: alices.id } })).status).toBe('PINNED');
    void index;
  });

  it('GET /notifications: unread and pinned by default, all, status-types, subject-type, since/before, pagination', async () => {
    const all = await threads('alice', '?all=true');
    expect(all.length).toBeGreaterThanOrEqual(4);
    const sorted = [...all].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    expect(all.map((th) => th.updated_at)).toEqual(sorted.map((th) => th.updated_at));
    const dflt = await threads('alice');
    expect(dflt.every((th) => th.unread || th.pinned)).toBe(true);
    expect(dflt.some((th) => th.pinned)).toBe(true);
    const pinned = await threads('alice', '?status-types=PINNED&status-types=bogus');
    expect(pinned.length).toBe(1);
    expect(await threads('alice', '?subject-type=pull')).toEqual([]);
    expect((await threads('alice', '?subject-type=Issue&all=true')).length).toBe(all.length);
    expect(await threads('alice', '?all=true&since=2999-01-01T00:00:00Z')).toEqual([]);
    expect(await threads('alice', '?all=true&before=2000-01-01T00:00:00Z')).toEqual([]);
    const page = await t.request('GET', api('/notifications?all=true&limit=1&page=2'), { headers: basic('alice') });
    expect(page.json()).toHaveLength(1);
    expect(page.headers['x-total-count']).toBe(String(all.length));
    // Gitea sets X-Total-Count but no Link header on notification lists.
    expect(page.headers.link).toBeUndefined();
    expectGiteaError(await t.request('GET', api('/notifications?since=yesterday'), { headers: basic('alice') }), 422);
    expectGiteaError(await t.request('GET', api('/notifications?before=2020-13-01'), { headers: basic('alice') }), 422);
    expectGiteaError(await t.request('GET', api('/notifications')), 401);
  });

  it('GET /notifications runs the same number of statements for one thread as for many', async () => {
    const count = async (user: string) => {
      const n = (await threads(user, '?all=true')).length;
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      await threads(user, '?all=true');
      return { n, sql: t.queries.length };
    };
    const few = await count('dave');
    const many = await count('alice');
    expect(many.n).toBeGreaterThan(few.n);
    expect(few.n).toBeGreaterThan(0);
    expect(many.sql).toBe(few.sql);
  });

  it('threads: GET own 200, another user 403 (admins may read), unknown 404; PATCH 205 with the new state', async () => {
    const [th] = await threads('erin', '?all=true');
    const got = await t.request('GET', api(`/notifications/threads/${th!.id}`), { headers: basic('erin') });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: th!.id });
    expectGiteaError(
      await t.request('GET', api(`/notifications/threads/${th!.id}`), { headers: basic('bob') }),
      403,
      `only user itself and admin are allowed to read/change this thread ${th!.id}`,
    );
    expect((await t.request('GET', api(`/notifications/threads/${th!.id}`), { headers: basic('root') })).statusCode).toBe(200);
    expectGiteaError(await t.request('PATCH', api(`/notifications/threads/${th!.id}`), { headers: basic('bob') }), 403);
    expectGiteaError(
      await t.request('GET', api('/notifications/threads/999999'), { headers: basic('erin') }),
      404,
      'notification does not exist [id: 999999]',
    );
    const read = await t.request('PATCH', api(`/notifications/threads/${th!.id}`), { headers: basic('erin') });
    expect(read.statusCode).toBe(205);
    expect(read.json()).toMatchObject({ id: th!.id, unread: false, pinned: false });
    const unread = await t.request('PATCH', api(`/notifications/threads/${th!.id}?to-status=unread`), { headers: basic('erin') });
    expect(unread.json()).toMatchObject({ unread: true });
  });

  it('PUT /notifications: 205 with the changed threads; last_read_at (400 when unparsable), status-types, to-status', async () => {
    const bad = await t.request('PUT', api('/notifications?last_read_at=yesterday'), { headers: basic('erin') });
    expectGiteaError(bad, 400);
    expect(bad.json().message).toMatch(/^parsing time "yesterday"/);
    const none = await t.request('PUT', api('/notifications?last_read_at=2000-01-01T00:50:01%2B00:00'), { headers: basic('erin') });
    expect(none.statusCode).toBe(205);
    expect(none.json()).toEqual([]);
    const unreadBefore = (await threads('erin')).filter((th) => th.unread).length;
    expect(unreadBefore).toBeGreaterThan(0);
    const res = await t.request('PUT', api('/notifications'), { headers: basic('erin') });
    expect(res.statusCode).toBe(205);
    expect(res.json()).toHaveLength(unreadBefore);
    expect((res.json() as Thread[]).every((th) => !th.unread)).toBe(true);
    expect(await threads('erin')).toEqual([]);
    expect((await t.request('GET', api('/notifications/new'), { headers: basic('erin') })).json()).toEqual({ new: 0 });
    const back = await t.request('PUT', api('/notifications?status-types=read&to-status=unread'), { headers: basic('erin') });
    expect(back.statusCode).toBe(205);
    expect((back.json() as Thread[]).every((th) => th.unread)).toBe(true);
  });

  it('repository notifications: GET and PUT limited to the repository; 404 for an invisible one, 401 anonymous', async () => {
    const pub = await t.request('GET', api('/repos/alice/pub/notifications?all=true'), { headers: basic('alice') });
    expect(pub.statusCode).toBe(200);
    expect((pub.json() as Thread[]).every((th) => th.repository?.full_name === 'alice/pub')).toBe(true);
    const put = await t.request('PUT', api('/repos/alice/priv/notifications'), { headers: basic('alice') });
    expect(put.statusCode).toBe(205);
    expect((put.json() as Thread[]).every((th) => th.repository?.full_name === 'alice/priv' && !th.unread)).toBe(true);
    expect((await threads('alice')).some((th) => th.repository?.full_name === 'alice/pub')).toBe(true);
    expectGiteaError(await t.request('PUT', api('/repos/alice/priv/notifications'), { headers: basic('dave') }), 404);
    expectGiteaError(await t.request('PUT', api('/repos/alice/pub/notifications')), 401);
    expectGiteaError(await t.request('PUT', api('/repos/alice/pub/notifications?last_read_at=x'), { headers: basic('alice') }), 400);
  });

  it('token scopes: notification scope required (403), public-only tokens refused (403)', async () => {
    const repoOnly = await t.createToken('alice', ['read:repository']);
    expectGiteaError(await t.request('GET', api('/notifications'), { headers: tokenAuth(repoOnly) }), 403);
    const readOnly = await t.createToken('alice', ['read:notification']);
    expect((await t.request('GET', api('/notifications'), { headers: tokenAuth(readOnly) })).statusCode).toBe(200);
    expectGiteaError(await t.request('PUT', api('/notifications'), { headers: tokenAuth(readOnly) }), 403);
    const publicOnly = await t.createToken('alice', ['public-only', 'read:notification']);
    expectGiteaError(await t.request('GET', api('/notifications'), { headers: tokenAuth(publicOnly) }), 403);
  });

  it('issue subscriptions: list, check (WatchInfo), PUT/DELETE for oneself or by an admin (201/200), others 403', async () => {
    const index = await issue('alice', 'pub', 'bob', 'subs');
    const check = await t.request('GET', api(`/repos/alice/pub/issues/${index}/subscriptions/check`), { headers: basic('gina') });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({
      subscribed: false,
      ignored: true,
      reason: null,
      url: `${t.config.rootUrl}api/v1/repos/alice/pub/issues/${index}/subscriptions`,
      repository_url: `${t.config.rootUrl}api/v1/repos/alice/pub`,
    });
    // the poster and repository watchers are subscribed without a row
    expect(
      (await t.request('GET', api(`/repos/alice/pub/issues/${index}/subscriptions/check`), { headers: basic('bob') })).json(),
    ).toMatchObject({
      subscribed: true,
    });
    expect(
      (await t.request('PUT', api(`/repos/alice/pub/issues/${index}/subscriptions/gina`), { headers: basic('gina') })).statusCode,
    ).toBe(201);
    expect(
      (await t.request('PUT', api(`/repos/alice/pub/issues/${index}/subscriptions/gina`), { headers: basic('gina') })).statusCode,
    ).toBe(200);
    expect(
      (await t.request('PUT', api(`/repos/alice/pub/issues/${index}/subscriptions/dave`), { headers: basic('root') })).statusCode,
    ).toBe(201);
    expectGiteaError(
      await t.request('PUT', api(`/repos/alice/pub/issues/${index}/subscriptions/frank`), { headers: basic('gina') }),
      403,
      'gina is not permitted to change subscriptions for frank',
    );
    expectGiteaError(await t.request('PUT', api(`/repos/alice/pub/issues/${index}/subscriptions/nobody`), { headers: basic('gina') }), 404);
    expectGiteaError(await t.request('PUT', api(`/repos/alice/pub/issues/${index}/subscriptions/gina`)), 401);
    expectGiteaError(await t.request('GET', api(`/repos/alice/priv/issues/1/subscriptions`), { headers: basic('dave') }), 404);
    const list = await t.request('GET', api(`/repos/alice/pub/issues/${index}/subscriptions`));
    expect((list.json() as { login: string }[]).map((u) => u.login)).toEqual(['gina', 'dave']);
    expect(list.headers['x-total-count']).toBe('2');
    await comment('alice', 'pub', index, 'alice', 'ping');
    // alice (a watcher) holds the thread of the issue's creation; her own comment does not notify her.
    expect(await holders('subs')).toEqual(['alice', 'bob', 'dave', 'erin', 'gina']);
  });
});
