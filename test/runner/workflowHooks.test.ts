import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { HookReceiver, type Doc } from '../helpers/hookReceiver.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, registeredRunner } from './runnerClient.ts';

const WORKFLOW = `name: Build
on: push
jobs:
  one:
    runs-on: linux
    steps:
      - run: echo one
  two:
    needs: one
    runs-on: linux
    steps:
      - run: echo two
`;

/** workflow_run and workflow_job webhooks follow a run's statuses, delivered through the durable webhook path. */
describe.each(PROVIDERS)('workflow_run and workflow_job webhooks (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  let rx: HookReceiver;
  const drain = async () => {
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
  };

  beforeAll(async () => {
    t = await startTestApp(provider, { WEBHOOK_ALLOWED_HOST_LIST: 'loopback' });
    base = await listenBase(t);
    git = new GitClient();
    rx = await HookReceiver.start();
    const dev = await t.createUser('dev');
    await createRepoFixture(t, dev, 'app');
    const hook = await t.request('POST', '/api/v1/repos/dev/app/hooks', {
      headers: basic('dev'),
      body: { type: 'gitea', config: { url: rx.url, content_type: 'json' }, events: ['workflow_run', 'workflow_job'], active: true },
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    git?.dispose();
    await rx?.close();
    await t?.close();
  });

  const actions = (type: string, key: 'workflow_run' | 'workflow_job') =>
    rx.of(type).map((r) => {
      const doc = JSON.parse(r.body) as Doc;
      const item = doc[key] as Doc;
      return key === 'workflow_job' ? `${String(item.name)}:${String(doc.action)}` : String(doc.action);
    });

  it('announces each status change of the run and of its jobs once', async () => {
    const dir = git.dir('app');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/build.yml', WORKFLOW, 'build');
    await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'dev', 'app', { user: 'dev', secret: PASSWORD }), 'main'], { cwd: dir });
    await drain();
    await rx.until(() => rx.of('workflow_job').length >= 2 && rx.of('workflow_run').length >= 1, drain);
    expect(actions('workflow_run', 'workflow_run')).toEqual(['requested']);
    expect(actions('workflow_job', 'workflow_job').sort()).toEqual(['one:queued', 'two:waiting']);
    const [requested] = rx.of('workflow_run');
    expect(requested?.headers['x-gitea-event']).toBe('workflow_run');
    const payload = JSON.parse(requested?.body ?? '{}') as Doc;
    expect(payload).toMatchObject({
      workflow: { id: 'build.yml', name: 'Build', path: '.gitea/workflows/build.yml', state: 'active' },
      workflow_run: { path: 'build.yml@refs/heads/main', status: 'queued', event: 'push' },
      repository: { full_name: 'dev/app' },
      sender: { login: 'dev' },
    });

    const { client: r } = await registeredRunner(t, base, {
      tokenPath: '/repos/dev/app/actions/runners/registration-token',
      headers: basic('dev'),
      name: 'r',
      labels: ['linux'],
    });
    const now = timestampFromDate(new Date());
    for (let i = 0; i < 2; i++) {
      const task = (await r.fetchTask({ tasksVersion: 0n })).task;
      await r.updateTask({ state: { id: task?.id ?? 0n, result: 1, stoppedAt: now } });
    }
    await rx.until(() => actions('workflow_run', 'workflow_run').includes('completed'), drain);
    await drain();
    // Between the jobs the run waits again (Gitea's AggregateJobStatus), so it is requested a second time.
    expect(actions('workflow_run', 'workflow_run')).toEqual(['requested', 'in_progress', 'requested', 'in_progress', 'completed']);
    expect(actions('workflow_job', 'workflow_job').sort()).toEqual([
      'one:completed',
      'one:in_progress',
      'one:queued',
      'two:completed',
      'two:in_progress',
      'two:queued',
      'two:waiting',
    ]);
    const done = JSON.parse(rx.of('workflow_job').at(-1)?.body ?? '{}') as Doc;
    expect(done).toMatchObject({
      action: 'completed',
      workflow_job: { name: 'two', status: 'completed', conclusion: 'success', runner_name: 'r' },
    });
  });
});
