// `forgegraph serve` as a child process, for tests that kill the server (crash safety).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** `forgegraph serve` as a separate process (the real entry point), with its output kept for failures. */
export class ServerProcess {
  readonly output: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ['src/bin/forgegraph.js', 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d: Buffer) => this.output.push(d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => this.output.push(d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Resolves once /api/healthz answers (fails when the process exits first). */
  async ready(port: number): Promise<void> {
    const end = Date.now() + 60_000;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < end && !exited) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`server did not start:\n${this.output.join('')}`);
  }

  /** Sends a signal (SIGTERM: the graceful stop) without waiting. */
  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** The exit code, or null while the process runs. */
  exitCode(): number | null {
    return this.child.exitCode;
  }

  /** SIGKILL: no shutdown, no release of claimed jobs. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** Polls `check` every 100 ms until it holds; throws after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
