// `forgegraph serve` as a child process, for tests that kill the server (crash safety).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Ports handed out below the kernel's ephemeral range (32768-60999 on Linux), where `listen(0)` never lands: a port
 * found free and released for a child process to bind could otherwise be taken meanwhile by any test server listening
 * on port 0, and the child's readiness probe would then reach that other server (seen in CI: a cluster instance's port
 * answered by another suite's server, whose database had no alice). Each worker has its own block of 500 ports,
 * starting at a random offset, so that two suites run side by side rarely probe the same port at the same moment.
 */
const PORT_BLOCK = 500;
const PORT_BASE = 20_000;
const PORT_BLOCKS = 24; // 20000-31999
// The workers of one run (VITEST_POOL_ID 1, 2, …) get consecutive blocks; a second run beside it (its own vitest
// process, the workers' parent) most likely starts elsewhere.
const workerBlock = (Number(process.env.VITEST_POOL_ID ?? 0) + (process.ppid % PORT_BLOCKS) * 5) % PORT_BLOCKS;
let nextPortOffset = Math.floor(Math.random() * PORT_BLOCK);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A free TCP port on 127.0.0.1 that no `listen(0)` can take before the caller binds it (see PORT_BASE). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_BLOCK; tries++) {
    const port = PORT_BASE + workerBlock * PORT_BLOCK + (nextPortOffset++ % PORT_BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in the block of worker ${workerBlock}`);
}

/**
 * Node flags of the servers the tests start. `--liftoff-only` keeps V8 from optimising WebAssembly (Prisma's query
 * compiler) on background threads while the server starts: a start costs ~3.5 s of CPU instead of ~5 s, and is ready
 * in about 60% of the time on a busy machine. A test server answers a few dozen requests, so the optimised code would
 * never pay back. It changes how V8 compiles, not what the server does; the documented ways to start the server are
 * run as documented by test/cli (cli.test.ts, signals.test.ts).
 */
const TEST_SERVER_NODE_FLAGS = ['--liftoff-only'];

/** `forgegraph serve` as a separate process (the real entry point), with its output kept for failures. */
export class ServerProcess {
  readonly output: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, [...TEST_SERVER_NODE_FLAGS, 'src/bin/forgegraph.js', 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (d: Buffer) => this.output.push(d.toString()));
    this.child.stderr?.on('data', (d: Buffer) => this.output.push(d.toString()));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  /**
   * Resolves once /api/healthz answers; fails when the process exits first, or after `ms` when given. No deadline
   * by default: a start takes ~5 s of CPU (loading the bundle), over a minute when the cores are shared with a
   * whole suite, and the test's own timeout catches a server that hangs.
   */
  async ready(port: number, ms?: number): Promise<void> {
    const end = ms === undefined ? Number.POSITIVE_INFINITY : Date.now() + ms;
    const seen: { exit?: { code: number | null; signal: NodeJS.Signals | null } } = {};
    void this.exited.then((exit) => (seen.exit = exit));
    while (Date.now() < end && !seen.exit) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    const how = seen.exit ? `exited (code ${seen.exit.code}, signal ${seen.exit.signal})` : `not ready after ${ms} ms`;
    throw new Error(`server did not start: ${how}; its output:\n${this.output.join('')}`);
  }

  /** The server's process id (the same after `serve` runs itself again with its heap's flags, heapShape.js). */
  get pid(): number {
    return this.child.pid ?? 0;
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

/** Whether a TCP connection to 127.0.0.1:`port` is accepted now. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether this process can listen on 127.0.0.1:`port` (a server released it). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** An HTTP answer read whole. */
export interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/**
 * A generic package upload as `user` (password `password`) whose body is still being sent, a chunk every 200 ms,
 * until `finish()`: a request in flight across a shutdown. `answer` is awaited later (a failure is reported there).
 */
export function slowUpload(port: number, file: string, user: string, password: string): { finish(): void; answer: Promise<Answer> } {
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'PUT',
    path: `/api/packages/${user}/generic/slow/1.0.0/${file}`,
    agent: false,
    headers: {
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
      'content-type': 'application/octet-stream',
    },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.once('error', reject);
  });
  answer.catch(() => undefined);
  req.write('first chunk\n');
  const timer = setInterval(() => req.write('another chunk\n'), 200);
  return {
    finish() {
      clearInterval(timer);
      req.end('last chunk\n');
    },
    answer,
  };
}
