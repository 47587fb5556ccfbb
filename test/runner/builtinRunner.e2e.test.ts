import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { HookReceiver } from '../helpers/hookReceiver.ts';
import { freePort } from '../helpers/serverProcess.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { alive, RunnerProcess } from './builtinRunnerProcess.ts';

const MESSAGE = 'the file in the repository says hi';

const CI = `name: CI
on: [push]
env:
  GREETING: hello
jobs:
  read:
    runs-on: e2e
    strategy:
      matrix:
        node: [a, b]
    outputs:
      content: \${{ steps.cat.outputs.content }}
    steps:
      - uses: actions/checkout@v4
      - id: cat
        name: read file
        run: |
          echo "matrix \${{ matrix.node }} at $GITHUB_SHA of $GITHUB_REPOSITORY on \${{ github.ref }}"
          echo "file says: $(cat data/message.txt)"
          echo "content=$(cat data/message.txt)" >> "$GITHUB_OUTPUT"
          echo "FROM_ENV=\${{ env.GREETING }}-\${{ matrix.node }}" >> "$GITHUB_ENV"
          echo "### summary of \${{ matrix.node }}" >> "$GITHUB_STEP_SUMMARY"
      - name: env carried
        working-directory: data
        run: test "$FROM_ENV" = "hello-\${{ matrix.node }}" && echo "env ok $FROM_ENV in $(basename "$PWD")"
  after:
    needs: read
    runs-on: e2e
    steps:
      - run: echo "needs said \${{ needs.read.outputs.content }} with \${{ needs.read.result }}"
  broken:
    runs-on: e2e
    steps:
      - name: allowed to fail
        continue-on-error: true
        run: exit 3
      - name: fails
        run: echo about to fail; exit 1
      - name: not reached
        run: echo never printed
      - name: cleanup
        if: always()
        run: echo cleanup ran after \${{ job.status }}
      - name: foreign action
        if: \${{ always() }}
        uses: actions/setup-node@v4
      - name: bad expression
        if: always()
        run: echo \${{ fromJSON('1') }}
  deploy:
    needs: broken
    runs-on: e2e
    steps:
      - run: echo deploy
`;

interface Job {
  id: number;
  run_id: number;
  name: string;
  status: string;
  conclusion?: string;
  runner_name?: string;
  steps: Array<{ name: string; number: number; status: string; conclusion?: string }>;
}

/**
 * The Done-when of issue 16: a pushed workflow (a matrix of two, a dependent job, a failing step, a skipped job)
 * runs on the built-in runner as a real child process, registered with a registration token; the checkout goes
 * through the task token over smart HTTP; the API, logs, commit status and webhooks show the outcome. A cancel
 * reaches the runner, which kills the step's processes.
 */
