// `forgegraph runner run|daemon`: Declare, then FetchTask in a loop (honouring tasks_version) while fewer than
// `capacity` tasks run, each task executed by runTask.
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Code, ConnectError } from '@connectrpc/connect';
import { RUNNER_VERSION, runnerClient } from './client.ts';
import { defaultWorkDir, readRunnerFile } from './runnerFile.ts';
import { resultName, runTask } from './runTask.ts';

export interface DaemonOptions {
  /** The state file written by register (runnerFilePath). */
  file: string;
  /** Where task workspaces are made; default defaultWorkDir(the runner's uuid). */
  workDir?: string | undefined;
  capacity: number;
  fetchIntervalMs: number;
  /** Exit after this many tasks finished (`run --once` is 1). */
  maxTasks?: number | undefined;
  log: (line: string) => void;
}

/** Runs until a signal (or `maxTasks`); resolves when every started task has reported. */
export async function runDaemon(o: DaemonOptions): Promise<void> {
  // Signals are taken from the start, so a stop during the declaration ends the daemon cleanly once declared. The
  // first signal stops fetching and lets the running tasks finish; the second cancels them (their steps are killed
  // and they are reported cancelled); a third exits at once.
  let stopping = false;
  let wake: (() => void) | null = null;
  const abort = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) o.log(`${signal}: no new tasks; waiting for the running ones (again to cancel them)`);
    else if (signals === 2) o.log(`${signal}: cancelling the running tasks`);
    else process.exit(1);
    stopping = true;
    if (signals === 2) abort.abort();
    wake?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  const running = new Set<Promise<void>>();
  let started = 0;
  let tasksVersion = 0n;
  try {
    const runner = readRunnerFile(o.file);
    const client = runnerClient(runner.address, { uuid: runner.uuid, token: runner.token });
    await client.declare({ version: RUNNER_VERSION, labels: runner.labels, capabilities: ['cancelling'] });
    const workDir = o.workDir ?? defaultWorkDir(runner.uuid);
    mkdirSync(workDir, { recursive: true });
    o.log(
      `runner ${runner.name} (${o.file}) declared to ${runner.address} with labels [${runner.labels.join(', ')}]; capacity ${o.capacity}; workspaces in ${workDir}`,
    );
    while (!stopping && (o.maxTasks === undefined || started < o.maxTasks)) {
      if (running.size >= o.capacity) {
        await Promise.race(running);
        continue;
      }
      const asked = Date.now();
      let answer;
      try {
        answer = await client.fetchTask({ tasksVersion });
      } catch (err) {
        if (err instanceof ConnectError && err.code === Code.Unauthenticated)
          throw new Error(`the instance refused this runner: ${err.message}`, { cause: err });
        o.log(`FetchTask failed: ${String(err)}`);
      }
      if (answer && answer.tasksVersion > tasksVersion) tasksVersion = answer.tasksVersion;
      const task = answer?.task;
      if (task) {
        // Other jobs may be waiting too: the next fetch asks the database again.
        tasksVersion = 0n;
        started++;
        o.log(`task ${task.id} started`);
        const done = runTask({ client, task, workRoot: workDir, runnerName: runner.name, warn: o.log, signal: abort.signal })
          .then((result) => o.log(`task ${task.id} finished: ${resultName(result) || 'no result'}`))
          .catch((err: unknown) => o.log(`task ${task.id} failed to run: ${String(err)}`))
          .finally(() => running.delete(done));
        running.add(done);
        continue;
      }
      // A server that held the request (long polling) already made us wait.
      const waited = Date.now() - asked;
      if (waited < o.fetchIntervalMs) {
        await Promise.race([sleep(o.fetchIntervalMs - waited), new Promise<void>((resolve) => (wake = resolve))]);
        wake = null;
      }
    }
    await Promise.all(running);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  }
}
