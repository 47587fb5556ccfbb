// Counters moved by the hot writes, as raw statements: Prisma's `update … { increment }` ran the same statement
// behind a query plan and result mapping that cost more than the statement itself.
import { Prisma } from '../generated/sqlite/client.ts';
import type { DbTx, Models } from './client.ts';
import { executeSql, querySql } from './rawStatements.ts';
import { rowsOf } from './rowShape.ts';

/** Counts a new issue or pull request in its repository (and as closed when it starts closed), as Prisma's increment did. */
export async function countNewIssue(tx: DbTx, repoId: number, kind: { isPull: boolean; closed: boolean }): Promise<void> {
  const [all, closed] = kind.isPull ? ['"numPulls"', '"numClosedPulls"'] : ['"numIssues"', '"numClosedIssues"'];
  const set = kind.closed ? `${all} = ${all} + 1, ${closed} = ${closed} + 1` : `${all} = ${all} + 1`;
  await executeSql(tx, Prisma.sql`UPDATE "Repository" SET ${Prisma.raw(set)}, "updatedAt" = ${new Date()} WHERE "id" = ${repoId}`);
}

/** Counts a new comment on its issue; the issue's row after the change. */
export async function countNewComment(tx: DbTx, issueId: number): Promise<Models.Issue> {
  const rows = await querySql(
    tx,
    Prisma.sql`UPDATE "Issue" SET "numComments" = "numComments" + 1, "updatedAt" = ${new Date()} WHERE "id" = ${issueId} RETURNING *`,
  );
  const [issue] = rowsOf('Issue', rows);
  if (!issue) throw new Error(`countNewComment: no issue ${issueId}`);
  return issue;
}
