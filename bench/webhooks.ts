// Webhook delivery figures: deliveries per second and the delay from an event's commit to its receipt by a
// real HTTP receiver on loopback, through the whole path (in-transaction subscriber → prepare job → deliver job
// → signed POST), with the job worker running as `serve` runs it (JOBS_CONCURRENCY, woken in-process).
// Usage: npx tsx bench/webhooks.ts [sqlite|postgresql] [events=300] [concurrency=4]
//   PostgreSQL: a scratch database is created on BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations, type DbProvider } from '../src/db/migrate/engine.ts';
import { createServiceContext, createSystemContext } from '../src/services/context.ts';
import * as issueService from '../src/services/issue/create.ts';
import * as repoService from '../src/services/repo/create.ts';
import * as userService from '../src/services/user/user.ts';
import * as webhookService from '../src/services/webhook/webhook.ts';

const provider = (process.argv[2] ?? 'sqlite') as DbProvider;
const total = Number(process.argv[3] ?? 300);
const concurrency = process.argv[4] ?? '4';

async function scratch(): Promise<{ url: string; dir: string; drop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fg-bench-wh-'));
  if (provider === 'sqlite')
    return { url: `file:${path.join(dir, 'bench.db')}`, dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
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
    dir,
    async drop() {
      rmSync(dir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;

async function main(): Promise<void> {
  const db = await scratch();
  await deployMigrations({ provider, url: db.url });
  const received = new Map<number, number>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { number?: number };
      if (typeof body.number === 'number') received.set(body.number, at);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  const config = loadConfig({
    DATA_DIR: db.dir,
    DATABASE_URL: db.url,
    SECRET_KEY: 'bench',
    CRON_ENABLED: 'false',
    JOBS_CONCURRENCY: concurrency,
    WEBHOOK_ALLOWED_HOST_LIST: 'loopback',
  });
  const app = await buildApp(config);
  const system = createSystemContext(app.deps);
  const alice = await userService.createUser(system, {
    username: 'alice',
    email: 'alice@example.com',
    password: 'password123!',
    mustChangePassword: false,
  });
  const cx = createServiceContext(app.deps, alice);
  await repoService.createRepo(cx, { kind: 'viewer' }, { name: 'demo', private: false, autoInit: false });
  const ref = { owner: 'alice', repo: 'demo' };
  await webhookService.createHook(
    cx,
    { kind: 'repo', repo: ref },
    { type: 'gitea', config: { url, content_type: 'json', secret: 'x' }, events: ['issues'], active: true },
  );
  await app.startBackground();

  const committed = new Map<number, number>();
  const started = performance.now();
  // Events arrive as a steady stream from 4 concurrent writers (the receipt delay includes queueing behind them).
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < total) {
        next++;
        const view = await issueService.createIssue(cx, ref, { title: `issue ${next}` });
        committed.set(view.issue.index, performance.now());
      }
    }),
  );
  const allCommitted = performance.now();
  while (received.size < total && performance.now() - started < 300_000) await sleep(20);
  const finished = Math.max(...received.values());
  const delays = [...committed].flatMap(([n, at]) => (received.has(n) ? [(received.get(n) ?? 0) - at] : []));
  console.log(
    `webhooks bench (${provider}, JOBS_CONCURRENCY=${concurrency}): ${total} issues created by 4 writers, each delivered to one gitea hook`,
  );
  console.log(`  events committed: ${(total / ((allCommitted - started) / 1000)).toFixed(0)}/s`);
  console.log(
    `  deliveries received: ${received.size}/${total}, ${(received.size / ((finished - started) / 1000)).toFixed(1)}/s end to end`,
  );
  console.log(
    `  commit → receipt delay: p50 ${percentile(delays, 50).toFixed(1)} ms, p95 ${percentile(delays, 95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`,
  );

  // One event at a time on an idle system: the delay of a single delivery.
  const single: number[] = [];
  for (let i = 0; i < 20; i++) {
    const view = await issueService.createIssue(cx, ref, { title: 'single' });
    const at = performance.now();
    while (!received.has(view.issue.index)) await sleep(1);
    single.push((received.get(view.issue.index) ?? 0) - at);
  }
  console.log(`  idle, one event at a time: p50 ${percentile(single, 50).toFixed(1)} ms, p95 ${percentile(single, 95).toFixed(1)} ms`);
  await app.close();
  receiver.close();
  await db.drop();
}

await main();
