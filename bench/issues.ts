// Issue read paths against hand-made baselines, in one run:
//  1. (SQLite) requests per second of GET /api/v1/repos/{o}/{r}/issues/{index} versus a bare Fastify route returning
//     the same JSON bytes (autocannon in a child process, so the load generator does not share the server's event loop);
//  2. (SQLite, then PostgreSQL beside it) p50 latency and SQL statements of the nested GraphQL query versus a bare
//     Fastify route that builds the same JSON with hand-written SQL (prepared statements on the same database).
// Usage: npx tsx bench/issues.ts [seconds=8] [graphqlRuns=300] [providers=sqlite,postgresql]
//        (PostgreSQL: a scratch database on BENCH_PG_URL, bench/scratchDb.ts)
import './serverRuntime.ts';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { COMMENTS_PER_ISSUE, handWritten, ISSUES, QUERY, seed } from './issuesFixture.ts';
import { handWrittenPg } from './issuesPgBaseline.ts';
import { providersArg, scratchDatabase, type Provider } from './scratchDb.ts';

const seconds = Number(process.argv[2] ?? 8);
const graphqlRuns = Number(process.argv[3] ?? 300);
const providers = providersArg(process.argv[4], 'both');

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

/**
 * p50s of `runs` sequential POSTs to each of `urls` (after 20 warm-up rounds), in milliseconds. The requests
 * alternate between the servers, so both see the same machine: a slow spell cannot land on one of them only.
 */
async function p50s(urls: string[], body: string): Promise<number[]> {
  const times = urls.map((): number[] => []);
  for (let i = 0; i < graphqlRuns + 20; i++) {
    for (const [k, url] of urls.entries()) {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.text();
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      if (i >= 20) times[k]!.push(performance.now() - t0);
    }
  }
  return times.map(median);
}

const listen = async (server: FastifyInstance): Promise<string> => {
  await server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
};

/** GET issue req/s against a bare route serving the same bytes (SQLite only, as before). */
async function getIssueFigures(base: string): Promise<void> {
  const issuePath = '/api/v1/repos/bench/tracker/issues/7';
  const issueJson = await (await fetch(base + issuePath)).text();
  const bare = Fastify();
  bare.get(issuePath, (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(issueJson));
  try {
    const bareBase = await listen(bare);
    console.log(`GET body ${issueJson.length} bytes`);
    const ours = await autocannon(base + issuePath);
    const baseline = await autocannon(bareBase + issuePath);
    console.log(`GET ${issuePath} (autocannon -c 10 -d ${seconds}):`);
    console.log(`  forgegraph            ${ours.toFixed(0)} req/s`);
    console.log(`  bare Fastify (same JSON) ${baseline.toFixed(0)} req/s`);
    console.log(`  ratio forgegraph / bare ${(ours / baseline).toFixed(3)}`);
  } finally {
    await bare.close();
  }
}

/** The GraphQL query's p50 and statements against the hand-written SQL, on one database. */
async function run(provider: Provider): Promise<void> {
  const db = await scratchDatabase(provider, 'issues');
  await deployMigrations({ provider, url: db.url });
  let statements = 0;
  const config = loadConfig({ DATA_DIR: db.dataDir, DATABASE_URL: db.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config, { onQuery: () => statements++ });
  const pgBaseline = provider === 'postgresql' ? await handWrittenPg(db.url) : null;
  const bare = Fastify();
  try {
    const base = await listen(app.server);
    await seed(app);
    console.log(`[${provider}] seeded ${ISSUES} issues × (2 labels, 1–2 assignees, ${COMMENTS_PER_ISSUE} comments, 1–5 reactions)`);
    if (provider === 'sqlite') await getIssueFigures(base);
    const build = pgBaseline ? pgBaseline.build : handWritten(path.join(db.dataDir, 'forgegraph.db'));
    const graphqlBody = JSON.stringify({ query: QUERY, variables: { owner: 'bench', name: 'tracker' } });
    const post = () => fetch(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: graphqlBody });
    await post(); // warm-up: the schema loads lazily, the PostgreSQL driver reads type information once
    statements = 0;
    const gqlResponse = await (await post()).json();
    const perQuery = statements;
    const sqlResponse = await build('bench', 'tracker');
    if (JSON.stringify(gqlResponse) !== JSON.stringify(sqlResponse)) {
      throw new Error(
        `hand-written SQL and GraphQL disagree:\n${JSON.stringify(gqlResponse).slice(0, 600)}\n${JSON.stringify(sqlResponse).slice(0, 600)}`,
      );
    }
    bare.post('/graphql-sql', async (req) => {
      const { variables } = req.body as { variables: { owner: string; name: string } };
      return build(variables.owner, variables.name);
    });
    const bareBase = await listen(bare);
    const [gql, hand] = (await p50s([`${base}/api/graphql`, `${bareBase}/graphql-sql`], graphqlBody)) as [number, number];
    console.log(
      `[${provider}] GraphQL issues(first: 50){author labels assignees comments(first: 10){author} reactionGroups}, ${graphqlRuns} requests each, alternating:`,
    );
    console.log(`  forgegraph GraphQL p50     ${gql.toFixed(2)} ms (${perQuery} SQL statements)`);
    console.log(`  hand-written SQL p50       ${hand.toFixed(2)} ms (6 statements)`);
    console.log(`  ratio GraphQL / SQL        ${(gql / hand).toFixed(2)}x`);
  } finally {
    await bare.close();
    await pgBaseline?.close();
    await app.close();
    await db.drop();
  }
}

for (const provider of providers) await run(provider);
