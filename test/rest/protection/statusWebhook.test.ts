import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { HookReceiver, type Doc } from '../../helpers/hookReceiver.ts';
import { PullFixture } from '../../helpers/pull.ts';

/** Issue 16 item 5: a created commit status is Gitea's `status` webhook event (CommitStatusPayload). */
describe.each(PROVIDERS)('status webhook (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let rx: HookReceiver;
  const drain = async () => {
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
  };

  beforeAll(async () => {
    t = await startTestApp(provider, { WEBHOOK_ALLOWED_HOST_LIST: 'loopback' });
    f = await PullFixture.start(t);
    rx = await HookReceiver.start();
    await t.createUser('alice');
    await f.createRepo('alice', 'demo');
    const res = await t.request('POST', '/api/v1/repos/alice/demo/hooks', {
      headers: basic('alice'),
      body: { type: 'gitea', config: { url: rx.url, content_type: 'json' }, events: ['status'], active: true },
    });
    expect(res.statusCode, res.body).toBe(201);
  }, 60_000);
  afterAll(async () => {
    f?.dispose();
    await rx?.close();
    await t?.close();
  });

  it('POST /statuses/{sha} delivers a `status` event with the status, the commit, the repository and the sender', async () => {
    const sha = await f.push('alice', 'demo', 'alice', 'main', { 'a.txt': 'a\n' });
    const res = await t.request('POST', `/api/v1/repos/alice/demo/statuses/${sha}`, {
      headers: basic('alice'),
      body: { state: 'success', context: 'ci/build', description: 'green', target_url: 'https://ci.example/1' },
    });
    expect(res.statusCode).toBe(201);
    await rx.until(() => rx.of('status').length >= 1, drain);
    const [delivery] = rx.of('status');
    expect(delivery?.headers).toMatchObject({ 'x-gitea-event': 'status', 'x-gitea-event-type': 'status' });
    const payload = JSON.parse(delivery!.body) as Doc;
    expect(payload).toMatchObject({
      id: (res.json() as { id: number }).id,
      sha,
      state: 'success',
      context: 'ci/build',
      description: 'green',
      target_url: 'https://ci.example/1',
      commit: { id: sha },
      repository: { full_name: 'alice/demo' },
      sender: { login: 'alice' },
    });
    expect(typeof payload.created_at).toBe('string');
    // The event job runs once: a second drain delivers nothing more.
    await drain();
    expect(rx.of('status')).toHaveLength(1);
  });
});
