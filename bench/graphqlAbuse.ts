// GraphQL abuse (issue #10, finding 2): each abusive document is sent N times, one after another, to a listening
// server while a second loop polls /api/healthz. Prints, per document, how the server answered, the time to
// answer it (p50/max, as the client sees it) and the healthz latency p50/p99 during the abuse, against idle.
// The server runs in this process (as in bench/issues.ts); the requests come from a child process, so building
// and sending 5 MB bodies does not share the server's event loop.
// Every send differs by a comment, so Yoga's parse and validation caches do not help.
// Usage: npx tsx bench/graphqlAbuse.ts [sends=30]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/engine.ts';
import { createBenchUser } from './benchUser.ts';

const ISSUES = 100;
const COMMENTS_PER_ISSUE = 100;

interface Abuse {
  name: string;
  body: (issueIds: string[]) => string;
}

const json = (query: string, variables?: Record<string, unknown>) => JSON.stringify({ query, variables });
const repeat = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(' ');
const NESTED = 'id ... on Issue { comments(first: 100) { totalCount } }';
const DEEP = 'repositories(first: 1) { nodes { name owner { login } } }';

const ABUSES: Abuse[] = [
  {
    name: 'nodes(ids:) 10,000 ids + comments(first:100){totalCount}',
    body: (ids) =>
      json(`query($ids: [ID!]!) { nodes(ids: $ids) { ${NESTED} } }`, {
        ids: Array.from({ length: 10_000 }, (_, i) => ids[i % ids.length]),
      }),
  },
  {
    name: 'nodes(ids:) 100 ids + comments(first:100){totalCount} (allowed)',
    body: (ids) => json(`query($ids: [ID!]!) { nodes(ids: $ids) { ${NESTED} } }`, { ids }),
  },
  { name: '5,000 aliases', body: () => json(`{ ${repeat(5000, (i) => `a${i}: viewer { login }`)} }`) },
  { name: '100,000 @include directives (1.9 MB)', body: () => json(`{ viewer { login ${'@include(if: true) '.repeat(100_000)} } }`) },
  { name: '10,000 @include directives', body: () => json(`{ viewer { login ${'@include(if: true) '.repeat(10_000)} } }`) },
  { name: '5 MB of tokens', body: () => json(`{ ${'__typename '.repeat(500_000)} }`) },
  { name: '10,001 tokens (110 KB)', body: () => json(`{ ${'__typename '.repeat(9_999)} }`) },
  { name: '100,000 __typename aliases (1.8 MB)', body: () => json(`{ ${repeat(100_000, (i) => `t${i}: __typename`)} }`) },
  { name: '10,000 __typename aliases', body: () => json(`{ ${repeat(10_000, (i) => `t${i}: __typename`)} }`) },
  { name: 'depth 10,000', body: () => json(`{${'a {'.repeat(10_000)}b${'}'.repeat(10_001)}`) },
  { name: '9,998 __typename (at the token limit)', body: () => json(`{ ${'__typename '.repeat(9_998)} }`) },
  { name: '400 × viewer { login }', body: () => json(`{ ${'viewer { login } '.repeat(400)} }`) },
  // At the duplicates limit, for comparison: graphql-js's validation of overlapping fields is what costs here.
  { name: '50 × viewer { repositories(first: 1) {…} } (allowed)', body: () => json(`{ ${`viewer { ${DEEP} } `.repeat(50)} }`) },
];

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const ms = (x: number) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(1) : x.toFixed(0)).padStart(7);

/** How the server answered: the named limit it refused with, another error code, or data. */
function outcome(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { data?: unknown; errors?: { message: string; extensions?: { code?: string; limit?: string } }[] };
    const err = body.errors?.[0];
    if (!err) return `${status} data`;
    return `${status} ${err.extensions?.code ?? err.message.slice(0, 40)}${err.extensions?.limit ? ` (${err.extensions.limit})` : ''}`;
  } catch {
    return `${status} ${text.slice(0, 40)}`;
  }
}

