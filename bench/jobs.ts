// Durable job queue figures: throughput of one and of two workers draining a backlog of no-op jobs, and the delay
// from the commit of an enqueuing transaction to the handler's start (woken in-process, poll interval 2 s).
// Usage: npx tsx bench/jobs.ts [sqlite|postgresql] [jobs=2000]
//   PostgreSQL: a scratch database is created on BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { z } from 'zod';
import { createDb, prepareDb, type Db } from '../src/db/client.ts';
import { deployMigrations, type DbProvider } from '../src/db/migrate/engine.ts';
import { enqueue, transactionCommitted } from '../src/jobs/enqueue.ts';
import { defineHandler, jobKind } from '../src/jobs/jobKind.ts';
import type { JobsOptions } from '../src/jobs/settings.ts';
import { JobWorker, type JobLog } from '../src/jobs/worker.ts';

const provider = (process.argv[2] ?? 'sqlite') as DbProvider;
const total = Number(process.argv[3] ?? 2000);
const quiet: JobLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (o, m) => console.error(m, o) };
const options: JobsOptions = {
  concurrency: 4,
  pollIntervalMs: 2000,
  leaseMs: 60_000,
  shutdownTimeoutMs: 10_000,
  retryBaseMs: 10_000,
  retryMaxMs: 3_600_000,
  keepDoneMs: 86_400_000,
  keepFailedMs: 86_400_000,
};
const Noop = jobKind('bench.noop', z.object({ n: z.number(), at: z.number() }));

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'fg-bench-jobs-'));
    return { url: `file:${path.join(dir, 'bench.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const server = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `fg_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function client(url: string): Promise<Db> {
  const db = await createDb({ provider, url });
  await prepareDb(db, provider);
  return db;
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

async function drainRate(dbs: Db[]): Promise<number> {
  const done = new Set<number>();
  const workers = dbs.map((db) => {
    const w = new JobWorker(db, provider, options, quiet);
    w.register(defineHandler(Noop, async (p) => void done.add(p.n)));
    return w;
  });
  const [first] = dbs;
  if (!first) return 0;
  await first.job.createMany({
    data: Array.from({ length: total }, (_, n) => ({ kind: Noop.name, payload: JSON.stringify({ n, at: 0 }) })),
  });
  const started = performance.now();
  for (const w of workers) w.start();
  while (done.size < total) await sleep(5);
  const seconds = (performance.now() - started) / 1000;
  for (const w of workers) await w.stop();
  await first.job.deleteMany();
  return total / seconds;
}

async function commitToStart(db: Db, samples: number): Promise<number[]> {
  const delays: number[] = [];
  const w = new JobWorker(db, provider, options, quiet);
  w.register(defineHandler(Noop, async (p) => void delays.push(performance.now() - p.at)));
  w.start();
  await sleep(200);
  for (let n = 0; n < samples; n++) {
    // As withTx does: enqueue inside the transaction, wake the workers once it has committed.
    let tx: object | undefined;
    let committedAt = 0;
    await db.$transaction(async (t) => {
      tx = t;
      committedAt = performance.now();
      await enqueue(t, Noop, { n, at: committedAt });
    });
    if (tx) transactionCommitted(tx);
    while (delays.length <= n) await sleep(1);
    await sleep(20);
  }
  await w.stop();
  return delays;
}

const scratch = await scratchDatabase();
try {
  await deployMigrations({ provider, url: scratch.url });
  const a = await client(scratch.url);
  const b = await client(scratch.url);
  const one = await drainRate([a]);
  const two = await drainRate([a, b]);
  const delays = await commitToStart(a, 200);
  console.log(`jobs bench (${provider}, ${total} no-op jobs, concurrency ${options.concurrency} per worker)`);
  console.log(`  one worker:   ${one.toFixed(0)} jobs/s`);
  console.log(`  two workers:  ${two.toFixed(0)} jobs/s (two clients on one database)`);
  console.log(
    `  enqueue → handler start (in-process wake, poll ${options.pollIntervalMs} ms): p50 ${percentile(delays, 50).toFixed(1)} ms, p95 ${percentile(delays, 95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`,
  );
  await a.$disconnect();
  await b.$disconnect();
} finally {
  await scratch.drop();
}
