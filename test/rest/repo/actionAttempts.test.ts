import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createRepoFixture, GitClient, gitUrl } from '../../githttp/gitClient.ts';
import { listenBase, registeredRunner } from '../../runner/runnerClient.ts';

const WORKFLOW = `on: push
jobs:
  a:
    runs-on: linux
    steps:
      - run: echo a
  b:
    needs: a
    runs-on: linux
    steps:
      - run: echo b
  c:
    needs: b
    runs-on: linux
    steps:
      - run: echo c
`;

interface Job {
  id: number;
  name: string;
  status: string;
  conclusion?: string;
  run_attempt: number;
  runner_name?: string;
}

/** GET …/actions/runs/{run}/attempts/{attempt}[/jobs]: a re-run starts the next attempt; earlier ones stay as they ran. */
describe.each(PROVIDERS)('workflow run attempts (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  const as = (u = 'dev') => ({ headers: basic(u) });
  const url = '/api/v1/repos/dev/app/actions/runs';

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    const dev = await t.createUser('dev');
    await t.createUser('stranger');
    await createRepoFixture(t, dev, 'app', { isPrivate: true });
    const dir = git.dir('app');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/chain.yml', WORKFLOW, 'chain');
    await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'dev', 'app', { user: 'dev', secret: PASSWORD }), 'main'], { cwd: dir });
    await t.app.jobs.drain();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('keeps attempt 1 as it ended when the failed jobs re-run as attempt 2', async () => {
    const runId = (await t.request('GET', url, as())).json<{ workflow_runs: Array<{ id: number }> }>().workflow_runs[0]?.id ?? 0;
    const attempt = (n: number | string, who = 'dev') => t.request('GET', `${url}/${runId}/attempts/${n}`, as(who));
    const attemptJobs = async (n: number, query = '') => {
      const res = await t.request('GET', `${url}/${runId}/attempts/${n}/jobs${query}`, as());
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ jobs: Job[]; total_count: number }>();
    };

    const first = await attempt(1);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ id: runId, run_attempt: 1, previous_attempt_url: null, status: 'queued' });
    expectGiteaError(await attempt(2), 404);
    expectGiteaError(await attempt(0), 404);
    expectGiteaError(await attempt(1, 'stranger'), 404);
    expectGiteaError(await t.request('GET', `${url}/${runId}/attempts/1`), 404);
    expectGiteaError(await t.request('GET', `${url}/${runId + 1000}/attempts/1/jobs`, as()), 404);

    const { client: r } = await registeredRunner(t, base, {
      tokenPath: '/repos/dev/app/actions/runners/registration-token',
      headers: basic('dev'),
      labels: ['linux'],
      name: 'r1',
    });
    const now = timestampFromDate(new Date());
    const finishNext = async (result: number) => {
      const task = (await r.fetchTask({ tasksVersion: 0n })).task;
      expect(task).toBeDefined();
      await r.updateTask({ state: { id: task?.id ?? 0n, result, stoppedAt: now } });
      return task?.context?.['job'];
    };
    expect(await finishNext(1)).toBe('a');
    expect(await finishNext(2)).toBe('b');
    expect((await t.request('POST', `${url}/${runId}/rerun-failed-jobs`, as())).statusCode).toBe(201);

    const latest = (await t.request('GET', `${url}/${runId}`, as())).json();
    expect(latest).toMatchObject({
      run_attempt: 2,
      status: 'queued',
      previous_attempt_url: `http://localhost:3000/api/v1/repos/dev/app/actions/runs/${runId}/attempts/1`,
    });
    expect((await attempt(2)).json()).toEqual(latest);
    expect((await attempt(1)).json()).toMatchObject({
      run_attempt: 1,
      status: 'completed',
      conclusion: 'failure',
      previous_attempt_url: null,
    });

    const old = await attemptJobs(1);
    expect(old.total_count).toBe(3);
    expect(old.jobs.map((j) => [j.name, j.status, j.conclusion, j.run_attempt, j.runner_name])).toEqual([
      ['a', 'completed', 'success', 1, 'r1'],
      ['b', 'completed', 'failure', 1, 'r1'],
      ['c', 'completed', 'skipped', 1, undefined],
    ]);
    expect((await attemptJobs(2)).jobs.map((j) => [j.name, j.status, j.run_attempt])).toEqual([
      ['a', 'completed', 1],
      ['b', 'queued', 2],
      ['c', 'waiting', 2],
    ]);

    expect(await finishNext(1)).toBe('b');
    expect(await finishNext(1)).toBe('c');
    expect((await attempt(2)).json()).toMatchObject({ run_attempt: 2, status: 'completed', conclusion: 'success' });
    expect((await attempt(1)).json()).toMatchObject({ conclusion: 'failure' });
    const failed = await attemptJobs(1, '?status=failure');
    expect([failed.total_count, failed.jobs.map((j) => j.name)]).toEqual([1, ['b']]);
    const paged = await attemptJobs(1, '?limit=1&page=2');
    expect([paged.total_count, paged.jobs.map((j) => j.name)]).toEqual([3, ['b']]);
    expectGiteaError(await attempt(3), 404);
    expectGiteaError(await t.request('GET', `${url}/${runId}/attempts/1/jobs?status=bogus`, as()), 400);
  });
});
