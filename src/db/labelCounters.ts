import { Prisma } from '../generated/sqlite/client.ts';
import type { DbLike } from './client.ts';
import { executeSql } from './rawStatements.ts';

/**
 * Moves the issue counters of the labels in `labelIds` by what one issue's change did to them: `issues` for links
 * made (+1) or removed (-1), `closed` when the issue is closed (+1 linked, -1 unlinked, 0 for an open issue;
 * a state change is shiftClosedCountersOfIssue). One statement whatever the number of labels, and its cost does not grow with how
 * many issues carry a label: the recount (refreshLabelCounters) reads every link of the label and its issue, 2 ms
 * at 10,000 issues and 14 ms at 50,000 on SQLite, 5 and 32 ms on PostgreSQL (bench/labelCounterScale.ts), inside
 * the write's transaction. An increment is also exact under concurrent writes on PostgreSQL, where two
 * transactions recounting one label each counted without the other's link. check_repo_stats (at start and daily)
 * recounts every label, as Gitea's does.
 */
export async function shiftLabelCounters(
  db: DbLike,
  labelIds: readonly number[],
  by: { issues: -1 | 0 | 1; closed: -1 | 0 | 1 },
): Promise<void> {
  const ids = [...new Set(labelIds)];
  if (!ids.length || (by.issues === 0 && by.closed === 0)) return;
  await executeSql(
    db,
    Prisma.sql`UPDATE "Label" SET "numIssues" = "numIssues" + ${by.issues}, "numClosedIssues" = "numClosedIssues" + ${by.closed},
    "updatedAt" = ${new Date()} WHERE "id" IN (${Prisma.join(ids)})`,
  );
}

/**
 * Moves the closed counters of an issue's labels when the issue closed (`closed`) or reopened, in one statement
 * with the labels found inside it (the issue's links as the statement sees them): the state changes of editIssue,
 * of the system (commit keywords) and of a merge.
 */
export async function shiftClosedCountersOfIssue(db: DbLike, issueId: number, closed: boolean): Promise<void> {
  await executeSql(
    db,
    Prisma.sql`UPDATE "Label" SET "numClosedIssues" = "numClosedIssues" + ${closed ? 1 : -1}, "updatedAt" = ${new Date()}
    WHERE "id" IN (SELECT "labelId" FROM "IssueLabel" WHERE "issueId" = ${issueId})`,
  );
}

/**
 * Recomputes the issue counters (open and closed issues carrying it) of each label in `labelIds` from IssueLabel
 * rows: one statement whatever the number of labels (Prisma would need two counts and an update per label). For
 * changes whose effect on each label is not one issue's (a label edited, as Gitea recounts then; links removed in
 * bulk; imports); a change of one issue shifts the counters instead (shiftLabelCounters).
 */
export async function refreshLabelCounters(db: DbLike, labelIds: readonly number[]): Promise<void> {
  const ids = [...new Set(labelIds)];
  if (!ids.length) return;
  await executeSql(
    db,
    Prisma.sql`UPDATE "Label" SET
    "numIssues" = (SELECT COUNT(*) FROM "IssueLabel" il WHERE il."labelId" = "Label"."id"),
    "numClosedIssues" = (SELECT COUNT(*) FROM "IssueLabel" il JOIN "Issue" i ON i."id" = il."issueId"
      WHERE il."labelId" = "Label"."id" AND i."isClosed" = ${true}),
    "updatedAt" = ${new Date()}
    WHERE "id" IN (${Prisma.join(ids)})`,
  );
}

/**
 * The counters of the labels linked to one issue (`added`) and unlinked from it (`removed`, `deleted` rows deleted
 * in all), in one statement: +1/-1 issues, and closed ones too when the issue is closed. When fewer links were
 * deleted than asked (a concurrent transaction on PostgreSQL removed some first, and which ones the count does not
 * say), the removed labels are recounted instead.
 */
export async function relinkedToIssue(
  db: DbLike,
  change: { added: readonly number[]; removed: readonly number[]; deleted: number; isClosed: boolean },
): Promise<void> {
  const added = [...new Set(change.added)];
  const removed = [...new Set(change.removed)];
  const closed = change.isClosed ? 1 : 0;
  if (removed.length && change.deleted !== removed.length) {
    await shiftLabelCounters(db, added, { issues: 1, closed });
    await refreshLabelCounters(db, removed);
    return;
  }
  if (!removed.length) return shiftLabelCounters(db, added, { issues: 1, closed });
  if (!added.length) return shiftLabelCounters(db, removed, { issues: -1, closed: change.isClosed ? -1 : 0 });
  const sign = Prisma.sql`(CASE WHEN "id" IN (${Prisma.join(added)}) THEN 1 ELSE -1 END)`;
  await executeSql(
    db,
    Prisma.sql`UPDATE "Label" SET "numIssues" = "numIssues" + ${sign}, "numClosedIssues" = "numClosedIssues" + ${closed} * ${sign},
    "updatedAt" = ${new Date()} WHERE "id" IN (${Prisma.join([...added, ...removed])})`,
  );
}
