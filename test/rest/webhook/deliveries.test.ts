import { verify } from '@octokit/webhooks-methods';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { HookReceiver, type Doc } from '../../helpers/hookReceiver.ts';
import { PullFixture } from '../../helpers/pull.ts';

const SECRET = 'hook-secret';

describe.each(PROVIDERS)('webhook deliveries (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let rx: HookReceiver;
  let hookId = 0;
  const drain = () => t.app.jobs.drain();
  const api = async (method: string, url: string, body?: unknown, user = 'alice') => {
    const res = await t.request(method, `/api/v1${url}`, { headers: basic(user), ...(body === undefined ? {} : { body }) });
    await t.app.deps.notifier.drain();
    return res;
  };
  const json = (body: string) => JSON.parse(body) as Doc;

  beforeAll(async () => {
    t = await startTestApp(provider, {
      WEBHOOK_ALLOWED_HOST_LIST: 'loopback',
      WEBHOOK_RETRY_BASE: '100ms',
      WEBHOOK_RETRY_MAX: '300ms',
      WEBHOOK_MAX_ATTEMPTS: '4',
    });
    f = await PullFixture.start(t);
    rx = await HookReceiver.start();
    await t.createUser('alice');
    await t.createUser('bob');
    await f.createRepo('alice', 'demo');
    const res = await api('POST', '/repos/alice/demo/hooks', {
      type: 'gitea',
      config: { url: rx.url, content_type: 'json', secret: SECRET },
      events: ['push', 'create', 'delete', 'issues', 'issue_comment', 'pull_request', 'fork', 'release'],
      authorization_header: 'Bearer s3cr3t',
      active: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    hookId = res.json().id as number;
  }, 60_000);
  afterAll(async () => {
    f?.dispose();
    await rx?.close();
    await t?.close();
  });

  it('a push arrives with Gitea payload and headers, signed over the exact bytes', async () => {
    const sha = await f.push('alice', 'demo', 'alice', 'main', { 'a.txt': 'a\n' });
    await rx.until(() => rx.of('push').length >= 1, drain);
    const [push] = rx.of('push');
    if (!push) throw new Error('no push');
    expect(push.method).toBe('POST');
    expect(push.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitea-event': 'push',
      'x-gitea-event-type': 'push',
      'x-gogs-event': 'push',
      'x-github-event': 'push',
      'x-github-event-type': 'push',
      'x-gitea-hook-installation-target-type': 'repository',
      authorization: 'Bearer s3cr3t',
    });
    const uuid = push.headers['x-gitea-delivery'];
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(push.headers['x-gogs-delivery']).toBe(uuid);
    expect(push.headers['x-github-delivery']).toBe(uuid);
    const hex = createHmac('sha256', SECRET).update(push.body).digest('hex');
    expect(push.headers['x-gitea-signature']).toBe(hex);
    expect(push.headers['x-gogs-signature']).toBe(hex);
    expect(push.headers['x-hub-signature']).toBe(`sha1=${createHmac('sha1', SECRET).update(push.body).digest('hex')}`);
    expect(await verify(SECRET, push.body, String(push.headers['x-hub-signature-256']))).toBe(true);
    expect(push.body).toContain('\n  "ref": "refs/heads/main"');
    const p = json(push.body);
    expect(p).toMatchObject({
      ref: 'refs/heads/main',
      after: sha,
      total_commits: 1,
      compare_url: expect.stringContaining('alice/demo/compare/'),
      head_commit: { id: sha, message: 'change a.txt\n', author: { name: expect.any(String) } },
      commits: [{ id: sha, url: `http://localhost:3000/alice/demo/commit/${sha}` }],
      repository: { full_name: 'alice/demo', permissions: { admin: true } },
      pusher: { login: 'alice' },
      sender: { login: 'alice' },
    });
    // The delivery is recorded with its request (authorization redacted) and response.
    const deliveries = await api('GET', `/repos/alice/demo/hooks/${hookId}/deliveries`);
    expect(deliveries.statusCode).toBe(200);
    const listed = deliveries.json() as Doc[];
    expect(listed[0]).toMatchObject({ guid: uuid, event: 'push', status: 'succeed', status_code: 200, delivered: true, redelivery: false });
    const one = (await api('GET', `/repos/alice/demo/hooks/${hookId}/deliveries/${listed[0]?.id}`)).json();
    expect(one.request.headers.Authorization).toBe('******');
    expect(one.request.body).toBe(push.body);
    expect(one.response).toMatchObject({ status: 200, body: 'ok', headers: { 'x-receiver': 'yes' } });
    expect(JSON.stringify(one)).not.toContain('s3cr3t');
    const hook = (await api('GET', `/repos/alice/demo/hooks/${hookId}`)).json();
    expect(hook).toMatchObject({ last_status: 'succeed', authorization_header: '' });
    expect(hook.deliveries_succeeded).toBeGreaterThanOrEqual(1);
  });

  it('a new branch sends create and push; deleting it sends delete', async () => {
    rx.received.length = 0;
    await f.push('alice', 'demo', 'alice', 'feature', { 'f.txt': 'f\n' });
    await rx.until(() => rx.of('create').length === 1 && rx.of('push').length === 1, drain);
    expect(json(rx.of('create')[0]?.body ?? '{}')).toMatchObject({ ref: 'feature', ref_type: 'branch', repository: { name: 'demo' } });
    await f.deleteBranch('alice', 'demo', 'alice', 'feature');
    await rx.until(() => rx.of('delete').length === 1, drain);
    expect(json(rx.of('delete')[0]?.body ?? '{}')).toMatchObject({ ref: 'feature', ref_type: 'branch', pusher_type: 'user' });
    expect(rx.of('push')).toHaveLength(1);
  });

  it('issues, labels, assignees, milestones and comments arrive with their actions', async () => {
    rx.received.length = 0;
    const issue = await api('POST', '/repos/alice/demo/issues', { title: 'bug', body: 'it breaks' });
    expect(issue.statusCode).toBe(201);
    await rx.until(() => rx.of('issues').length === 1, drain);
    const opened = json(rx.of('issues')[0]?.body ?? '{}');
    expect(opened).toMatchObject({
      action: 'opened',
      number: 1,
      issue: { title: 'bug', body: 'it breaks' },
      sender: { login: 'alice' },
      commit_id: '',
    });
    expect(rx.of('issues')[0]?.headers['x-gitea-event']).toBe('issues');

    const label = (await api('POST', '/repos/alice/demo/labels', { name: 'kind/bug', color: '#ff0000' })).json();
    await api('POST', '/repos/alice/demo/issues/1/labels', { labels: [label.id] });
    await api('PATCH', '/repos/alice/demo/issues/1', { assignees: ['alice'] });
    await api('PATCH', '/repos/alice/demo/issues/1', { title: 'bug!', body: 'it really breaks' });
    const ms = (await api('POST', '/repos/alice/demo/milestones', { title: 'v1' })).json();
    await api('PATCH', '/repos/alice/demo/issues/1', { milestone: ms.id });
    const comment = (await api('POST', '/repos/alice/demo/issues/1/comments', { body: 'first' })).json();
    // Payloads are built when the prepare job runs (a running worker does so at once): run it before the
    // comment changes again, as a worker would.
    await drain();
    const edited = await api('PATCH', `/repos/alice/demo/issues/comments/${comment.id}`, { body: 'second' });
    expect(edited.statusCode, edited.body).toBe(200);
    await drain();
    await api('PATCH', '/repos/alice/demo/issues/1', { state: 'closed' });
    const deleted = await api('DELETE', `/repos/alice/demo/issues/comments/${comment.id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await rx.until(() => rx.of('issue_comment').length === 3 && rx.of('issues').length === 3, drain);
    expect(rx.of('issue_label').map((r) => json(r.body).action)).toEqual(['label_updated']);
    expect(rx.of('issue_label')[0]?.headers['x-gitea-event']).toBe('issues');
    expect(rx.of('issue_assign').map((r) => json(r.body).action)).toEqual(['assigned']);
    expect(rx.of('issue_milestone').map((r) => json(r.body).action)).toEqual(['milestoned']);
    expect(
      rx
        .of('issues')
        .map((r) => json(r.body).action as string)
        .sort(),
    ).toEqual(['closed', 'edited', 'opened']);
    const editedIssue = rx.of('issues').find((r) => json(r.body).action === 'edited');
    expect(json(editedIssue?.body ?? '{}')).toMatchObject({
      changes: { title: { from: 'bug' }, body: { from: 'it breaks' } },
      issue: { title: 'bug!' },
    });
    const comments = rx.of('issue_comment').map((r) => json(r.body));
    const byAction = (a: string) => comments.find((c) => c.action === a);
    expect(comments.map((c) => c.action as string).sort()).toEqual(['created', 'deleted', 'edited']);
    expect(byAction('created')).toMatchObject({ comment: { body: 'first' }, is_pull: false });
    expect(byAction('edited')).toMatchObject({ comment: { body: 'second' }, changes: { body: { from: 'first' } }, is_pull: false });
    expect(byAction('deleted')).toMatchObject({ comment: { id: comment.id, body: 'second' } });
  });

  it('pull requests: opened, synchronized on a push to the head, review, merged (closed with merged)', async () => {
    rx.received.length = 0;
    await f.push('alice', 'demo', 'alice', 'topic', { 't.txt': 't\n' });
    const pr = await f.open('alice', 'demo', 'alice', { head: 'topic', base: 'main' });
    const n = pr.json.number as number;
    await rx.until(() => rx.of('pull_request').length === 1, drain);
    expect(json(rx.of('pull_request')[0]?.body ?? '{}')).toMatchObject({
      action: 'opened',
      number: n,
      pull_request: { number: n, merged: false },
    });
    await f.push('alice', 'demo', 'alice', 'topic', { 'u.txt': 'u\n' });
    await rx.until(() => rx.of('pull_request_sync').length === 1, drain);
    expect(rx.of('pull_request_sync')[0]?.headers['x-gitea-event']).toBe('pull_request');
    expect(json(rx.of('pull_request_sync')[0]?.body ?? '{}')).toMatchObject({ action: 'synchronized', number: n });
    await api('POST', '/repos/alice/demo/collaborators/bob', { permission: 'write' }).catch(() => undefined);
    await t.request('PUT', '/api/v1/repos/alice/demo/collaborators/bob', { headers: basic('alice'), body: { permission: 'write' } });
    const review = await api('POST', `/repos/alice/demo/pulls/${n}/reviews`, { event: 'APPROVED', body: 'LGTM' }, 'bob');
    expect(review.statusCode, review.body).toBe(200);
    await rx.until(() => rx.of('pull_request_review_approved').length === 1, drain);
    const approved = rx.of('pull_request_review_approved')[0];
    expect(approved?.headers['x-gitea-event']).toBe('pull_request_approved');
    expect(json(approved?.body ?? '{}')).toMatchObject({
      action: 'reviewed',
      review: { type: 'pull_request_review_approved', content: 'LGTM' },
    });
    const merge = await api('POST', `/repos/alice/demo/pulls/${n}/merge`, { Do: 'merge' });
    expect(merge.statusCode, merge.body).toBe(200);
    await rx.until(() => rx.of('pull_request').length === 2, drain);
    expect(json(rx.of('pull_request')[1]?.body ?? '{}')).toMatchObject({ action: 'closed', pull_request: { merged: true } });
  });

  it('a fork is sent to the source repository with Gitea inverted forkee/repository', async () => {
    rx.received.length = 0;
    await f.fork('alice', 'demo', 'bob');
    await rx.until(() => rx.of('fork').length === 1, drain);
    expect(json(rx.of('fork')[0]?.body ?? '{}')).toMatchObject({
      forkee: { full_name: 'alice/demo' },
      repository: { full_name: 'bob/demo' },
    });
  });

  it('releases: published, updated and deleted arrive as release events with the release', async () => {
    rx.received.length = 0;
    const created = await api('POST', '/repos/alice/demo/releases', { tag_name: 'v9.0', name: 'Nine', body: 'notes' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    await rx.until(() => rx.of('release').length === 1, drain);
    expect(json(rx.of('release')[0]?.body ?? '{}')).toMatchObject({
      action: 'published',
      release: { id, tag_name: 'v9.0', name: 'Nine', body: 'notes', draft: false },
      repository: { full_name: 'alice/demo' },
      sender: { login: 'alice' },
    });
    expect((await api('PATCH', `/repos/alice/demo/releases/${id}`, { name: 'Nine!' })).statusCode).toBe(200);
    await rx.until(() => rx.of('release').length === 2, drain);
    expect(json(rx.of('release')[1]?.body ?? '{}')).toMatchObject({ action: 'updated', release: { id, name: 'Nine!' } });
    expect((await api('DELETE', `/repos/alice/demo/releases/${id}`)).statusCode).toBe(204);
    await rx.until(() => rx.of('release').length === 3, drain);
    const deleted = json(rx.of('release')[2]?.body ?? '{}');
    expect(deleted).toMatchObject({
      action: 'deleted',
      release: { id, tag_name: 'v9.0', name: 'Nine!', body: 'notes', author: { login: 'alice' } },
    });
    expect(rx.of('release')[2]?.headers['x-gitea-event']).toBe('release');
  });

  it('branch_filter and inactive hooks are honoured', async () => {
    const filtered = await HookReceiver.start();
    const inactive = await HookReceiver.start();
    try {
      const a = await api('POST', '/repos/alice/demo/hooks', {
        type: 'gitea',
        config: { url: filtered.url, content_type: 'json' },
        events: ['push'],
        branch_filter: '{main,release/*}',
        active: true,
      });
      expect(a.json().branch_filter).toBe('{main,release/*}');
      await api('POST', '/repos/alice/demo/hooks', {
        type: 'gitea',
        config: { url: inactive.url, content_type: 'json' },
        events: ['push'],
        active: false,
      });
      rx.received.length = 0;
      await f.push('alice', 'demo', 'alice', 'other', { 'o.txt': 'o\n' });
      await f.push('alice', 'demo', 'alice', 'release/v1', { 'r.txt': 'r\n' });
      await f.push('alice', 'demo', 'alice', 'main', { 'm.txt': 'm\n' });
      await rx.until(() => rx.of('push').length === 3, drain);
      await filtered.until(() => filtered.of('push').length === 2, drain);
      // Deliveries run concurrently: their order is not the events' order.
      expect(
        filtered
          .of('push')
          .map((r) => json(r.body).ref as string)
          .sort(),
      ).toEqual(['refs/heads/main', 'refs/heads/release/v1']);
      expect(inactive.received).toHaveLength(0);
    } finally {
      await filtered.close();
      await inactive.close();
    }
  });

  it('a failing receiver is retried with backoff until it succeeds; redelivery sends a new delivery', async () => {
    rx.received.length = 0;
    rx.statuses = [500, 502];
    await f.push('alice', 'demo', 'alice', 'main', { 'retry.txt': 'x\n' });
    await rx.until(() => rx.of('push').length === 3, drain);
    const [first, second, third] = rx.of('push');
    expect(first?.headers['x-gitea-delivery']).toBe(third?.headers['x-gitea-delivery']);
    // Exponential backoff: 100 ms, then 200 ms.
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(90);
    expect((third?.at ?? 0) - (second?.at ?? 0)).toBeGreaterThanOrEqual(180);
    const listed = (await api('GET', `/repos/alice/demo/hooks/${hookId}/deliveries`)).json() as Doc[];
    expect(listed[0]).toMatchObject({ status: 'succeed', attempts: 3, status_code: 200 });

    const again = await api('POST', `/repos/alice/demo/hooks/${hookId}/deliveries/${listed[0]?.id}/attempts`);
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json()).toMatchObject({ redelivery: true, status: 'pending', event: 'push' });
    await rx.until(() => rx.of('push').length === 4, drain);
    const replayed = rx.of('push')[3];
    expect(replayed?.headers['x-gitea-delivery']).not.toBe(third?.headers['x-gitea-delivery']);
    expect(replayed?.body).toBe(third?.body);
  });

  it('push payloads list the paths each commit added, removed and modified (against its first parent), as Gitea does', async () => {
    rx.received.length = 0;
    await f.push('alice', 'demo', 'alice', 'files', { 'new.txt': 'n\n', 'a.txt': 'changed\n' });
    await rx.until(() => rx.of('push').length === 1, drain);
    // One commit that removes, adds (in a folder, with a space) and modifies; then a merge of a side branch.
    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['checkout', '-q', '-B', 'files', 'origin/files'], { cwd: dir });
    await f.git.ok(['rm', '-q', 'new.txt'], { cwd: dir });
    await f.git.ok(['mv', 'a.txt', 'moved a.txt'], { cwd: dir });
    const mixed = await f.git.commit(dir, 'd/x.txt', 'x\n', 'mixed');
    await f.git.ok(['checkout', '-q', '-b', 'files-side', 'origin/files'], { cwd: dir });
    const side = await f.git.commit(dir, 'side.txt', 's\n', 'side');
    await f.git.ok(['checkout', '-q', 'files'], { cwd: dir });
    await f.git.ok(['merge', '-q', '--no-edit', '--no-ff', 'files-side'], { cwd: dir });
    const merge = (await f.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    rx.received.length = 0;
    await f.git.ok(['push', '-q', 'origin', 'files'], { cwd: dir });
    await t.app.deps.notifier.drain();
    await rx.until(() => rx.of('push').length === 1, drain);
    const second = json(rx.of('push')[0]?.body ?? '{}');
    const files = (c: Doc) => ({ id: c.id, added: c.added, removed: c.removed, modified: c.modified });
    // (mixed and side may share a commit time: their order in the log is not fixed.)
    const byId = (a: { id: unknown }, b: { id: unknown }) => String(a.id).localeCompare(String(b.id));
    expect((second.commits as Doc[]).map(files).sort(byId)).toEqual(
      [
        { id: merge, added: ['side.txt'], removed: [], modified: [] },
        { id: side, added: ['side.txt'], removed: [], modified: [] },
        { id: mixed, added: ['d/x.txt', 'moved a.txt'], removed: ['a.txt', 'new.txt'], modified: [] },
      ].sort(byId),
    );
    expect((second.commits as Doc[])[0]?.id).toBe(merge);
    expect(files(second.head_commit as Doc)).toEqual({ id: merge, added: ['side.txt'], removed: [], modified: [] });
    // The first push: one commit per file, newest first.
    const first = (await api('GET', `/repos/alice/demo/hooks/${hookId}/deliveries`)).json() as Doc[];
    const firstPush = first.find((d) => d.event === 'push' && d.id !== first[0]?.id);
    const payload = (await api('GET', `/repos/alice/demo/hooks/${hookId}/deliveries/${firstPush?.id}`)).json().payload as Doc;
    expect((payload.commits as Doc[]).map((c) => [c.added, c.removed, c.modified])).toEqual([
      [[], [], ['a.txt']],
      [['new.txt'], [], []],
    ]);
  });

  it('delivery flags say what happened: delivered once an attempt was made, succeeded only on a 2xx', async () => {
    rx.received.length = 0;
    rx.statuses = [500, 500, 500, 500];
    await f.push('alice', 'demo', 'alice', 'main', { 'fails.txt': 'x\n' });
    await rx.until(() => rx.of('push').length === 1, drain);
    const latest = async () => ((await api('GET', `/repos/alice/demo/hooks/${hookId}/deliveries`)).json() as Doc[])[0];
    // After a failed first attempt, with retries to come.
    expect(await latest()).toMatchObject({ status: 'pending', delivered: true, succeeded: false, attempts: 1, status_code: 500 });
    await rx.until(() => rx.of('push').length === 4, drain);
    const failed = await latest();
    expect(failed).toMatchObject({
      status: 'fail',
      delivered: true,
      succeeded: false,
      attempts: 4,
      status_code: 500,
      next_attempt_at: null,
    });
    // A redelivery not yet attempted; then attempted and answered.
    const again = await api('POST', `/repos/alice/demo/hooks/${hookId}/deliveries/${failed?.id}/attempts`);
    expect(again.json()).toMatchObject({ status: 'pending', delivered: false, succeeded: false, attempts: 0 });
    await rx.until(() => rx.of('push').length === 5, drain);
    expect(await latest()).toMatchObject({ status: 'succeed', delivered: true, succeeded: true, attempts: 1, status_code: 200 });
  });

  it('organization hooks get the events of its repositories, system hooks those of every repository', async () => {
    const orgRx = await HookReceiver.start();
    const sysRx = await HookReceiver.start();
    try {
      await t.createUser('root', { admin: true });
      expect((await api('POST', '/orgs', { username: 'acme' })).statusCode).toBe(201);
      expect((await api('POST', '/orgs/acme/repos', { name: 'tools' })).statusCode).toBe(201);
      const org = await api('POST', '/orgs/acme/hooks', {
        type: 'gitea',
        config: { url: orgRx.url, content_type: 'json' },
        events: ['issues'],
        active: true,
      });
      expect(org.statusCode, org.body).toBe(201);
      const sys = await api(
        'POST',
        '/admin/hooks',
        { type: 'gitea', config: { url: sysRx.url, content_type: 'json', is_system_webhook: 'true' }, events: ['issues'], active: true },
        'root',
      );
      expect(sys.statusCode, sys.body).toBe(201);
      await api('POST', '/repos/acme/tools/issues', { title: 'in the org' });
      await api('POST', '/repos/alice/demo/issues', { title: 'in a user repository' });
      await sysRx.until(() => sysRx.of('issues').length === 2, drain);
      await orgRx.until(() => orgRx.of('issues').length === 1, drain);
      expect(json(orgRx.of('issues')[0]?.body ?? '{}')).toMatchObject({
        issue: { title: 'in the org' },
        repository: { full_name: 'acme/tools' },
      });
      expect(orgRx.of('issues')[0]?.headers['x-gitea-hook-installation-target-type']).toBe('organization');
      expect(sysRx.of('issues').map((r) => r.headers['x-gitea-hook-installation-target-type'])).toEqual(['system', 'system']);
      expect(
        sysRx
          .of('issues')
          .map((r) => (json(r.body).issue as Doc).title as string)
          .sort(),
      ).toEqual(['in a user repository', 'in the org']);
      await api('DELETE', `/admin/hooks/${sys.json().id}`, undefined, 'root');
    } finally {
      await orgRx.close();
      await sysRx.close();
    }
  });

  it('the test endpoint sends a push of the default branch head, whatever the events', async () => {
    const other = await HookReceiver.start();
    try {
      const hook = (
        await api('POST', '/repos/alice/demo/hooks', {
          type: 'gitea',
          config: { url: other.url, content_type: 'form' },
          events: ['issues'],
          active: true,
        })
      ).json();
      const res = await api('POST', `/repos/alice/demo/hooks/${hook.id}/tests`);
      expect(res.statusCode).toBe(204);
      await other.until(() => other.received.length === 1, drain);
      const got = other.received[0];
      expect(got?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const payload = json(new URLSearchParams(got?.body ?? '').get('payload') ?? '{}');
      expect(payload).toMatchObject({ ref: 'refs/heads/main', total_commits: 1 });
      expect(payload.before).toBe(payload.after);
      expect((await api('POST', `/repos/alice/demo/hooks/99999/tests`)).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
