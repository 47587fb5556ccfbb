// Cold start and idle memory of `forgegraph serve` as a user runs it (`node src/bin/forgegraph.js serve`, the bundle
// built first as by `npm run build`): the time to the first 200 on /api/healthz and the CPU the process spent until
// then, on a fresh data directory (the SQLite database created and migrated) and on an existing one; and its RSS
// once idle (IDLE_SECONDS after ready, GraphQL loaded in the background meanwhile). Prints medians and the load
// average, which the times depend on. `admin user create` is measured by bench/cliColdStart.ts.
// Usage: npx tsx bench/coldStart.ts [runs=5]
//   COLD_NODE_FLAGS="--max-semi-space-size=64" runs the server with those Node flags.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundle } from '../src/bin/bundle.js';

const runs = Number(process.argv[2] ?? 5);
const IDLE_SECONDS = 10;
const nodeFlags = (process.env.COLD_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const root = path.resolve(import.meta.dirname, '..');
const TICKS_PER_SECOND = 100;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a live process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

interface Start {
  readyMs: number;
  cpu: number;
  idleRssMb: number;
}

/** One start of the server on `dataDir`: ready time, CPU until ready, RSS once idle. */
async function once(dataDir: string, measureIdle: boolean): Promise<Start> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, 'src/bin/forgegraph.js', 'serve'], { cwd: root, env, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      if (performance.now() - started > 120_000) throw new Error('the server did not start within 120 s');
      await sleep(10);
    }
    const readyMs = performance.now() - started;
    const cpu = cpuSeconds(child.pid!);
    if (measureIdle) await sleep(IDLE_SECONDS * 1000);
    return { readyMs, cpu, idleRssMb: measureIdle ? rssMb(child.pid!) : NaN };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

await bundle();
console.log(`node ${process.version} ${nodeFlags.join(' ')}; load average before: ${load()}`);
const fresh: Start[] = [];
const existing: Start[] = [];
for (let i = 0; i < runs; i++) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fg-bench-cold-'));
  try {
    fresh.push(await once(dataDir, false));
    existing.push(await once(dataDir, true));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
for (const [name, starts] of [
  ['fresh data directory', fresh],
  ['existing database', existing],
] as const) {
  const rss = starts.map((s) => s.idleRssMb);
  const idle =
    name === 'existing database'
      ? `, idle RSS p50 ${median(rss).toFixed(0)} MB (${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)})`
      : '';
  console.log(
    `serve → /api/healthz 200, ${name.padEnd(20)}: p50 ${median(starts.map((s) => s.readyMs)).toFixed(0)} ms (min ${Math.min(...starts.map((s) => s.readyMs)).toFixed(0)}), CPU until ready p50 ${median(starts.map((s) => s.cpu)).toFixed(2)} s${idle} (${runs} runs)`,
  );
}
console.log(`load average after: ${load()}`);
