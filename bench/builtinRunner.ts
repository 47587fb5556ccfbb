// The built-in runner end to end: with `forgegraph runner daemon` idle (a child process polling every POLL
// seconds), the time from a push (a commit through the contents API) to its job's start, and to the job's end
// (checkout through the task token, one `run:` step, logs and state reported). The start is split into the
// server's part (the push until the run exists) and the runner's (the run until its FetchTask claims the job).
// Usage: npx tsx bench/builtinRunner.ts [runs=10] [pollSeconds=2]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as repoService from '../src/services/repo/create.ts';
import { BENCH_AUTH, createBenchUser } from './benchUser.ts';

const runs = Number(process.argv[2] ?? 10);
const pollSeconds = Number(process.argv[3] ?? 2);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-runner-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const BIN = path.resolve(import.meta.dirname, '../src/bin/forgegraph.js');

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

function cli(args: string[]): Promise<void> & { stop(): void } {
  const child = spawn(process.execPath, [BIN, 'runner', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  const done = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 || child.killed ? resolve() : reject(new Error(`runner ${args[0]} exited with ${code}`)))),
  );
  return Object.assign(done, { stop: () => child.kill('SIGTERM') });
}

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: `${base}/` });
  const app = await buildApp(config);
  await app.server.listen({ port, host: '127.0.0.1' });
  await app.startBackground();
  let daemon: ReturnType<typeof cli> | null = null;
  try {
    const sys = createSystemContext(app.deps);
    const owner = await createBenchUser(app, { admin: true });
    await repoService.createRepo({ ...sys, viewer: owner }, { kind: 'viewer' }, { name: 'proj', private: true, autoInit: true });
    const headers = {
      authorization: BENCH_AUTH.authorization,
      'content-type': 'application/json',
    };
    const post = await fetch(`${base}/api/v1/admin/actions/runners/registration-token`, { method: 'POST', headers });
    const { token } = (await post.json()) as { token: string };
    const file = path.join(tmp, 'runner.json');
    await cli(['register', '--instance', base, '--token', token, '--name', 'bench', '--labels', 'bench', '--config', file]);
    daemon = cli(['daemon', '--config', file, '--work-dir', path.join(tmp, 'work'), '--fetch-interval', String(pollSeconds)]);
    await sleep(3000);

    const created: number[] = [];
    const pickups: number[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    let sha = '';
    for (let i = 0; i < runs; i++) {
      const workflow = `on: push\njobs:\n  build:\n    runs-on: bench\n    steps:\n      - uses: actions/checkout@v4\n      - run: cat .gitea/workflows/ci.yml > /dev/null && echo ${i}\n`;
      const t0 = Date.now();
      const res = await fetch(`${base}/api/v1/repos/bench/proj/contents/.gitea/workflows/ci.yml`, {
        method: i === 0 ? 'POST' : 'PUT',
        headers,
        body: JSON.stringify({ content: Buffer.from(workflow).toString('base64'), message: `run ${i}`, ...(sha ? { sha } : {}) }),
      });
      sha = ((await res.json()) as { content: { sha: string } }).content.sha;
      for (;;) {
        const job = await app.deps.db.actionRunJob.findFirst({ where: { run: { index: i + 1 } } });
        if (job?.stopped && job.started) {
          if (job.status !== 'SUCCESS') throw new Error(`run ${i + 1} ended ${job.status}`);
          const run = await app.deps.db.actionRun.findFirstOrThrow({ where: { index: i + 1 } });
          created.push(run.createdAt.getTime() - t0);
          pickups.push(job.started.getTime() - run.createdAt.getTime());
          starts.push(job.started.getTime() - t0);
          ends.push(job.stopped.getTime() - t0);
          break;
        }
        await sleep(20);
      }
    }
    const fmt = (xs: number[]) => `median ${median(xs)} ms, max ${Math.max(...xs)} ms`;
    console.log(`built-in runner polling every ${pollSeconds} s, ${runs} runs (SQLite)`);
    console.log(`  push → job start: ${fmt(starts)}`);
    console.log(`    of which push → run created (server): ${fmt(created)}; run created → job claimed (runner): ${fmt(pickups)}`);
    console.log(`  push → job done (checkout + one step, logs and state reported): ${fmt(ends)}`);
  } finally {
    daemon?.stop();
    await daemon?.catch(() => undefined);
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