/** Polls /api/healthz back to back until stopped; returns the latencies. */
function pollHealth(base: string): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/healthz`);
      await res.text();
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

async function client(base: string, sends: number): Promise<void> {
  const post = (body: string) => fetch(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const listed = (await (
    await post(json('{ repository(owner: "bench", name: "abuse") { issues(first: 100) { nodes { id } } } }'))
  ).json()) as {
    data: { repository: { issues: { nodes: { id: string }[] } } };
  };
  const issueIds = listed.data.repository.issues.nodes.map((n) => n.id);
  if (issueIds.length !== ISSUES) throw new Error(`expected ${ISSUES} issues, got ${issueIds.length}`);

  const idle = pollHealth(base);
  await new Promise((r) => setTimeout(r, 2000));
  const idleTimes = await idle.stop();
  console.log(`${sends} sends per document, one at a time; /api/healthz polled back to back meanwhile (latencies in ms)`);
  console.log(`idle: healthz p50 ${ms(percentile(idleTimes, 50))}  p99 ${ms(percentile(idleTimes, 99))}  (${idleTimes.length} polls)`);
  console.log(`${'document'.padEnd(62)} ${'answer'.padEnd(34)} ${'p50'.padStart(7)} ${'max'.padStart(7)} | healthz p50     p99  polls`);
  for (const abuse of ABUSES) {
    const body = abuse.body(issueIds);
    const health = pollHealth(base);
    const times: number[] = [];
    const answers = new Set<string>();
    for (let i = 0; i < sends; i++) {
      // A comment makes each document new, as an attacker would: Yoga caches parsing and validation per document.
      const fresh = body.replace('{"query":"', `{"query":"# ${i}\\n`);
      const t0 = performance.now();
      const res = await post(fresh);
      const text = await res.text();
      times.push(performance.now() - t0);
      answers.add(outcome(res.status, text));
    }
    const healthTimes = await health.stop();
    console.log(
      `${abuse.name.padEnd(62)} ${[...answers].join(', ').padEnd(34)} ${ms(percentile(times, 50))} ${ms(Math.max(...times))} |` +
        ` ${ms(percentile(healthTimes, 50))} ${ms(percentile(healthTimes, 99))} ${String(healthTimes.length).padStart(6)}`,
    );
  }
}

/** One public repository with ISSUES issues of COMMENTS_PER_ISSUE comments each. */
async function seed(app: App): Promise<void> {
  const db = app.deps.db;
  const owner = await createBenchUser(app);
  const repo = await db.repository.create({
    data: {
      ownerId: owner.id,
      ownerName: owner.name,
      name: 'abuse',
      lowerName: 'abuse',
      isEmpty: true,
      units: { create: [{ type: 'CODE' }, { type: 'ISSUES' }, { type: 'PULL_REQUESTS' }] },
    },
  });
  for (let n = 1; n <= ISSUES; n++) {
    const issue = await db.issue.create({
      data: { repoId: repo.id, index: n, posterId: owner.id, title: `Issue ${n}`, content: '', numComments: COMMENTS_PER_ISSUE },
    });
    await db.comment.createMany({
      data: Array.from({ length: COMMENTS_PER_ISSUE }, (_, c) => ({
        type: 'COMMENT' as const,
        issueId: issue.id,
        posterId: owner.id,
        content: `comment ${c}`,
      })),
    });
  }
  await db.issueIndex.create({ data: { repoId: repo.id, maxIndex: ISSUES } });
  await db.repository.update({ where: { id: repo.id }, data: { numIssues: ISSUES } });
}

async function main(): Promise<void> {
  const sends = Number(process.argv[2] ?? 30);
  const tmp = mkdtempSync(path.join(tmpdir(), 'fg-bench-abuse-'));
  const dataDir = path.join(tmp, 'data');
  const url = `file:${path.join(dataDir, 'forgegraph.db')}`;
  await deployMigrations({ provider: 'sqlite', url });
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const app = await buildApp(config);
  try {
    await seed(app);
    await app.warmUp();
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--client', base, String(sends)], { stdio: 'inherit' });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`client exited ${code}`);
  } finally {
    await app.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--client') await client(process.argv[3] ?? '', Number(process.argv[4] ?? 30));
else await main();