describe.each(PROVIDERS)('built-in runner end to end (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let git: GitClient;
  let rx: HookReceiver;
  let daemon: RunnerProcess | undefined;
  const as = () => ({ headers: basic('root') });
  const get = async <T>(url: string): Promise<T> => {
    const res = await t.request('GET', url, as());
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const env = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: git.home, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' });

  /** Waits for `check`, running the job worker (pushes, webhooks) between looks. */
  async function until(check: () => Promise<boolean>, what: string, ms = 90_000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      await t.app.jobs.drain();
      if (await check()) return;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; runner output:\n${daemon?.output.join('') ?? ''}`);
      await sleep(200);
    }
  }

  async function push(repo: string, files: Record<string, string>): Promise<string> {
    const dir = git.dir(`work-${repo}`);
    await git.ok(['init', '-q', dir]);
    let sha = '';
    for (const [file, content] of Object.entries(files)) sha = await git.commit(dir, file, content, `add ${file}`);
    await git.ok(['push', '-q', gitUrl(port, 'root', repo, { user: 'root', secret: PASSWORD }), 'main'], { cwd: dir });
    return sha;
  }

  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp(provider, { ROOT_URL: `http://127.0.0.1:${port}/`, WEBHOOK_ALLOWED_HOST_LIST: 'loopback' });
    await t.app.server.listen({ port, host: '127.0.0.1' });
    git = new GitClient();
    rx = await HookReceiver.start();
    const admin = await t.createUser('root', { admin: true });
    await createRepoFixture(t, admin, 'app');
    await createRepoFixture(t, admin, 'slow');
    const hook = await t.request('POST', '/api/v1/repos/root/app/hooks', {
      ...as(),
      body: { type: 'gitea', config: { url: rx.url, content_type: 'json' }, events: ['push'], active: true },
    });
    expect(hook.statusCode, hook.body).toBe(201);

    const token = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', as())).json<{ token: string }>().token;
    const file = path.join(git.dir('runner'), '.runner');
    const register = new RunnerProcess(
      [
        'register',
        '--instance',
        `http://127.0.0.1:${port}`,
        '--token',
        token,
        '--name',
        'e2e-runner',
        '--labels',
        'e2e,linux:host',
        '--file',
        file,
      ],
      env(),
    );
    expect(await register.succeeded()).toContain('Runner e2e-runner');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      name: 'e2e-runner',
      address: `http://127.0.0.1:${port}`,
      labels: ['e2e', 'linux'],
    });
    daemon = new RunnerProcess(['daemon', '--file', file, '--capacity', '2', '--fetch-interval', '1'], env());
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
    await rx?.close();
    git?.dispose();
    await t?.close();
  });

  it('runs the workflow: matrix, needs, failing and skipped jobs, with logs, statuses and webhooks', async () => {
    const sha = await push('app', { 'data/message.txt': `${MESSAGE}\n`, '.gitea/workflows/ci.yml': CI });
    await until(async () => {
      const runs = (await get<{ workflow_runs: Array<{ status: string }> }>('/api/v1/repos/root/app/actions/runs')).workflow_runs;
      return runs.length === 1 && runs[0]?.status === 'completed';
    }, 'the run to complete');

    const runs = await get<{ workflow_runs: Array<Record<string, unknown>>; total_count: number }>('/api/v1/admin/actions/runs?event=push');
    expect(runs.total_count).toBe(1);
    expect(runs.workflow_runs[0]).toMatchObject({ head_sha: sha, status: 'completed', conclusion: 'failure', event: 'push' });
    const runId = Number(runs.workflow_runs[0]?.id);

    const adminJobs = (await get<{ jobs: Job[] }>('/api/v1/admin/actions/jobs?sort=id&order=asc')).jobs;
    expect(adminJobs.map((j) => [j.name, j.status, j.conclusion])).toEqual([
      ['read (a)', 'completed', 'success'],
      ['read (b)', 'completed', 'success'],
      ['after', 'completed', 'success'],
      ['broken', 'completed', 'failure'],
      ['deploy', 'completed', 'skipped'],
    ]);
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
      const res = await t.request('GET', `/api/v1/repos/root/app/actions/jobs/${byName.get(name)?.id}/logs`, as());
      expect(res.statusCode, res.body).toBe(200);
      return res.body;
    };
    const readA = await logs('read (a)');
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
    expect(contexts).toMatchObject({
      'CI / read (a) (push)': 'success',
      'CI / read (b) (push)': 'success',
      'CI / after (push)': 'success',
      'CI / broken (push)': 'failure',
    });

    await rx.until(
      () => rx.of('push').length >= 1,
      () => t.app.jobs.drain(),
    );
    expect(JSON.parse(rx.of('push')[0]?.body ?? '{}')).toMatchObject({ after: sha, ref: 'refs/heads/main' });

    // The task tokens stopped working with their tasks.
    const runner = await t.db.actionRunner.findFirstOrThrow({ where: { name: 'e2e-runner' } });
    expect(await t.db.actionTask.count({ where: { runnerId: runner.id, status: 'RUNNING' } })).toBe(0);
  }, 180_000);

  it('cancelling the run kills the running step and reports it cancelled', async () => {
    const pidFile = path.join(git.dir('pids'), 'sleep.pid');
    const workflow = `on: [push]
jobs:
  sleepy:
    runs-on: e2e
    steps:
      - name: sleep
        run: |
          sleep 300 &
          echo $! > ${pidFile}
          wait
      - name: after cancel
        run: echo should not run
`;
    await push('slow', { '.gitea/workflows/slow.yml': workflow });
    await until(async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the step to start');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    const run = (await get<{ workflow_runs: Array<{ id: number }> }>('/api/v1/repos/root/slow/actions/runs')).workflow_runs[0];
    const cancel = await t.request('POST', `/api/v1/repos/root/slow/actions/runs/${run?.id}/cancel`, as());
    expect(cancel.statusCode, cancel.body).toBeLessThan(300);

    await until(async () => !alive(pid), 'the step process to be killed', 30_000);
    await until(
      async () => {
        const jobs = (await get<{ jobs: Job[] }>(`/api/v1/repos/root/slow/actions/runs/${run?.id}/jobs`)).jobs;
        return jobs[0]?.conclusion === 'cancelled' && jobs[0].steps[0]?.conclusion === 'cancelled';
      },
      'the job to be reported cancelled',
      30_000,
    );
    const jobs = (await get<{ jobs: Job[] }>(`/api/v1/repos/root/slow/actions/runs/${run?.id}/jobs`)).jobs;
    expect(jobs[0]?.steps.map((s) => s.conclusion)).toEqual(['cancelled', 'skipped']);
    const log = await t.request('GET', `/api/v1/repos/root/slow/actions/jobs/${jobs[0]?.id}/logs`, as());
    expect(log.body).toContain('The task was cancelled.');
    expect(log.body).not.toContain('should not run');
    expect(
      (await get<{ workflow_runs: Array<{ conclusion: string }> }>('/api/v1/repos/root/slow/actions/runs')).workflow_runs[0]?.conclusion,
    ).toBe('cancelled');
  }, 120_000);
});
