// The reactions of a page of comments (the graph's IssueComment.reactionGroups, one statement for all of them) on a
// table of many reactions, on SQLite or PostgreSQL: the time of the statement `reactionRows` runs and its plan; then,
// with the (commentId, id) index of migration 20261205141445 dropped, the statement as it was before that migration
// (the allowed types in its WHERE), as a database without the index ran it. Seeds `reactions` rows over 20,000 issues
// and 100,000 comment ids, and reads the reactions of `comments` of them.
// Beside it, the same page's groups counted in SQL (reactionCountRows, for operations that read no reactor), and
// both for one issue with POPULAR reactions of its own.
// Usage: npx tsx bench/reactionScale.ts [sqlite|postgresql=sqlite] [reactions=200000] [comments=500]
//   PostgreSQL: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a scratch database is made and dropped.
import './serverRuntime.ts';
import { readRows } from '../src/db/readPath.ts';
import { ALLOWED_REACTIONS } from '../src/services/issue/reaction.ts';
import { reactionCountRows, reactionRows } from '../src/services/issue/relationPages.ts';
import { providerArg } from './scratchDb.ts';
import { withSeededRepo } from './seededRepo.ts';

const provider = providerArg(process.argv[2], 'sqlite');
const reactions = Number(process.argv[3] ?? 200_000);
const comments = Number(process.argv[4] ?? 500);
const ISSUES = 20_000;
const COMMENT_IDS = 100_000;
const RUNS = 30;
/** Reactions of the one popular issue. */
const POPULAR = 5_000;
/** reactionRows' statement for comments before 20261205141445. */
const OLD_STATEMENT = 'SELECT * FROM "Reaction" WHERE "commentId" IN (?) AND "type" IN (?) ORDER BY "commentId", "createdAt", "id"';

await withSeededRepo(provider, 'reactions', async ({ app, owner, repo, series, now }) => {
  const db = app.deps.db;
  // Rows made in SQL: issues 1..ISSUES, then reactions spread over them, two thirds on comments, no user (so the
  // unique (type, issueId, commentId, userId) key never collides).
  await db.$executeRawUnsafe(
    `INSERT INTO "Issue" ("id", "repoId", "index", "posterId", "title", "createdAt", "updatedAt")
     SELECT i + 1, ${repo.id}, i + 1, ${owner.id}, 'issue', ${now}, ${now} FROM (${series(0, ISSUES - 1)}) s`,
  );
  const types = ALLOWED_REACTIONS.map((t) => `'${t}'`);
  await db.$executeRawUnsafe(
    `INSERT INTO "Reaction" ("type", "issueId", "commentId", "createdAt")
     SELECT (CASE i % 8 ${types.map((t, k) => `WHEN ${k} THEN ${t}`).join(' ')} END), 1 + i % ${ISSUES},
            CASE WHEN i % 3 = 0 THEN 0 ELSE 1 + i % ${COMMENT_IDS} END, ${now}
     FROM (${series(0, reactions - 1)}) s`,
  );
  if (provider === 'postgresql') await db.$executeRawUnsafe('ANALYZE "Reaction"');
  const ids = Array.from({ length: comments }, (_, k) => 1 + ((k * 197) % COMMENT_IDS));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const timed = async (run: () => Promise<unknown[]>) => {
    const rows = (await run()).length;
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await run();
      ms.push(performance.now() - started);
    }
    return { p50: median(ms), rows };
  };
  const inList = ids.map(() => '?').join(', ');
  const oldSql = OLD_STATEMENT.replace('"commentId" IN (?)', `"commentId" IN (${inList})`).replace(
    '"type" IN (?)',
    `"type" IN (${ALLOWED_REACTIONS.map(() => '?').join(', ')})`,
  );
  const numbered = (sql: string) => (provider === 'sqlite' ? sql : ((n) => sql.replace(/\?/g, () => `$${++n}`))(0));
  const plan = async (sql: string, params: unknown[]) =>
    provider === 'sqlite'
      ? (await db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`, ...params)).map((r) => r.detail).join(' | ')
      : (await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${numbered(sql)}`, ...params))
          .map((r) => r['QUERY PLAN'].trim())
          .filter((l) => /Scan/.test(l))
          .map((l) => l.replace(/^->\s*/, '').replace(/\s+\(cost.*$/, ''))
          .join(' | ');

  console.log(`${provider}: ${reactions} reactions, the reactions of ${comments} comments (p50 of ${RUNS})`);
  const now1 = await timed(() => reactionRows(db, 'comment', ids, ALLOWED_REACTIONS));
  const newSql = `SELECT * FROM "Reaction" WHERE "commentId" IN (${inList}) ORDER BY "commentId", "createdAt", "id"`;
  console.log(`  reactionRows (index on commentId):        ${now1.p50.toFixed(2)} ms, ${now1.rows} rows; plan: ${await plan(newSql, ids)}`);
  // The groups counted in SQL (an operation that reads no reactor): a row per comment and content.
  const counted = await timed(() => reactionCountRows(db, 'comment', ids, owner.id, ALLOWED_REACTIONS));
  console.log(`  reactionCountRows (groups counted in SQL): ${counted.p50.toFixed(2)} ms, ${counted.rows} rows`);
  // One popular issue: POPULAR more reactions on issue 1 itself, read as rows and counted.
  await db.$executeRawUnsafe(
    `INSERT INTO "Reaction" ("type", "issueId", "commentId", "createdAt")
     SELECT (CASE i % 8 ${types.map((t, k) => `WHEN ${k} THEN ${t}`).join(' ')} END), 1, 0, ${now} FROM (${series(0, POPULAR - 1)}) s`,
  );
  const popularRows = await timed(() => reactionRows(db, 'issue', [1], ALLOWED_REACTIONS));
  const popularCounted = await timed(() => reactionCountRows(db, 'issue', [1], owner.id, ALLOWED_REACTIONS));
  console.log(
    `  one issue with ${POPULAR} reactions: reactionRows ${popularRows.p50.toFixed(2)} ms, ${popularRows.rows} rows; reactionCountRows ${popularCounted.p50.toFixed(2)} ms, ${popularCounted.rows} rows`,
  );
  await db.$executeRawUnsafe('DROP INDEX "Reaction_commentId_id_idx"');
  // On the read path, as reactionRows runs its statement.
  const before = await timed(() => readRows(db, 'Reaction', OLD_STATEMENT, [ids, ALLOWED_REACTIONS]));
  console.log(
    `  before 20261205141445 (no index, types in SQL): ${before.p50.toFixed(2)} ms, ${before.rows} rows; plan: ${await plan(oldSql, [...ids, ...ALLOWED_REACTIONS])}`,
  );
});
