import type { DbLike, Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import { columnsOf } from '../../db/rowShape.ts';

/*
 * Relations of many issues on the read path (src/db/readPath.ts), each in one statement whatever the number of
 * issues, with a page per issue pushed into SQL (`ROW_NUMBER() OVER (PARTITION BY "issueId" …)`) instead of
 * loading every child and slicing in memory. Rows have Prisma's types. The caller has already applied the read
 * policy to the issues: these are the relations shown with a readable issue.
 */

/** A page of each issue's children: `skip` rows skipped, at most `take` kept (all when undefined). */
export interface PerIssuePage {
  take?: number;
  skip: number;
}

/** The row-number bounds of a page, as SQL and parameters. */
function pageBounds(page: PerIssuePage): { sql: string; params: number[] } {
  return page.take === undefined
    ? { sql: '"rn" > ?', params: [page.skip] }
    : { sql: '"rn" > ? AND "rn" <= ?', params: [page.skip, page.skip + page.take] };
}

type Link = { linkId: number; linkIssueId: number };

/** A label link row as Prisma returns `issue.labels` (the link's columns and its `label`). */
export type IssueLabelPageRow = Models.IssueLabel & { label: Models.Label };
/** An assignee link row as Prisma returns `issue.assignees`. */
export type IssueAssigneePageRow = Models.IssueAssignee & { assignee: Models.User };

/** Each issue's label links oldest first (the order of IssueLabel ids), with their labels. */
export async function issueLabelPages(db: DbLike, issueIds: readonly number[], page: PerIssuePage): Promise<IssueLabelPageRow[]> {
  const bounds = pageBounds(page);
  const rows = await readRows<'Label', Models.Label & Link>(
    db,
    'Label',
    `SELECT ${columnsOf('Label', 'l')}, il."linkId", il."linkIssueId" FROM (
       SELECT "id" AS "linkId", "issueId" AS "linkIssueId", "labelId", ROW_NUMBER() OVER (PARTITION BY "issueId" ORDER BY "id") AS "rn"
       FROM "IssueLabel" WHERE "issueId" IN (?)
     ) il JOIN "Label" l ON l."id" = il."labelId" WHERE ${bounds.sql} ORDER BY il."linkIssueId", il."linkId"`,
    [issueIds, ...bounds.params],
  );
  return rows.map(({ linkId, linkIssueId, ...label }) => ({ id: linkId, issueId: linkIssueId, labelId: label.id, label }));
}

/** Each issue's assignee links oldest first, with their users. */
export async function issueAssigneePages(db: DbLike, issueIds: readonly number[], page: PerIssuePage): Promise<IssueAssigneePageRow[]> {
  const bounds = pageBounds(page);
  const rows = await readRows<'User', Models.User & Link>(
    db,
    'User',
    `SELECT ${columnsOf('User', 'u')}, a."linkId", a."linkIssueId" FROM (
       SELECT "id" AS "linkId", "issueId" AS "linkIssueId", "assigneeId", ROW_NUMBER() OVER (PARTITION BY "issueId" ORDER BY "id") AS "rn"
       FROM "IssueAssignee" WHERE "issueId" IN (?)
     ) a JOIN "User" u ON u."id" = a."assigneeId" WHERE ${bounds.sql} ORDER BY a."linkIssueId", a."linkId"`,
    [issueIds, ...bounds.params],
  );
  return rows.map(({ linkId, linkIssueId, ...assignee }) => ({ id: linkId, issueId: linkIssueId, assigneeId: assignee.id, assignee }));
}

/** Each issue's comments of `type`, oldest first (by id). */
export async function issueCommentPages(
  db: DbLike,
  issueIds: readonly number[],
  type: Models.Comment['type'],
  page: PerIssuePage,
): Promise<Models.Comment[]> {
  const bounds = pageBounds(page);
  return readRows(
    db,
    'Comment',
    // The window runs over the (issueId, type, id) index alone; only the page's rows are read in full.
    `SELECT c.* FROM (
       SELECT "id" AS "pageId", ROW_NUMBER() OVER (PARTITION BY "issueId" ORDER BY "id") AS "rn" FROM "Comment"
       WHERE "issueId" IN (?) AND "type" = ?
     ) p JOIN "Comment" c ON c."id" = p."pageId" WHERE ${bounds.sql} ORDER BY c."issueId", c."id"`,
    [issueIds, type, ...bounds.params],
  );
}

/** The reactions on the issues themselves (not their comments) of the given types, oldest first. */
export function issueReactionRows(db: DbLike, issueIds: readonly number[], types: readonly string[]): Promise<Models.Reaction[]> {
  return readRows(
    db,
    'Reaction',
    'SELECT * FROM "Reaction" WHERE "issueId" IN (?) AND "commentId" = 0 AND "type" IN (?) ORDER BY "issueId", "createdAt", "id"',
    [issueIds, types],
  );
}

/** Users by id (every column, as Prisma's `include: { user: true }`); absent ids are missing from the result. */
export function usersById(db: DbLike, ids: readonly number[]): Promise<Models.User[]> {
  return ids.length ? readRows(db, 'User', 'SELECT * FROM "User" WHERE "id" IN (?)', [ids]) : Promise.resolve([]);
}
