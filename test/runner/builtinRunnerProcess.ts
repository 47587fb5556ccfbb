// The built-in runner as the tests meet it: `forgegraph runner …` child processes (the real CLI entry point) against
// an app listening on a real port whose ROOT_URL is that port (the runner checks out from the task's server_url).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { DbProvider } from '../../src/db/migrate/engine.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { freePort } from '../helpers/serverProcess.ts';
import { GitClient, gitUrl } from '../githttp/gitClient.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'src/bin/forgegraph.js');

export class RunnerProcess {
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(args: string[], env: Record<string, string>, cwd = ROOT) {
    this.child = spawn(process.execPath, [BIN, 'runner', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
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

/** An app on a real port, a git sandbox, and an admin `root`; runners register with the admin registration token. */
export class RunnerWorld {
  readonly git = new GitClient();
  readonly runners: RunnerProcess[] = [];

  private constructor(
    readonly t: TestApp,
    readonly port: number,
  ) {}

  static async start(provider: DbProvider, env: Record<string, string> = {}): Promise<RunnerWorld> {
    const port = await freePort();
    const t = await startTestApp(provider, { ROOT_URL: `http://127.0.0.1:${port}/`, ...env });
    await t.app.server.listen({ port, host: '127.0.0.1' });
    const world = new RunnerWorld(t, port);
    await t.createUser('root', { admin: true });
    return world;
  }

  /** GET as root; asserts 200. */
  async get<T>(url: string): Promise<T> {
    const res = await this.t.request('GET', url, { headers: basic('root') });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  }

  /** A fresh work tree with `files` committed one by one, pushed to root/<repo> main; the last commit's sha. */
  async push(repo: string, files: Record<string, string>): Promise<string> {
    const dir = this.git.dir(`work-${repo}-${Math.random().toString(36).slice(2)}`);
    await this.git.ok(['init', '-q', dir]);
    let sha = '';
    for (const [file, content] of Object.entries(files)) sha = await this.git.commit(dir, file, content, `add ${file}`);
    await this.git.ok(['push', '-q', gitUrl(this.port, 'root', repo, { user: 'root', secret: PASSWORD }), 'main'], { cwd: dir });
    return sha;
  }

  /** The instance's runner registration token (root's). */
  async registrationToken(): Promise<string> {
    const res = await this.t.request('POST', '/api/v1/admin/actions/runners/registration-token', { headers: basic('root') });
    return res.json<{ token: string }>().token;
  }

  /** `runner register` (checked) with the registration token and `args`, in `cwd`; its output. */
  async register(name: string, labels: string, args: string[] = [], opts: { env?: Record<string, string>; cwd?: string } = {}) {
    const instance = `http://127.0.0.1:${this.port}`;
    const token = await this.registrationToken();
    const register = new RunnerProcess(
      ['register', '--instance', instance, '--token', token, '--name', name, '--labels', labels, ...args],
      { ...this.env(), ...opts.env },
      opts.cwd,
    );
    const output = await register.succeeded();
    expect(output).toContain(`Runner ${name}`);
    return output;
  }

  /** `runner register` (checked), then `runner daemon` (or `run`) with the given flags; the runner file's path. */
  async startRunner(
    name: string,
    labels: string,
    daemonArgs: string[] = [],
    command: 'daemon' | 'run' = 'daemon',
  ): Promise<{ file: string; daemon: RunnerProcess }> {
    const file = path.join(this.git.dir(`runner-${name}`), 'runner.json');
    await this.register(name, labels, ['--config', file]);
    const daemon = new RunnerProcess([command, '--config', file, '--fetch-interval', '0.5', ...daemonArgs], this.env());
    this.runners.push(daemon);
    return { file, daemon };
  }

  /** Waits for `check`, running the job worker (pushes, webhooks) between looks. */
  async until(check: () => Promise<boolean> | boolean, what: string, ms = 150_000): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      await this.t.app.jobs.drain();
      if (await check()) return;
      if (Date.now() > end)
        throw new Error(`timed out waiting for ${what}; runner output:\n${this.runners.map((r) => r.output.join('')).join('\n---\n')}`);
      await sleep(200);
    }
  }

  /** The runner processes' environment: PATH and a sandboxed HOME (so the default state file is in the sandbox). */
  env(): Record<string, string> {
    return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.git.home, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  }

  async close(): Promise<void> {
    for (const r of this.runners) await r.stop();
    this.git.dispose();
    await this.t.close();
  }
}
