// `forgegraph serve` as users run it, for the benches that measure the process itself (bench/soak.ts,
// bench/servedReads.ts, bench/servedProfile.ts): the bundle built first, a scratch database and data directory, a user
// made with `forgegraph admin user create`, then `node [flags] src/bin/forgegraph.js serve` until /api/healthz answers.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundle } from '../src/bin/bundle.js';
import { scratchDatabase, type Provider } from './scratchDb.ts';

const root = path.resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** RSS of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

export interface Served {
  /** `http://127.0.0.1:<port>/` */
  base: string;
  port: number;
  server: ChildProcess;
  /** The Authorization header of the user made at start. */
  auth: string;
  /** Seconds from spawn to the first 200 of /api/healthz. */
  readySeconds: number;
  /** Stops the server (SIGTERM, waits for its exit) and drops the scratch database. */
  stop(): Promise<void>;
}

/** Starts `forgegraph serve` with `nodeFlags` on a scratch `provider` database, with user `user` (password `password`). */
export async function startServed(opts: {
  provider: Provider;
  name: string;
  user: string;
  password: string;
  nodeFlags: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<Served> {
  const db = await scratchDatabase(opts.provider, opts.name);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.url,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
  await bundle();
  const args = ['admin', 'user', 'create', '--username', opts.user, '--password', opts.password];
  const create = spawnSync(
    process.execPath,
    ['src/bin/forgegraph.js', ...args, '--email', `${opts.user}@example.com`, '--must-change-password=false'],
    {
      cwd: root,
      env,
      encoding: 'utf8',
    },
  );
  if (create.status !== 0) throw new Error(`admin user create failed: ${create.stderr}`);
  const server = spawn(process.execPath, [...opts.nodeFlags, 'src/bin/forgegraph.js', 'serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // The server goes with this process, however it ends.
  process.on('exit', () => server.kill('SIGKILL'));
  const started = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${base}api/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error('the server did not start within 120 s');
    await sleep(50);
  }
  return {
    base,
    port,
    server,
    auth: `Basic ${Buffer.from(`${opts.user}:${opts.password}`).toString('base64')}`,
    readySeconds: (performance.now() - started) / 1000,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await db.drop();
    },
  };
}

/**
 * autocannon -c 10 against `url` for `seconds` in a child process (the load generator keeps off the server's core as
 * far as two cores allow), `extra` its further arguments: requests per second and p50 latency (ms).
 * @throws when any answer was not 2xx or failed
 */
export function loadServed(url: string, seconds: number, extra: string[] = []): Promise<{ rps: number; p50: number }> {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', '10', '-d', String(seconds), ...extra, url];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const r = JSON.parse(out) as { requests: { average: number }; latency: { p50: number }; non2xx: number; errors: number };
      if (r.non2xx || r.errors) return reject(new Error(`autocannon saw ${r.non2xx} non-2xx and ${r.errors} errors`));
      resolve({ rps: r.requests.average, p50: r.latency.p50 });
    });
  });
}
