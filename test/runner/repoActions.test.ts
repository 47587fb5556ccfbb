import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, runnerClients } from './runnerClient.ts';

const WORKFLOW = `on:
  push:
  workflow_dispatch:
    inputs:
      target:
        default: staging
      level:
        default: '1'
run-name: Deploy to \${{ inputs.target }}
jobs:
  long:
    runs-on: ubuntu-latest
    steps:
      - run: sleep 600
`;

/** The repository's runs, jobs, logs, cancel and dispatch; cancelling a running job reaches its runner. */
describe.each(PROVIDERS)('repository actions endpoints (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  let owner: Models.User;
  const as = (u = 'owner') => ({ headers: basic(u) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    owner = await t.createUser('owner');
    await t.createUser('outsider');
    await t.createUser('root', { admin: true });
    await createRepoFixture(t, owner, 'svc', { isPrivate: true });
    const dir = git.dir('svc');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.github/workflows/deploy.yaml', WORKFLOW, 'deploy workflow');
    await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'owner', 'svc', { user: 'owner', secret: PASSWORD }), 'main'], {
      cwd: dir,
    });
    await t.app.jobs.drain();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('lists runs and jobs, serves the log, and a cancel reaches the runner through UpdateTask', async () => {
    const runs = (await t.request('GET', '/api/v1/repos/owner/svc/actions/runs', as())).json<{
      workflow_runs: Array<{ id: number; display_title: string }>;
    }>();
    expect(runs.workflow_runs).toHaveLength(1);
    // run-name with inputs: a push has none.
    expect(runs.workflow_runs[0]?.display_title).toBe('Deploy to ');
    const runId = runs.workflow_runs[0]?.id ?? 0;
    expect((await t.request('GET', '/api/v1/repos/owner/svc/actions/runs', as('outsider'))).statusCode).toBe(404);
    expect((await t.request('GET', `/api/v1/repos/owner/svc/actions/runs/${runId + 100}`, as())).statusCode).toBe(404);

    const token = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', as('root'))).json<{ token: string }>().token;
    const c = runnerClients(base, 'json');
    const { runner } = await c.runner().register({ name: 'canceller', token, labels: ['ubuntu-latest'], capabilities: ['cancelling'] });
    const r = c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' });
    const task = (await r.fetchTask({})).task;
    const taskId = task?.id ?? 0n;
    const now = timestampFromDate(new Date());
    await r.updateLog({ taskId, index: 0n, rows: [{ time: now, content: 'sleeping' }] });
    expect((await r.updateTask({ state: { id: taskId, steps: [{ id: 0n, startedAt: now }] } })).state?.result).toBe(0);

    const jobs = (await t.request('GET', `/api/v1/repos/owner/svc/actions/runs/${runId}/jobs`, as())).json<{
      jobs: Array<{ id: number; status: string }>;
    }>();
    expect(jobs.jobs).toMatchObject([{ status: 'in_progress' }]);
    const jobId = jobs.jobs[0]?.id ?? 0;
    const log = await t.request('GET', `/api/v1/repos/owner/svc/actions/jobs/${jobId}/logs`, as());
    expect(log.statusCode).toBe(200);
    expect(log.body).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z sleeping\n$/);

    expect((await t.request('POST', `/api/v1/repos/owner/svc/actions/runs/${runId}/cancel`, as('outsider'))).statusCode).toBe(404);
    expect((await t.request('POST', `/api/v1/repos/owner/svc/actions/runs/${runId}/cancel`, as())).statusCode).toBe(202);
    // The runner's heartbeat learns of the cancel, then reports its end; the job ends cancelled whatever it says.
    expect((await r.updateTask({ state: { id: taskId } })).state?.result).toBe(3);
    await r.updateTask({ state: { id: taskId, result: 2, stoppedAt: now } });
    const job = (await t.request('GET', `/api/v1/repos/owner/svc/actions/jobs/${jobId}`, as())).json();
    expect(job).toMatchObject({ status: 'completed', conclusion: 'cancelled', runner_name: 'canceller' });
    expect((await t.request('GET', `/api/v1/repos/owner/svc/actions/runs/${runId}`, as())).json()).toMatchObject({
      status: 'completed',
      conclusion: 'cancelled',
    });
  });

  it('dispatches a workflow with inputs and their defaults', async () => {
    const missing = await t.request('POST', '/api/v1/repos/owner/svc/actions/workflows/nope.yml/dispatches', {
      ...as(),
      body: { ref: 'main' },
    });
    expect(missing.statusCode).toBe(404);
    const res = await t.request('POST', '/api/v1/repos/owner/svc/actions/workflows/deploy.yaml/dispatches', {
      ...as(),
      body: { ref: 'main', inputs: { target: 'production' } },
    });
    expect(res.statusCode).toBe(204);
    const runs = (await t.request('GET', '/api/v1/repos/owner/svc/actions/runs?event=workflow_dispatch', as())).json<{
      workflow_runs: Array<Record<string, unknown>>;
    }>();
    expect(runs.workflow_runs).toHaveLength(1);
    expect(runs.workflow_runs[0]).toMatchObject({
      display_title: 'Deploy to production',
      event: 'workflow_dispatch',
      status: 'queued',
      run_number: 2,
    });
    const row = await t.db.actionRun.findFirstOrThrow({ where: { event: 'workflow_dispatch' } });
    expect(JSON.parse(row.eventPayload).inputs).toEqual({ target: 'production', level: '1' });
  });

  it('stop_zombie_tasks fails a task whose runner stopped reporting', async () => {
    const token = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', as('root'))).json<{ token: string }>().token;
    const c = runnerClients(base, 'binary');
    const { runner } = await c.runner().register({ name: 'vanishing', token, labels: ['ubuntu-latest'] });
    const task = (await c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' }).fetchTask({})).task;
    const id = Number(task?.id);
    await t.db.actionTask.update({ where: { id }, data: { updatedAt: new Date(Date.now() - 11 * 60_000) } });
    const cron = await t.request('POST', '/api/v1/admin/cron/stop_zombie_tasks', as('root'));
    expect(cron.statusCode).toBe(204);
    const row = await t.db.actionTask.findUniqueOrThrow({ where: { id }, include: { job: { include: { run: true } } } });
    expect([row.status, row.job.status, row.job.run.status]).toEqual(['FAILURE', 'FAILURE', 'FAILURE']);
  });
});
