// A mixed soak of `forgegraph serve` as users run it (a separate process, from the bundle, a fresh data directory):
// REST and GraphQL reads, issue and comment writes, pushes over smart HTTP, webhooks delivered to a local receiver and
// a GraphQL subscription (SSE) open throughout. Every sample interval it prints the server's RSS (from /proc) and its
// V8 heap (used and total, from /metrics' nodejs_heap_size_* gauges), and the work done meanwhile, as a table.
// Memory that grows from one sample to the next under a steady load is a leak; the first line is the idle figure.
// Usage: npx tsx bench/soak.ts [minutes=30] [sampleSeconds=60] [sqlite|postgresql] [settleSeconds=0]
//   settleSeconds: after the load, one more sample once the server has been left idle that long (the heap made
//   small again after a minute without load: src/bin/heapShape.js).
//   SOAK_NODE_FLAGS="--max-semi-space-size=64" adds Node flags to the server (npm start adds none).
//   PostgreSQL: a scratch database on BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'graphql-sse';
import { providerArg } from './scratchDb.ts';
import { rssMb, startServed } from './servedProcess.ts';

const minutes = Number(process.argv[2] ?? 30);
const sampleSeconds = Number(process.argv[3] ?? 60);
const provider = providerArg(process.argv[4], 'sqlite');
const settleSeconds = Number(process.argv[5] ?? 0);
const nodeFlags = (process.env.SOAK_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const PASSWORD = 'soak-password-1';

const counts = { reads: 0, writes: 0, pushes: 0, hooks: 0, events: 0, errors: 0 };

/** The local webhook receiver: counts deliveries. */
function hookReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      counts.hooks++;
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` })),
  );
}

const receiver = await hookReceiver();
const served = await startServed({
  provider,
  name: 'soak',
  user: 'soak',
  password: PASSWORD,
  nodeFlags,
  env: { WEBHOOK_ALLOWED_HOST_LIST: 'loopback' },
});
const { base, port, server } = served;
const AUTH = served.auth;
/** When the server was spawned: the samples' times count from there. */
const started = performance.now() - served.readySeconds * 1000;
console.log(
  `node ${process.version} ${nodeFlags.join(' ')} forgegraph serve (${provider}) ready in ${served.readySeconds.toFixed(1)} s; soak ${minutes} min, a sample every ${sampleSeconds} s`,
);

async function api(method: string, url: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: AUTH, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** The V8 heap (used, total) in MB from the server's Prometheus metrics. */
async function heapMb(): Promise<{ used: number; total: number }> {
  const text = await (await api('GET', 'metrics')).text();
  const gauge = (name: string) => Number(new RegExp(`^forgegraph_${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
  return { used: gauge('nodejs_heap_size_used_bytes'), total: gauge('nodejs_heap_size_total_bytes') };
}

const rows: string[][] = [];
async function sample(label: string): Promise<void> {
  const heap = await heapMb().catch(() => ({ used: NaN, total: NaN }));
  const row = [label, rssMb(server.pid!).toFixed(0), heap.used.toFixed(0), heap.total.toFixed(0), ...Object.values(counts).map(String)];
  rows.push(row);
  console.log(row.map((c, i) => (i === 0 ? c.padEnd(8) : c.padStart(8))).join(' '));
}
console.log(
  ['time', 'RSS MB', 'heap MB', 'heap tot', ...Object.keys(counts)].map((c, i) => (i === 0 ? c.padEnd(8) : c.padStart(8))).join(' '),
);
// Idle: 12 s after ready, as bench/coldStart.ts waits 10 s. V8's memory reducer makes its first pass ~8 s after the
// start's last full collection (kLongDelayMs): the start's garbage and young generation are resident until then
// (~155 MB at 5 s on Node 20, ~120 MB from 8 s on; with --no-memory-reducer it stays ~155 MB).
await sleep(12_000);
await sample('idle');

// Fixture: a repository with a README, a webhook on it, a working copy to push from, a subscription.
await api('POST', 'api/v1/user/repos', { name: 'soak', auto_init: true, default_branch: 'main' });
await api('POST', 'api/v1/repos/soak/soak/hooks', {
  type: 'gitea',
  active: true,
  events: ['push', 'issues', 'issue_comment'],
  config: { url: receiver.url, content_type: 'json' },
});
const work = mkdtempSync(path.join(tmpdir(), 'fg-soak-work-'));
const git = (...args: string[]) => {
  const r = spawnSync('git', args, { cwd: work, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
};
git('clone', '-q', `http://soak:${PASSWORD}@127.0.0.1:${port}/soak/soak.git`, '.');
git('config', 'user.email', 'soak@example.com');
git('config', 'user.name', 'soak');
const subscription = createClient({ url: `${base}api/graphql`, headers: { authorization: AUTH }, retryAttempts: 0 });
const unsubscribe = subscription.subscribe(
  { query: 'subscription { issueEvents(owner: "soak", name: "soak") { action issue { number } } }' },
  { next: () => void counts.events++, error: () => void counts.errors++, complete: () => undefined },
);

const GRAPHQL_READ = JSON.stringify({
  query:
    '{ repository(owner: "soak", name: "soak") { issues(first: 20) { nodes { number title labels(first: 5) { nodes { name } } comments(first: 5) { nodes { body } } } } } }',
});
const end = performance.now() + minutes * 60_000;
let running = true;
/** Runs `step` in a loop until the soak ends, counting failures instead of stopping. */
async function loop(step: () => Promise<void>, pauseMs: number): Promise<void> {
  while (running) {
    await step().catch(() => void counts.errors++);
    await sleep(pauseMs);
  }
}
let issues = 0;
const loops = [
  // Two readers: REST lists and an issue, the nested GraphQL query.
  ...[0, 1].map(() =>
    loop(async () => {
      await (await api('GET', 'api/v1/repos/soak/soak/issues?limit=20')).arrayBuffer();
      if (issues > 0) await (await api('GET', `api/v1/repos/soak/soak/issues/${1 + (counts.reads % issues)}`)).arrayBuffer();
      await (await api('POST', 'api/graphql', JSON.parse(GRAPHQL_READ))).arrayBuffer();
      counts.reads += 3;
    }, 0),
  ),
  // A writer: an issue, then a comment on it (each fires a webhook and a subscription event).
  loop(async () => {
    const { number } = (await (await api('POST', 'api/v1/repos/soak/soak/issues', { title: `soak ${issues}`, body: 'body' })).json()) as {
      number: number;
    };
    issues = Math.max(issues, number);
    await api('POST', `api/v1/repos/soak/soak/issues/${number}/comments`, { body: `comment on ${number}` });
    counts.writes += 2;
  }, 200),
  // A pusher: one commit every two seconds over smart HTTP (a push webhook each).
  loop(async () => {
    git('commit', '-q', '--allow-empty', '-m', `soak ${counts.pushes}`);
    git('push', '-q', 'origin', 'HEAD:main');
    counts.pushes++;
  }, 2_000),
];
let next = performance.now() + sampleSeconds * 1000;
while (performance.now() < end) {
  await sleep(Math.max(0, Math.min(next, end) - performance.now()));
  if (performance.now() >= next) {
    const s = Math.round((performance.now() - started) / 1000);
    await sample(`${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`);
    next += sampleSeconds * 1000;
  }
}
running = false;
await Promise.all(loops);
unsubscribe();
subscription.dispose();
await sleep(10_000);
await sample('after');
const peak = Math.max(...rows.map((r) => Number(r[1])));
const loaded = rows.slice(1, -1).map((r) => Number(r[1]));
const half = loaded.slice(Math.floor(loaded.length / 2));
const drift = half.length
  ? `; second half of the soak: RSS min ${Math.min(...half).toFixed(0)}, max ${Math.max(...half).toFixed(0)} MB`
  : '';
const rate = (counts.reads / minutes / 60).toFixed(0);
let settled = '';
if (settleSeconds > 0) {
  await sleep(settleSeconds * 1000);
  await sample(`+${settleSeconds} s`);
  settled = `; ${rows.at(-1)?.[1]} MB after ${settleSeconds} s idle`;
}
console.log(`idle RSS ${rows[0]?.[1]} MB, peak ${peak.toFixed(0)} MB${drift}; ${rate} reads/s; ${counts.errors} errors${settled}`);
await served.stop();
receiver.server.close();
rmSync(work, { recursive: true, force: true });
