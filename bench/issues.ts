// Issue read paths against hand-made baselines, in one run on the embedded default (SQLite):
//  1. requests per second of GET /api/v1/repos/{o}/{r}/issues/{index} versus a bare Fastify route returning the
//     same JSON bytes (autocannon in a child process, so the load generator does not share the server's event loop);
//  2. p50 latency of the issue-5 GraphQL query versus a bare Fastify route that builds the same JSON with
//     hand-written SQL (better-sqlite3 prepared statements on the same database file).
// Usage: npx tsx bench/issues.ts [seconds=8] [graphqlRuns=300]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { COMMENTS_PER_ISSUE, handWritten, ISSUES, QUERY, seed } from './issuesFixture.ts';

const seconds = Number(process.argv[2] ?? 8);
const graphqlRuns = Number(process.argv[3] ?? 300);
const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-issues-'));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** Runs autocannon as a child process and returns its mean requests per second. */
function autocannon(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<number> {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', '10', '-d', String(seconds), '-m', init.method ?? 'GET'];
  for (const [k, v] of Object.entries(init.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (init.body) args.push('-b', init.body);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const result = JSON.parse(out) as { requests: { average: number }; non2xx: number; errors: number };
      if (result.non2xx || result.errors) return reject(new Error(`autocannon saw ${result.non2xx} non-2xx and ${result.errors} errors`));
      resolve(result.requests.average);
    });
  });
}

/** p50 of `runs` sequential POSTs (after 20 warm-up requests), in milliseconds. */
async function p50(url: string, body: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < graphqlRuns + 20; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    if (i >= 20) times.push(performance.now() - t0);
  }
  return median(times);
}

async function main(): Promise<void> {
  const dataDir = path.join(tmp, 'data');
  const file = path.join(dataDir, 'forgegraph.db');
  const url = `file:${file}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const bare = Fastify();
  try {
    await seed(app);
    const issuePath = '/api/v1/repos/bench/tracker/issues/7';
    const issueJson = await (await fetch(base + issuePath)).text();
    const graphqlBody = JSON.stringify({ query: QUERY, variables: { owner: 'bench', name: 'tracker' } });
    const gqlResponse = await (
      await fetch(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: graphqlBody })
    ).json();
    const build = handWritten(file);
    const sqlResponse = build('bench', 'tracker');
    if (JSON.stringify(gqlResponse) !== JSON.stringify(sqlResponse)) {
      throw new Error(
        `hand-written SQL and GraphQL disagree:\n${JSON.stringify(gqlResponse).slice(0, 600)}\n${JSON.stringify(sqlResponse).slice(0, 600)}`,
      );
    }
    bare.get(issuePath, (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(issueJson));
    bare.post('/graphql-sql', (req, reply) => {
      const { variables } = req.body as { variables: { owner: string; name: string } };
      return reply.send(build(variables.owner, variables.name));
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;

    console.log(
      `seeded ${ISSUES} issues × (2 labels, 1–2 assignees, ${COMMENTS_PER_ISSUE} comments, 1–5 reactions); GET body ${issueJson.length} bytes`,
    );
    const ours = await autocannon(base + issuePath);
    const baseline = await autocannon(bareBase + issuePath);
    console.log(`GET ${issuePath} (autocannon -c 10 -d ${seconds}):`);
    console.log(`  forgegraph            ${ours.toFixed(0)} req/s`);
    console.log(`  bare Fastify (same JSON) ${baseline.toFixed(0)} req/s`);
    console.log(`  ratio forgegraph / bare ${(ours / baseline).toFixed(3)}`);

    const gql = await p50(`${base}/api/graphql`, graphqlBody);
    const hand = await p50(`${bareBase}/graphql-sql`, graphqlBody);
    console.log(
      `GraphQL issues(first: 50){author labels assignees comments(first: 10){author} reactionGroups}, ${graphqlRuns} sequential requests:`,
    );
    console.log(`  forgegraph GraphQL p50     ${gql.toFixed(2)} ms`);
    console.log(`  hand-written SQL p50       ${hand.toFixed(2)} ms`);
    console.log(`  ratio GraphQL / SQL        ${(gql / hand).toFixed(2)}x`);
  } finally {
    await bare.close();
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
