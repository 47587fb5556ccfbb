// One process of a step (a `run:` script, or git for the checkout), in its own process group so that a cancel or
// a timeout kills everything it started.
import { spawn } from 'node:child_process';

export interface ProcessOutcome {
  code: number | null;
  /** Killed because of `timeout-minutes`. */
  timedOut: boolean;
  /** Killed because the task was cancelled. */
  killed: boolean;
}

export interface StepProcessOptions {
  cwd: string;
  env: Record<string, string>;
  /** Each output line (stdout and stderr interleaved as they come). */
  onLine: (line: string) => void;
  timeoutMs?: number | undefined;
  /** Resolves (or is already resolved) when the process must be killed. */
  cancel: Promise<void>;
}

/** Runs `command args…`; never rejects (a spawn failure is reported as a line and exit code 127). */
export function runProcess(command: string, args: readonly string[], o: StepProcessOptions): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    let killed = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = o.timeoutMs ? setTimeout(() => ((timedOut = true), killGroup()), o.timeoutMs) : null;
    void o.cancel.then(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      killed = true;
      killGroup();
    });
    for (const stream of [child.stdout, child.stderr]) {
      let pending = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (pending + chunk).split(/\r?\n/);
        pending = lines.pop() ?? '';
        for (const line of lines) o.onLine(line);
      });
      stream.on('end', () => pending && o.onLine(pending));
    }
    child.on('error', (err) => {
      o.onLine(`cannot start ${command}: ${err.message}`);
      if (timer) clearTimeout(timer);
      resolve({ code: 127, timedOut, killed });
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      // Whatever the script left running in its group goes with it.
      killGroup();
      resolve({ code, timedOut, killed });
    });
  });
}
