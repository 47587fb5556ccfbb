import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, runnerClients } from './runnerClient.ts';

const WORKFLOW = `name: CI
on:
  push:
    branches: [main]
    paths-ignore: ['docs/**']
jobs:
  test:
    runs-on: \${{ matrix.os }}
    strategy:
      matrix:
        os: [linux-a, linux-b]
    steps:
      - run: echo test on \${{ matrix.os }}
  build:
    needs: test
    runs-on: linux-a
    steps:
      - name: compile
        run: echo compile
      - name: broken
        run: exit 1
  report:
    needs: build
    if: \${{ failure() }}
    runs-on: linux-a
    steps:
      - run: echo report
  deploy:
    needs: build
    runs-on: linux-a
    steps:
      - run: echo deploy
`;

/**
 * A pushed workflow becomes a run with a job per matrix combination; a registered runner fetches the jobs over
 * the runner protocol, reports steps and logs, and the admin endpoints show the statuses as they change.
 */
describe.each(PROVIDERS)('workflow runs end to end (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  let admin: Models.User;
  const as = () => ({ headers: basic('root') });
  const port = () => Number(new URL(base).port);

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    admin = await t.createUser('root', { admin: true });
    await createRepoFixture(t, admin, 'app');
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  async function runner(name: string, labels: string[]) {
    const token = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', as())).json<{ token: string }>().token;
    const c = runnerClients(base, 'binary');
    const { runner: r } = await c.runner().register({ name, token, version: 'test', labels });
    return c.runner({ uuid: r?.uuid ?? '', token: r?.token ?? '' });
  }

  it('push → run and jobs → fetch → update → logs → roll-up, as the admin lists show', async () => {
    const dir = git.dir('work');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, 'README.md', 'hello\n');
    const sha = await git.commit(dir, '.gitea/workflows/ci.yml', WORKFLOW, 'add CI');
    await git.ok(['push', '-q', gitUrl(port(), 'root', 'app', { user: 'root', secret: PASSWORD }), 'main'], { cwd: dir });
    await t.app.jobs.drain();

    const runsRes = await t.request('GET', '/api/v1/admin/actions/runs', as());
    expect(runsRes.statusCode, runsRes.body).toBe(200);
    const runs = runsRes.json<{ workflow_runs: Array<Record<string, unknown>>; total_count: number }>();
    expect(runs.total_count).toBe(1);
    expect(runs.workflow_runs[0]).toMatchObject({
      display_title: 'add CI',
      event: 'push',
      head_sha: sha,
      head_branch: 'main',
      status: 'queued',
      path: 'ci.yml@refs/heads/main',
      run_number: 1,
    });
    expect(runs.workflow_runs[0]?.repository).toMatchObject({ full_name: 'root/app' });
    expect(runs.workflow_runs[0]?.trigger_actor).toMatchObject({ login: 'root' });

    const jobsRes = await t.request('GET', '/api/v1/admin/actions/jobs', as());
    expect(jobsRes.headers['x-total-count']).toBe('5');
    const jobs = jobsRes.json<{ jobs: Array<{ id: number; name: string; status: string; labels: string[]; steps: unknown[] }> }>().jobs;
    expect(jobs.map((j) => [j.name, j.status, j.labels])).toEqual([
      ['test (linux-a)', 'queued', ['linux-a']],
      ['test (linux-b)', 'queued', ['linux-b']],
      ['build', 'waiting', ['linux-a']],
      ['report', 'waiting', ['linux-a']],
      ['deploy', 'waiting', ['linux-a']],
    ]);
    expect(jobs[0]?.steps).toEqual([]);
    const queued = (await t.request('GET', '/api/v1/admin/actions/jobs?status=queued&sort=id&order=desc', as())).json<{
      jobs: Array<{ name: string }>;
    }>();
    expect(queued.jobs.map((j) => j.name)).toEqual(['test (linux-b)', 'test (linux-a)']);

    // A runner with only linux-a gets the linux-a job, then nothing: the linux-b job waits for another runner.
    const a = await runner('runner-a', ['linux-a']);
    const first = await a.fetchTask({ tasksVersion: 0n });
    const task = first.task;
    expect(task).toBeDefined();
    const payload = new TextDecoder().decode(task?.workflowPayload);
    expect(payload).toContain('echo test on ${{ matrix.os }}');
    expect(payload).toContain('linux-a');
    expect(task?.secrets.GITEA_TOKEN).toMatch(/^[0-9a-f]{40}$/);
    expect(task?.context).toMatchObject({ repository: 'root/app', sha, ref: 'refs/heads/main', event_name: 'push', run_number: '1' });
    expect((await a.fetchTask({ tasksVersion: 0n })).task).toBeUndefined();

    const running = (await t.request('GET', '/api/v1/admin/actions/jobs?status=in_progress', as())).json<{
      jobs: Array<Record<string, unknown>>;
    }>();
    expect(running.jobs).toHaveLength(1);
    expect(running.jobs[0]).toMatchObject({
      name: 'test (linux-a)',
      runner_name: 'runner-a',
      steps: [{ name: 'Run echo test on ${{ matrix.os }}', number: 0, status: 'queued' }],
    });

    const taskId = task?.id ?? 0n;
    const now = timestampFromDate(new Date());
    const log1 = await a.updateLog({
      taskId,
      index: 0n,
      rows: [
        { time: now, content: 'line one' },
        { time: now, content: 'line two' },
      ],
    });
    expect(log1.ackIndex).toBe(2n);
    // A resend of acknowledged rows adds nothing.
    const log2 = await a.updateLog({
      taskId,
      index: 1n,
      rows: [
        { time: now, content: 'line two' },
        { time: now, content: 'line three' },
      ],
      noMore: true,
    });
    expect(log2.ackIndex).toBe(3n);
    const done = await a.updateTask({
      state: {
        id: taskId,
        result: 1,
        startedAt: now,
        stoppedAt: now,
        steps: [{ id: 0n, result: 1, startedAt: now, stoppedAt: now, logIndex: 0n, logLength: 3n }],
      },
      outputs: { version: '1.2.3' },
    });
    expect(done.state?.result).toBe(1);
    expect(done.sentOutputs).toEqual(['version']);

    // The second matrix job goes to a runner that has linux-b.
    const b = await runner('runner-b', ['linux-b', 'linux-a']);
    const second = (await b.fetchTask({ tasksVersion: 0n })).task;
    expect(new TextDecoder().decode(second?.workflowPayload)).toContain('linux-b');
    await b.updateTask({ state: { id: second?.id ?? 0n, result: 1, stoppedAt: now } });

    // build is unblocked now, with the test jobs' results as needs.
    const build = (await b.fetchTask({ tasksVersion: 0n })).task;
    expect(new TextDecoder().decode(build?.workflowPayload)).toContain('compile');
    expect(build?.needs.test?.result).toBe(1);
    expect(build?.needs.test?.outputs).toMatchObject({ version: '1.2.3' });
    await b.updateTask({
      state: {
        id: build?.id ?? 0n,
        result: 2,
        steps: [
          { id: 0n, result: 1, startedAt: now, stoppedAt: now },
          { id: 1n, result: 2, startedAt: now, stoppedAt: now },
        ],
      },
    });

    // report runs (if: failure()), deploy is skipped.
    const report = (await a.fetchTask({ tasksVersion: 0n })).task;
    expect(new TextDecoder().decode(report?.workflowPayload)).toContain('echo report');
    await a.updateTask({ state: { id: report?.id ?? 0n, result: 1 } });

    const all = (await t.request('GET', '/api/v1/admin/actions/jobs', as())).json<{
      jobs: Array<{ name: string; status: string; conclusion?: string }>;
    }>();
    expect(all.jobs.map((j) => [j.name, j.status, j.conclusion])).toEqual([
      ['test (linux-a)', 'completed', 'success'],
      ['test (linux-b)', 'completed', 'success'],
      ['build', 'completed', 'failure'],
      ['report', 'completed', 'success'],
      ['deploy', 'completed', 'skipped'],
    ]);
    const buildJob = (await t.request('GET', '/api/v1/admin/actions/jobs?status=failure', as())).json<{
      jobs: Array<{ steps: unknown[] }>;
    }>();
    expect(buildJob.jobs[0]?.steps).toMatchObject([
      { name: 'compile', number: 0, status: 'completed', conclusion: 'success' },
      { name: 'broken', number: 1, status: 'completed', conclusion: 'failure' },
    ]);
    // The jobs list costs the same statements for two jobs as for five (steps, tasks and runners are batched).
    const statements = async (limit: number) => {
      t.queries.length = 0;
      expect((await t.request('GET', `/api/v1/admin/actions/jobs?limit=${limit}`, as())).statusCode).toBe(200);
      return t.queries.length;
    };
    const few = await statements(2);
    expect(await statements(50)).toBe(few);
    console.log(`jobs list: ${few} statements per request`);

    const run = (await t.request('GET', '/api/v1/admin/actions/runs?status=failure', as())).json<{
      workflow_runs: Array<Record<string, unknown>>;
    }>();
    expect(run.workflow_runs).toHaveLength(1);
    expect(run.workflow_runs[0]).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect((await t.request('GET', '/api/v1/admin/actions/runs?status=success', as())).json<{ total_count: number }>().total_count).toBe(0);

    // Each job is a commit status of the pushed commit (Gitea's context and texts); the combined state is failure.
    const combined = (await t.request('GET', `/api/v1/repos/root/app/commits/${sha}/status`, as())).json<{
      state: string;
      statuses: Array<{ context: string; status: string; description: string; target_url: string }>;
    }>();
    expect(combined.state).toBe('failure');
    const byContext = Object.fromEntries(combined.statuses.map((s) => [s.context, s]));
    expect(Object.keys(byContext).sort()).toEqual([
      'CI / build (push)',
      'CI / deploy (push)',
      'CI / report (push)',
      'CI / test (linux-a) (push)',
      'CI / test (linux-b) (push)',
    ]);
    expect(byContext['CI / build (push)']).toMatchObject({ status: 'failure', target_url: '/root/app/actions/runs/1/jobs/2' });
    expect(byContext['CI / build (push)']?.description).toMatch(/^Failing after \d+(m\d+)?s$/);
    expect(byContext['CI / deploy (push)']).toMatchObject({ status: 'success', description: 'Has been skipped' });
    expect(byContext['CI / test (linux-a) (push)']?.description).toMatch(/^Successful in /);
    // The history of one context: pending (waiting, then running) before the result.
    const history = (await t.request('GET', `/api/v1/repos/root/app/commits/${sha}/statuses?sort=oldest`, as())).json<
      Array<{ context: string; description: string }>
    >();
    expect(history.filter((s) => s.context === 'CI / build (push)').map((s) => s.description.replace(/\d+(m\d+)?s$/, 'N'))).toEqual([
      'Blocked by required conditions',
      'Waiting to run',
      'Has started running',
      'Failing after N',
    ]);
  });

  it('a push that changes only ignored paths starts nothing; a replayed push job adds no second run', async () => {
    const before = await t.db.actionRun.count();
    const dir = git.dir('work2');
    await git.ok(['clone', '-q', gitUrl(port(), 'root', 'app', { user: 'root', secret: PASSWORD }), dir]);
    await git.commit(dir, 'docs/guide.md', 'doc\n', 'docs only');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: dir });
    await t.app.jobs.drain();
    expect(await t.db.actionRun.count()).toBe(before);
  });
});
