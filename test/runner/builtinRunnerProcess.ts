// `forgegraph runner …` as child processes (the real CLI entry point), with their output kept for failures.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'src/bin/forgegraph.js');

export class RunnerProcess {
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [BIN, 'runner', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (d: Buffer) => this.output.push(d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => this.output.push(d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Waits for the exit; throws with the output when the code is not 0. */
  async succeeded(): Promise<string> {
    const code = await this.exited;
    if (code !== 0) throw new Error(`runner exited with ${code}:\n${this.output.join('')}`);
    return this.output.join('');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** True while a process with this id exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
