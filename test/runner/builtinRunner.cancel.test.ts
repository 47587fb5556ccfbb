import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture } from '../githttp/gitClient.ts';
import { alive, RunnerWorld } from './builtinRunnerProcess.ts';

interface Job {
  id: number;
  conclusion?: string;
  steps: Array<{ conclusion?: string }>;
}

/** A job whose first step sleeps, recording the sleeping process's id in `pidFile`. */
const sleepy = (label: string, pidFile: string) => `on: [push]
jobs:
  sleepy:
    runs-on: ${label}
    steps:
      - name: sleep
        run: |
          sleep 300 &
          echo $! > ${pidFile}
          wait
      - name: after cancel
        run: echo should not run
      - name: cleanup
        if: cancelled()
        run: echo cleanup after cancel
`;

/**
 * Cancelling reaches the built-in runner: a cancelled run (the API) or a runner told twice to stop (signals) kills
 * the running step's processes and reports the job cancelled, with `if: cancelled()` steps still run.
 */
describe.each(PROVIDERS)('built-in runner cancellation (%s)', (provider) => {
  let w: RunnerWorld;

  beforeAll(async () => {
    w = await RunnerWorld.start(provider);
    const root = await w.t.db.user.findFirstOrThrow({ where: { name: 'root' } });
    await createRepoFixture(w.t, root, 'slow');
    await createRepoFixture(w.t, root, 'stopping');
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  /** Pushes the sleepy workflow; resolves with the sleeping pid and the run id once the step runs. */
  async function startSleep(repo: string, label: string): Promise<{ pid: number; runId: number }> {
    const pidFile = path.join(w.git.dir(`pids-${repo}`), 'sleep.pid');
    await w.push(repo, { '.gitea/workflows/slow.yml': sleepy(label, pidFile) });
    await w.until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the step to start');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(pid)).toBe(true);
    const run = (await w.get<{ workflow_runs: Array<{ id: number }> }>(`/api/v1/repos/root/${repo}/actions/runs`)).workflow_runs[0];
    return { pid, runId: run?.id ?? 0 };
  }

  /** Waits until the run's job is reported cancelled; its step conclusions and log. */
  async function cancelledJob(repo: string, runId: number): Promise<{ steps: Array<string | undefined>; log: string }> {
    let job: Job | undefined;
    await w.until(async () => {
      job = (await w.get<{ jobs: Job[] }>(`/api/v1/repos/root/${repo}/actions/runs/${runId}/jobs`)).jobs[0];
      return job?.conclusion === 'cancelled' && job.steps[0]?.conclusion === 'cancelled';
    }, 'the job to be reported cancelled');
    const log = await w.t.request('GET', `/api/v1/repos/root/${repo}/actions/jobs/${job?.id}/logs`, { headers: basic('root') });
    return { steps: job?.steps.map((s) => s.conclusion) ?? [], log: log.body };
  }

  it('cancelling the run kills the running step and reports it cancelled', async () => {
    await w.startRunner('canceller', 'slow');
    const { pid, runId } = await startSleep('slow', 'slow');
    const cancel = await w.t.request('POST', `/api/v1/repos/root/slow/actions/runs/${runId}/cancel`, { headers: basic('root') });
    expect(cancel.statusCode, cancel.body).toBeLessThan(300);

    await w.until(() => !alive(pid), 'the step process to be killed', 30_000);
    const { steps, log } = await cancelledJob('slow', runId);
    expect(steps).toEqual(['cancelled', 'skipped', 'success']);
    expect(log).toContain('The task was cancelled.');
    expect(log).toContain('cleanup after cancel');
    expect(log).not.toContain('should not run');
    const run = await w.get<{ status: string; conclusion: string }>(`/api/v1/repos/root/slow/actions/runs/${runId}`);
    expect(run).toMatchObject({ status: 'completed', conclusion: 'cancelled' });
  }, 240_000);

  it('a runner told twice to stop cancels its running task, then exits', async () => {
    const { daemon } = await w.startRunner('stopper', 'stopping');
    const { pid, runId } = await startSleep('stopping', 'stopping');
    daemon.signal('SIGTERM');
    // The first signal lets the task run on.
    await w.until(() => daemon.output.join('').includes('no new tasks'), 'the first signal to be taken');
    expect(alive(pid)).toBe(true);
    daemon.signal('SIGTERM');
    expect(await daemon.exited).toBe(0);
    // Killed before the runner reported and exited (waiting only for the orphan to be reaped).
    await w.until(() => !alive(pid), 'the killed step process to be reaped', 10_000);
    const { steps, log } = await cancelledJob('stopping', runId);
    expect(steps).toEqual(['cancelled', 'skipped', 'success']);
    expect(log).toContain('The runner is shutting down: the task is cancelled.');
  }, 240_000);
});
