import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { PullFixture } from '../../helpers/pull.ts';

interface Thread {
  id: number;
  unread: boolean;
  subject: { title: string; type: string; state: string; html_url: string };
}

describe.each(PROVIDERS)('pull request notifications (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  const drain = async () => {
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
  };
  /** user → status of their thread on the pull request, for everyone holding one. */
  async function statuses(): Promise<Record<string, string>> {
    const rows = await t.db.notification.findMany({ where: { issue: { isPull: true, index: 1 } }, include: { user: true } });
    return Object.fromEntries(rows.map((r) => [r.user.name, r.status]).sort());
  }
  const readAll = () => t.db.notification.updateMany({ where: { issue: { index: 1 } }, data: { status: 'READ' } });

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const name of ['alice', 'paul', 'wendy', 'rita', 'oscar']) await t.createUser(name);
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
    expect((await t.request('PUT', '/api/v1/repos/alice/demo/subscription', { headers: basic('rita') })).statusCode).toBe(200);
    await drain();
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('a new pull request notifies the repository watchers, not its poster; the subject is a Pull', async () => {
    expect(await f.pushAndOpen('alice', 'demo', 'paul', 'feature', { 'a.txt': 'a\n' }, { body: 'see @oscar' })).toBe(1);
    await drain();
    // oscar is mentioned in the body (a reader of the public repository).
    expect(await statuses()).toEqual({ alice: 'UNREAD', oscar: 'UNREAD', rita: 'UNREAD' });
    const res = await t.request('GET', '/api/v1/notifications?subject-type=pull', { headers: basic('rita') });
    const [th] = res.json() as Thread[];
    expect(th?.subject).toMatchObject({ type: 'Pull', state: 'open', html_url: `${t.config.rootUrl}alice/demo/pulls/1` });
  });

  it('a review request notifies the requested reviewer only', async () => {
    await readAll();
    const res = await t.request('POST', '/api/v1/repos/alice/demo/pulls/1/requested_reviewers', {
      headers: basic('paul'),
      body: { reviewers: ['wendy'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    await drain();
    expect(await statuses()).toEqual({ alice: 'READ', oscar: 'READ', rita: 'READ', wendy: 'UNREAD' });
  });

  it('a review notifies watchers and participants but not the reviewer', async () => {
    await readAll();
    const res = await t.request('POST', '/api/v1/repos/alice/demo/pulls/1/reviews', {
      headers: basic('wendy'),
      body: { event: 'APPROVED', body: 'lgtm' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    expect(await statuses()).toEqual({ alice: 'UNREAD', oscar: 'READ', paul: 'UNREAD', rita: 'UNREAD', wendy: 'READ' });
  });

  it('commits pushed to the head branch notify watchers and participants, not the pusher', async () => {
    await readAll();
    await f.push('alice', 'demo', 'paul', 'feature', { 'b.txt': 'b\n' });
    await drain();
    expect(await statuses()).toEqual({ alice: 'UNREAD', oscar: 'READ', paul: 'READ', rita: 'UNREAD', wendy: 'UNREAD' });
  });

  it('work in progress: comments skip the repository watchers; dropping the WIP prefix notifies them', async () => {
    expect(await f.pushAndOpen('alice', 'demo', 'paul', 'wip', { 'w.txt': 'w\n' }, { title: 'WIP: later' })).toBe(2);
    await drain();
    const wip = await t.db.issue.findFirstOrThrow({ where: { title: 'WIP: later' } });
    const of = async () => {
      const rows = await t.db.notification.findMany({ where: { issueId: wip.id }, include: { user: true } });
      return Object.fromEntries(rows.map((r) => [r.user.name, r.status]).sort());
    };
    expect(await of()).toEqual({ alice: 'UNREAD', rita: 'UNREAD' });
    await t.db.notification.updateMany({ where: { issueId: wip.id }, data: { status: 'READ' } });
    const comment = await t.request('POST', '/api/v1/repos/alice/demo/issues/2/comments', {
      headers: basic('wendy'),
      body: { body: 'soon?' },
    });
    expect(comment.statusCode).toBe(201);
    await drain();
    expect(await of()).toEqual({ alice: 'READ', paul: 'UNREAD', rita: 'READ' });
    const retitle = async (title: string) => {
      const res = await t.request('PATCH', '/api/v1/repos/alice/demo/pulls/2', { headers: basic('paul'), body: { title } });
      expect(res.statusCode, res.body).toBe(201);
      await drain();
    };
    await retitle('WIP: still later');
    expect(await of()).toEqual({ alice: 'READ', paul: 'UNREAD', rita: 'READ' });
    await retitle('ready now');
    expect(await of()).toEqual({ alice: 'UNREAD', paul: 'UNREAD', rita: 'UNREAD', wendy: 'UNREAD' });
  });

  it('a merge notifies watchers and participants; the subject state becomes merged', async () => {
    await readAll();
    const res = await t.request('POST', '/api/v1/repos/alice/demo/pulls/1/merge', { headers: basic('alice'), body: { Do: 'merge' } });
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    expect(await statuses()).toEqual({ alice: 'READ', oscar: 'READ', paul: 'UNREAD', rita: 'UNREAD', wendy: 'UNREAD' });
    const [th] = (await t.request('GET', '/api/v1/notifications', { headers: basic('rita') })).json() as Thread[];
    expect(th?.subject.state).toBe('merged');
  });
});
