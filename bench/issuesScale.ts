// The repository issue list at scale (issue #17): p50 of `GET /repos/{o}/{r}/issues?limit=50` (anonymous, open
// issues, newest first) of a repository with 10,000 issues and of one with 1,000,000, and the ratio (goal <= 1.5);
// then the same for GraphQL's `repository { issues(first: 50) }` (every state, newest first, with label counts).
// The issues are seeded with direct batched SQL (a recursive CTE on SQLite, generate_series on PostgreSQL), 10%
// of them closed, one poster; the repository's counters and issue number allocator are set to match.
// Usage: npx tsx bench/issuesScale.ts [sqlite|postgresql=sqlite] [requests=200] [small=10000] [large=1000000]
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { createServiceContext } from '../src/services/context.ts';
import * as repoService from '../src/services/repo/create.ts';
import { providerArg, scratchDatabase } from './scratchDb.ts';
import { createBenchUser } from './benchUser.ts';

const provider = providerArg(process.argv[2], 'sqlite');
const requests = Number(process.argv[3] ?? 200);
const sizes = [Number(process.argv[4] ?? 10_000), Number(process.argv[5] ?? 1_000_000)];

const SQLITE_SEED = `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
  INSERT INTO "Issue" ("repoId", "index", "posterId", "title", "content", "isClosed", "createdAt", "updatedAt")
  SELECT ?, x, ?, 'Issue number ' || x, 'Body of issue ' || x, x % 10 = 0,
    strftime('%Y-%m-%dT%H:%M:%f+00:00', 1700000000 + x, 'unixepoch'),
    strftime('%Y-%m-%dT%H:%M:%f+00:00', 1700000000 + x, 'unixepoch') FROM n`;
const PG_SEED = `INSERT INTO "Issue" ("repoId", "index", "posterId", "title", "content", "isClosed", "createdAt", "updatedAt")
  SELECT $2, x, $3, 'Issue number ' || x, 'Body of issue ' || x, x % 10 = 0,
    timestamp '2023-11-14 22:13:20' + x * interval '1 second', timestamp '2023-11-14 22:13:20' + x * interval '1 second'
  FROM generate_series(1, $1::int) AS x`;
const COUNTERS = `UPDATE "Repository" SET "numIssues" = ?, "numClosedIssues" = ? WHERE "id" = ?`;

async function seed(url: string, count: number, repoId: number, posterId: number): Promise<void> {
  const closed = Math.floor(count / 10);
  if (provider === 'sqlite') {
    const db = new Database(url.replace(/^file:/, ''));
    db.prepare(SQLITE_SEED).run(count, repoId, posterId);
    db.prepare(COUNTERS).run(count, closed, repoId);
    db.prepare('INSERT INTO "IssueIndex" ("repoId", "maxIndex") VALUES (?, ?) ON CONFLICT ("repoId") DO UPDATE SET "maxIndex" = ?').run(
      repoId,
      count,
      count,
    );
    db.exec('ANALYZE');
    db.close();
    return;
  }
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(PG_SEED, [count, repoId, posterId]);
  await c.query('UPDATE "Repository" SET "numIssues" = $1, "numClosedIssues" = $2 WHERE "id" = $3', [count, closed, repoId]);
  await c.query('INSERT INTO "IssueIndex" ("repoId", "maxIndex") VALUES ($1, $2) ON CONFLICT ("repoId") DO UPDATE SET "maxIndex" = $2', [
    repoId,
    count,
  ]);
  await c.query('ANALYZE');
  await c.end();
}

/** The list of `name`: its X-Total-Count, failing unless it answers a full page. */
async function list(base: string, name: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/repos/bench/${name}/issues?limit=50`);
  const body = (await res.json()) as { number: number }[];
  if (!res.ok || body.length !== 50) throw new Error(`${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return Number(res.headers.get('x-total-count'));
}

const GRAPHQL_LIST = `query($name: String!) { repository(owner: "bench", name: $name) {
  issues(first: 50) { nodes { number title state labels(first: 5) { totalCount nodes { name } } } } } }`;

/** The GraphQL list of `name`, failing unless it answers a full page. */
async function graphqlList(base: string, name: string): Promise<number> {
  const res = await fetch(`${base}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: GRAPHQL_LIST, variables: { name } }),
  });
  const body = (await res.json()) as { data?: { repository: { issues: { nodes: { number: number }[] } } } };
  const nodes = body.data?.repository.issues.nodes ?? [];
  if (!res.ok || nodes.length !== 50) throw new Error(`${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return nodes[0]!.number;
}

const p = (sorted: number[], q: number) => sorted[Math.floor(sorted.length * q)]!;

function report(what: string, times: number[][], perRequest: number[]): void {
  for (const t of times) t.sort((a, b) => a - b);
  console.log(`${provider}: ${what}, ${requests} requests per size, alternating`);
  console.log('issues | p50 ms | p90 ms | statements');
  for (const [i, t] of times.entries()) console.log(`${sizes[i]} | ${p(t, 0.5).toFixed(2)} | ${p(t, 0.9).toFixed(2)} | ${perRequest[i]}`);
  console.log(`ratio p50 ${sizes[1]}/${sizes[0]}: ${(p(times[1]!, 0.5) / p(times[0]!, 0.5)).toFixed(2)} (goal <= 1.5)`);
}

// Both repositories live in one database and their requests alternate, so load from elsewhere on the machine
// weighs on both sizes alike.
const database = await scratchDatabase(provider, 'scale');
await deployMigrations({ provider, url: database.url });
const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
let statements = 0;
const app = await buildApp(config, { onQuery: () => void statements++ });
try {
  const user = await createBenchUser(app);
  const names = ['small', 'large'];
  for (const [i, name] of names.entries()) {
    const repo = (await repoService.createRepo(createServiceContext(app.deps, user), { kind: 'viewer' }, { name })).repo;
    const started = performance.now();
    await seed(database.url, sizes[i]!, repo.id, user.id);
    console.error(`${provider}: seeded ${sizes[i]} issues in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const perRequest: number[] = [];
  for (const [i, name] of names.entries()) {
    for (let w = 0; w < 20; w++) await list(base, name);
    statements = 0;
    const total = await list(base, name);
    perRequest.push(statements);
    if (total !== sizes[i]! - Math.floor(sizes[i]! / 10)) throw new Error(`${name}: X-Total-Count ${total}`);
  }
  /** `requests` timings of `get` per repository, the repositories alternating. */
  const alternating = async (get: (base: string, name: string) => Promise<unknown>): Promise<number[][]> => {
    const times: number[][] = names.map(() => []);
    for (let r = 0; r < requests; r++) {
      for (const [i, name] of names.entries()) {
        const t0 = performance.now();
        await get(base, name);
        times[i]!.push(performance.now() - t0);
      }
    }
    return times;
  };
  report('GET /repos/{o}/{r}/issues?limit=50', await alternating(list), perRequest);

  const graphqlStatements: number[] = [];
  for (const [i, name] of names.entries()) {
    for (let w = 0; w < 20; w++) await graphqlList(base, name);
    statements = 0;
    if ((await graphqlList(base, name)) !== sizes[i]) throw new Error(`${name}: the newest issue is not first`);
    graphqlStatements.push(statements);
  }
  const graphqlTimes = await alternating(graphqlList);
  report(
    'GraphQL repository { issues(first: 50) { nodes { number title state labels(first: 5) { totalCount nodes { name } } } } }',
    graphqlTimes,
    graphqlStatements,
  );
} finally {
  await app.close();
  await database.drop();
}
