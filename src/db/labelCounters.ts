import { Prisma } from '../generated/sqlite/client.ts';
import type { DbLike } from './client.ts';
import { executeSql } from './rawStatements.ts';

/**
 * Recomputes the issue counters (open and closed issues carrying it) of each label in `labelIds` from IssueLabel
 * rows: one statement whatever the number of labels (Prisma would need two counts and an update per label).
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
