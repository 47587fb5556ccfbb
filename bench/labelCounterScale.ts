// What a label's counters cost a write as the label is used more, on SQLite or PostgreSQL: the recount
// (`refreshLabelCounters`, Gitea's: every IssueLabel row of the label, and its issue for the closed count), which every
// write that added or removed a label or closed or reopened a labelled issue ran inside its transaction, against the
// increment (`shiftLabelCounters`) such a write runs now. Seeds one label on 100, 1,000, 10,000 and 50,000 issues
// (half of them closed) and prints the p50 of each.
// Usage: npx tsx bench/labelCounterScale.ts [sqlite|postgresql=sqlite]
//   PostgreSQL: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a scratch database is made and dropped.
import './serverRuntime.ts';
import { refreshLabelCounters, shiftLabelCounters } from '../src/db/labelCounters.ts';
import { providerArg } from './scratchDb.ts';
import { withSeededRepo } from './seededRepo.ts';

const provider = providerArg(process.argv[2], 'sqlite');
const RUNS = 20;

await withSeededRepo(provider, 'labels', async ({ app, owner, repo, series, now }) => {
  const db = app.deps.db;
  const label = await db.label.create({ data: { repoId: repo.id, name: 'bug', color: '#ff0000' } });
  const closed = provider === 'sqlite' ? 'i % 2' : '(i % 2 = 1)';
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${provider}: one label's counters, recounted and shifted, p50 of ${RUNS}`);
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
    // What a change of one issue runs instead: an increment (here +1 and -1 in turn, so the counters stay exact).
    const shifted: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      await shiftLabelCounters(db, [label.id], { issues: i % 2 === 0 ? 1 : -1, closed: 0 });
      if (i > 0) shifted.push(performance.now() - started);
    }
    await shiftLabelCounters(db, [label.id], { issues: -1, closed: 0 });
    const counted = await db.label.findUniqueOrThrow({ where: { id: label.id }, select: { numIssues: true, numClosedIssues: true } });
    console.log(
      `  ${String(issues).padStart(6)} issues with the label: recount ${median(ms).toFixed(2)} ms, shift ${median(shifted).toFixed(2)} ms (counted ${counted.numIssues}, ${counted.numClosedIssues} closed)`,
    );
  }
});
