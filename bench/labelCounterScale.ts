// What a label's counters cost a write as the label is used more, on SQLite or PostgreSQL: `refreshLabelCounters`
// (Gitea's recount: every IssueLabel row of the label, and its issue for the closed count), run by every write that
// adds or removes a label or closes or reopens a labelled issue, inside the write's transaction. Seeds one label on
// 100, 1,000, 10,000 and 50,000 issues (half of them closed) and prints the recount's p50.
// Usage: npx tsx bench/labelCounterScale.ts [sqlite|postgresql=sqlite]
//   PostgreSQL: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a scratch database is made and dropped.
import './serverRuntime.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { refreshLabelCounters } from '../src/db/labelCounters.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as userService from '../src/services/user/user.ts';
import { providerArg, scratchDatabase } from './scratchDb.ts';

const provider = providerArg(process.argv[2], 'sqlite');
const RUNS = 20;

const database = await scratchDatabase(provider, 'labels');
await deployMigrations({ provider, url: database.url });
const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
const app = await buildApp(config, {});
const db = app.deps.db;
try {
  const owner = await userService.createUser(createSystemContext(app.deps), {
    username: 'bench',
    email: 'bench@example.com',
    password: 'bench-password-1',
    mustChangePassword: false,
  });
  const repo = await db.repository.create({ data: { ownerId: owner.id, ownerName: owner.name, name: 'r', lowerName: 'r' } });
  const label = await db.label.create({ data: { repoId: repo.id, name: 'bug', color: '#ff0000' } });
  const series = (from: number, to: number) =>
    provider === 'sqlite'
      ? `WITH RECURSIVE s(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM s WHERE i < ${to}) SELECT i FROM s`
      : `SELECT generate_series(${from}, ${to}) AS i`;
  const now = provider === 'sqlite' ? 'CURRENT_TIMESTAMP' : 'now()';
  const closed = provider === 'sqlite' ? 'i % 2' : '(i % 2 = 1)';
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${provider}: refreshLabelCounters of one label, p50 of ${RUNS}`);
  let made = 0;
  for (const issues of [100, 1_000, 10_000, 50_000]) {
    // Three issues per labelled one, so the closed count's lookups are spread over the table.
    await db.$executeRawUnsafe(
      `INSERT INTO "Issue" ("id", "repoId", "index", "posterId", "title", "isClosed", "createdAt", "updatedAt")
       SELECT i, ${repo.id}, i, ${owner.id}, 'issue', ${closed}, ${now}, ${now} FROM (${series(made * 3 + 1, issues * 3)}) s`,
    );
    await db.$executeRawUnsafe(
      `INSERT INTO "IssueLabel" ("issueId", "labelId") SELECT i * 3, ${label.id} FROM (${series(made + 1, issues)}) s`,
    );
    made = issues;
    if (provider === 'postgresql') await db.$executeRawUnsafe('ANALYZE');
    const ms: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      await refreshLabelCounters(db, [label.id]);
      if (i > 0) ms.push(performance.now() - started);
    }
    const counted = await db.label.findUniqueOrThrow({ where: { id: label.id }, select: { numIssues: true, numClosedIssues: true } });
    console.log(
      `  ${String(issues).padStart(6)} issues with the label: ${median(ms).toFixed(2)} ms (counted ${counted.numIssues}, ${counted.numClosedIssues} closed)`,
    );
  }
} finally {
  await app.close();
  await database.drop();
}
