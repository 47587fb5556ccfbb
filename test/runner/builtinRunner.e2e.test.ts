import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { HookReceiver } from '../helpers/hookReceiver.ts';
import { createRepoFixture } from '../githttp/gitClient.ts';
import { RunnerWorld } from './builtinRunnerProcess.ts';
import { expectGraph } from './builtinRunnerE2eGraph.ts';
import { expectActionHooks } from './builtinRunnerE2eHooks.ts';
import { CI, FINAL_CONTEXTS, FINAL_JOBS, MESSAGE, type Job } from './builtinRunnerE2eWorkflow.ts';

/**
 * The Done-when of issue 16: a pushed workflow (a matrix of two, a dependent job, a failing step, a skipped job)
 * runs on the built-in runner as a real child process, registered with a registration token; the checkout goes
 * through the task token over smart HTTP; the API, logs, commit status and webhooks show the outcome.
 */
describe.each(PROVIDERS)('built-in runner end to end (%s)', (provider) => {
  let w: RunnerWorld;
  let rx: HookReceiver;
  const get = <T>(url: string) => w.get<T>(url);

  beforeAll(async () => {
    w = await RunnerWorld.start(provider, { WEBHOOK_ALLOWED_HOST_LIST: 'loopback' });
    rx = await HookReceiver.start();
    const root = await w.t.db.user.findFirstOrThrow({ where: { name: 'root' } });
    await createRepoFixture(w.t, root, 'app');
    const hook = await w.t.request('POST', '/api/v1/repos/root/app/hooks', {
      headers: basic('root'),
      body: {
        type: 'gitea',
        config: { url: rx.url, content_type: 'json' },
        events: ['push', 'workflow_run', 'workflow_job', 'status'],
        active: true,
      },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const { file } = await w.startRunner('e2e-runner', 'e2e,linux:host', ['--capacity', '2']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      name: 'e2e-runner',
      address: `http://127.0.0.1:${w.port}`,
      labels: ['e2e', 'linux'],
    });
  }, 120_000);
  afterAll(async () => {
    await rx?.close();
    await w?.close();
  });

  it('runs the workflow: matrix, needs, failing and skipped jobs, with logs, statuses and webhooks', async () => {
    const sha = await w.push('app', { 'data/message.txt': `${MESSAGE}\n`, '.gitea/workflows/ci.yml': CI });
    await w.until(async () => {
      const runs = (await get<{ workflow_runs: Array<{ status: string }> }>('/api/v1/repos/root/app/actions/runs')).workflow_runs;
      return runs.length === 1 && runs[0]?.status === 'completed';
    }, 'the run to complete');

    const runs = await get<{ workflow_runs: Array<Record<string, unknown>>; total_count: number }>('/api/v1/admin/actions/runs?event=push');
    expect(runs.total_count).toBe(1);
    expect(runs.workflow_runs[0]).toMatchObject({ head_sha: sha, status: 'completed', conclusion: 'failure', event: 'push' });
    const runId = Number(runs.workflow_runs[0]?.id);

    const adminJobs = (await get<{ jobs: Job[] }>('/api/v1/admin/actions/jobs?sort=id&order=asc')).jobs;
    expect(adminJobs.map((j) => [j.name, j.status, j.conclusion])).toEqual(FINAL_JOBS);
    expect(adminJobs.filter((j) => j.name !== 'deploy').every((j) => j.runner_name === 'e2e-runner')).toBe(true);

    const jobs = (await get<{ jobs: Job[]; total_count: number }>(`/api/v1/repos/root/app/actions/runs/${runId}/jobs`)).jobs;
    const byName = new Map(jobs.map((j) => [j.name, j]));
    expect(byName.get('broken')?.steps.map((s) => [s.name, s.conclusion])).toEqual([
      ['allowed to fail', 'success'],
      ['fails', 'failure'],
      ['not reached', 'skipped'],
      ['cleanup', 'success'],
      ['foreign action', 'failure'],
      ['bad expression', 'failure'],
    ]);
    expect(byName.get('read (b)')?.steps.map((s) => s.conclusion)).toEqual(['success', 'success', 'success']);

    const logs = async (name: string) => {
      const res = await w.t.request('GET', `/api/v1/repos/root/app/actions/jobs/${byName.get(name)?.id}/logs`, { headers: basic('root') });
      expect(res.statusCode, res.body).toBe(200);
      return res.body;
    };
    const readA = await logs('read (a)');
    // The checkout fetched the run's commit itself over smart HTTP, with the task token.
    expect(readA).toContain(`${sha} -> FETCH_HEAD`);
    expect(readA).toContain(`file says: ${MESSAGE}`);
    expect(readA).toContain(`matrix a at ${sha} of root/app on refs/heads/main`);
    expect(readA).toContain('env ok hello-a in data');
    expect(readA).toContain('### summary of a');
    expect(await logs('read (b)')).toContain('env ok hello-b in data');
    expect(await logs('after')).toContain(`needs said ${MESSAGE} with success`);
    const broken = await logs('broken');
    expect(broken).toContain('about to fail');
    expect(broken).not.toContain('never printed');
    expect(broken).toContain('cleanup ran after failure');
    expect(broken).toContain('only actions/checkout is built in');
    expect(broken).toContain('unsupported expression: function fromJSON()');

    const status = await get<{ state: string; statuses: Array<{ context: string; status: string }> }>(
      `/api/v1/repos/root/app/commits/${sha}/status`,
    );
    expect(status.state).toBe('failure');
    const contexts = Object.fromEntries(status.statuses.map((s) => [s.context, s.status]));
    expect(contexts).toEqual(FINAL_CONTEXTS);

    await rx.until(
      () => rx.of('push').length >= 1,
      () => w.t.app.jobs.drain(),
    );
    expect(JSON.parse(rx.of('push')[0]?.body ?? '{}')).toMatchObject({ after: sha, ref: 'refs/heads/main' });

    await expectActionHooks(w, rx, sha, runId);
    await expectGraph(w, sha, runId, jobs);

    // The task tokens stopped working with their tasks.
    const runner = await w.t.db.actionRunner.findFirstOrThrow({ where: { name: 'e2e-runner' } });
    expect(await w.t.db.actionTask.count({ where: { runnerId: runner.id, status: 'RUNNING' } })).toBe(0);
  }, 240_000);

  it('runner run --once takes one task, reports it, and exits', async () => {
    const root = await w.t.db.user.findFirstOrThrow({ where: { name: 'root' } });
    await createRepoFixture(w.t, root, 'once');
    const workflow = `on: [push]\njobs:\n  one:\n    runs-on: once\n    steps:\n      - run: echo one \${{ github.repository }}\n  two:\n    runs-on: once\n    steps:\n      - run: echo two\n`;
    await w.push('once', { '.gitea/workflows/once.yml': workflow });
    await w.until(async () => (await get<{ total_count: number }>('/api/v1/repos/root/once/actions/runs')).total_count === 1, 'the run');
    const { daemon } = await w.startRunner('once-runner', 'once', ['--once'], 'run');
    const output = await daemon.succeeded();
    expect(output.match(/task \d+ started/g)).toHaveLength(1);
    const jobs = (await get<{ jobs: Job[] }>('/api/v1/repos/root/once/actions/jobs')).jobs;
    expect(jobs.map((j) => j.status).sort()).toEqual(['completed', 'queued']);
  }, 240_000);
});
