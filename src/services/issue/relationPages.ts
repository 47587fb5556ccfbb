import type { DbLike, Models } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import { sql } from '../../db/sqlText.ts';
import { columnsOf } from '../../db/rowShape.ts';

/*
 * Relations of many issues on the read path (src/db/readPath.ts), each in one statement whatever the number of
 * issues, with a page per issue pushed into SQL (`ROW_NUMBER() OVER (PARTITION BY "issueId" …)`) instead of
 * loading every child and slicing in memory; labels and assignees, a few per issue, are read whole when they fit in
 * the pages and cut here (linkPages). Rows have Prisma's types. The caller has already applied the read policy to
 * the issues: these are the relations shown with a readable issue.
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

/**
 * A target row's link columns. The rows are handed out with them (nothing reads them as a label's or a user's): an
 * object rest leaving them out cost ~0.2 µs a row, for every label and assignee of a page of issues.
 */
type Link = { linkId: number; linkIssueId: number };

/** A label link row as Prisma returns `issue.labels` (the link's columns and its `label`). */
export type IssueLabelPageRow = Models.IssueLabel & { label: Models.Label };
/** An assignee link row as Prisma returns `issue.assignees`. */
export type IssueAssigneePageRow = Models.IssueAssignee & { assignee: Models.User };

/**
 * The rows of a page per issue among `rows` (every row of those issues, each issue's oldest first): the same rows a
 * window numbering each issue's rows would keep.
 */
function cutPages<R>(rows: readonly R[], page: PerIssuePage, issueOf: (row: R) => number): R[] {
  const seen = new Map<number, number>();
  const end = page.take === undefined ? Infinity : page.skip + page.take;
  return rows.filter((r) => {
    const issue = issueOf(r);
    const n = (seen.get(issue) ?? 0) + 1;
    seen.set(issue, n);
    return n > page.skip && n <= end;
  });
}

const linkIssueOf = (r: Link): number => r.linkIssueId;

/**
 * Each issue's rows of a link table oldest first (by link id), joined with the `target` rows they point to. An issue
 * has a few labels and assignees: the links of all the issues are read at once, at most one more than the pages
 * could hold, and the pages cut from them here, which costs SQLite a third of the window below (no sort per issue).
 * Only when that many are there (some issue has more than its page) does the window run after it.
 */
async function linkPages<M extends 'Label' | 'User'>(
  db: DbLike,
  link: { table: 'IssueLabel' | 'IssueAssignee'; key: 'labelId' | 'assigneeId'; target: M },
  issueIds: readonly number[],
  page: PerIssuePage,
  columns?: readonly string[],
): Promise<(Models.Prisma.TypeMap['model'][M]['payload']['scalars'] & Link)[]> {
  const list = columns ? columns.map((c) => `t."${c}"`).join(', ') : columnsOf(link.target, 't');
  const cap = page.take === undefined ? null : issueIds.length * (page.skip + page.take) + 1;
  const all = await readRows<M, Models.Prisma.TypeMap['model'][M]['payload']['scalars'] & Link>(
    db,
    link.target,
    sql`SELECT ${list}, k."id" AS "linkId", k."issueId" AS "linkIssueId" FROM "${link.table}" k
     JOIN "${link.target}" t ON t."id" = k."${link.key}" WHERE k."issueId" IN (?) ORDER BY k."id"${cap === null ? '' : ' LIMIT ?'}`,
    cap === null ? [issueIds] : [issueIds, cap],
  );
  if (cap === null || all.length < cap) return cutPages(all, page, linkIssueOf);
  const bounds = pageBounds(page);
  return readRows(
    db,
    link.target,
    sql`SELECT ${list}, k."linkId", k."linkIssueId" FROM (
       SELECT "id" AS "linkId", "issueId" AS "linkIssueId", "${link.key}" AS "targetId",
              ROW_NUMBER() OVER (PARTITION BY "issueId" ORDER BY "id") AS "rn"
       FROM "${link.table}" WHERE "issueId" IN (?)
     ) k JOIN "${link.target}" t ON t."id" = k."targetId" WHERE ${bounds.sql} ORDER BY k."linkIssueId", k."linkId"`,
    [issueIds, ...bounds.params],
  );
}

/**
 * Each issue's label links oldest first (the order of IssueLabel ids), with their labels: every column, or only
 * `columns` (the caller's fields read no other; the rest are absent from the rows).
 */
export async function issueLabelPages(
  db: DbLike,
  issueIds: readonly number[],
  page: PerIssuePage,
  columns?: readonly (keyof Models.Label)[],
): Promise<IssueLabelPageRow[]> {
  const rows = await linkPages(db, { table: 'IssueLabel', key: 'labelId', target: 'Label' }, issueIds, page, columns);
  return rows.map((label) => ({ id: label.linkId, issueId: label.linkIssueId, labelId: label.id, label }));
}

/** Each issue's assignee links oldest first, with their users (every column, or only `columns`). */
export async function issueAssigneePages(
  db: DbLike,
  issueIds: readonly number[],
  page: PerIssuePage,
  columns?: readonly (keyof Models.User)[],
): Promise<IssueAssigneePageRow[]> {
  const rows = await linkPages(db, { table: 'IssueAssignee', key: 'assigneeId', target: 'User' }, issueIds, page, columns);
  return rows.map((assignee) => ({ id: assignee.linkId, issueId: assignee.linkIssueId, assigneeId: assignee.id, assignee }));
}

/**
 * Each issue's comments of `type`, oldest first (by id): every column, or only `columns` (the caller's fields read
 * no other; the rest are absent from the rows).
 *
 * `rowsAtMost`, when the caller knows it, bounds how many comments of the type the issues have (their
 * `numComments` summed). When that is under twice the pages' rows, the comments are read whole, at most that twice
 * (LIMIT), and the pages cut here: a window numbering each issue's comments costs SQLite more than the rows it
 * saves reading (50 issues of 12 comments, pages of 10: 640 µs against 450 µs for all 600 rows, better-sqlite3).
 * A counter behind the rows (more there than it says) only makes the LIMIT bite, and the window runs after all.
 */
export async function issueCommentPages(
  db: DbLike,
  issueIds: readonly number[],
  type: Models.Comment['type'],
  page: PerIssuePage,
  columns?: readonly (keyof Models.Comment)[],
  rowsAtMost?: number,
): Promise<Models.Comment[]> {
  // Every row is of `type`: it is set on the rows, not read (the driver makes a string a row: ~0.2 µs each, SQLite).
  const read = columns?.filter((c) => c !== 'type');
  const setsType = !!read?.length && read.length < (columns?.length ?? 0);
  const list = read?.length ? read.map((c) => `c."${c}"`).join(', ') : 'c.*';
  const typed = (rows: Models.Comment[]): Models.Comment[] => {
    if (setsType) for (const r of rows) r.type = type;
    return rows;
  };
  const cap = page.take === undefined ? null : 2 * issueIds.length * (page.skip + page.take) + 1;
  if (cap === null || (rowsAtMost !== undefined && rowsAtMost < cap)) {
    const all = await readRows(
      db,
      'Comment',
      sql`SELECT ${list} FROM "Comment" c WHERE c."issueId" IN (?) AND c."type" = ? ORDER BY c."issueId", c."id"${cap === null ? '' : ' LIMIT ?'}`,
      cap === null ? [issueIds, type] : [issueIds, type, cap],
    );
    if (cap === null || all.length < cap) return typed(cutPages(all, page, (c) => c.issueId));
  }
  const bounds = pageBounds(page);
  const rows = await readRows(
    db,
    'Comment',
    // The window runs over the (issueId, type, id) index alone; only the page's rows are read.
    sql`SELECT ${list} FROM (
       SELECT "id" AS "pageId", ROW_NUMBER() OVER (PARTITION BY "issueId" ORDER BY "id") AS "rn" FROM "Comment"
       WHERE "issueId" IN (?) AND "type" = ?
     ) p JOIN "Comment" c ON c."id" = p."pageId" WHERE ${bounds.sql} ORDER BY c."issueId", c."id"`,
    [issueIds, type, ...bounds.params],
  );
  return typed(rows);
}

/** What reactions are on: issues themselves (not their comments), or comments. */
export type ReactionsOf = 'issue' | 'comment';

/**
 * Each target's rows by the index that leads with it: (issueId, commentId, id) and (commentId, id). `t` qualifies
 * the columns (`r.` in a join).
 */
const reactionWhere = (target: ReactionsOf, t = ''): string =>
  target === 'issue' ? sql`${t}"issueId" IN (?) AND ${t}"commentId" = 0` : sql`${t}"commentId" IN (?)`;

/**
 * The reactions of the given types on many issues or comments, oldest first per subject (`ids` are theirs). The
 * types are kept here, not in SQL: with `"type" IN (…)` in the statement, the planners may take the unique index
 * that leads with the type, which for comments (no index led by `commentId` until 20261205141445) meant reading
 * every reaction of each type in the table (SQLite), and on PostgreSQL it was still chosen over the new one. Rows of
 * other types are rare (a type the site allowed once).
 */
export async function reactionRows(
  db: DbLike,
  target: ReactionsOf,
  ids: readonly number[],
  types: readonly string[],
): Promise<Models.Reaction[]> {
  const key = target === 'issue' ? '"issueId"' : '"commentId"';
  const rows = await readRows(
    db,
    'Reaction',
    sql`SELECT * FROM "Reaction" WHERE ${reactionWhere(target)} ORDER BY ${key}, "createdAt", "id"`,
    [ids],
  );
  return rows.every((r) => types.includes(r.type)) ? rows : rows.filter((r) => types.includes(r.type));
}

/** One content's reactions on one subject, counted (reactionCountRows). */
export interface ReactionCountRow {
  subjectId: number;
  type: string;
  /** The first reaction's time (migrated ones included). */
  createdAt: Date;
  /** Reactions by a local user (migrated ones without a local account are not counted). */
  count: number;
  /** 1 when the viewer made one of them, else 0. */
  mine: number;
}

/**
 * Per subject and content, how many reactions have a local user, when the first was made and whether the viewer
 * made one: one statement over the same index as reactionRows, no reaction or user row leaving the database
 * (a popular issue's thousands of reactions are eight rows). The types are kept in JS, as reactionRows does.
 */
export async function reactionCountRows(
  db: DbLike,
  target: ReactionsOf,
  ids: readonly number[],
  viewerId: number | null,
  types: readonly string[],
): Promise<ReactionCountRow[]> {
  const key = target === 'issue' ? '"issueId"' : '"commentId"';
  const rows = await readRows<'Reaction', ReactionCountRow>(
    db,
    'Reaction',
    sql`SELECT r.${key} AS "subjectId", r."type", MIN(r."createdAt") AS "createdAt", CAST(COUNT(u."id") AS INTEGER) AS "count",
       MAX(CASE WHEN r."userId" = ? AND r."originalAuthorId" = 0 THEN 1 ELSE 0 END) AS "mine"
     FROM "Reaction" r LEFT JOIN "User" u ON u."id" = r."userId" AND r."originalAuthorId" = 0
     WHERE ${reactionWhere(target, 'r.')}
     GROUP BY r.${key}, r."type"`,
    [viewerId, ids],
  );
  return rows.filter((r) => types.includes(r.type));
}

/** The link tables an issue's relation counts come from, by relation name. */
const LINK_TABLES = { labels: 'IssueLabel', assignees: 'IssueAssignee' } as const;
/** A relation of an issue that issueRelationCounts can count. */
export type CountedIssueRelation = keyof typeof LINK_TABLES;

/**
 * Per issue, how many rows each named relation has (as Prisma's `_count`), in one statement: an indexed count
 * per issue and relation, never an aggregate over the whole table.
 */
export async function issueRelationCounts(
  db: DbLike,
  issueIds: readonly number[],
  relations: readonly CountedIssueRelation[],
): Promise<Map<number, Record<string, number>>> {
  if (issueIds.length === 0 || relations.length === 0) return new Map();
  const counts = relations.map((r) => `(SELECT CAST(COUNT(*) AS INTEGER) FROM "${LINK_TABLES[r]}" k WHERE k."issueId" = i."id") AS "${r}"`);
  const rows = await readRows<'Issue', Record<string, number>>(
    db,
    'Issue',
    sql`SELECT i."id", ${counts.join(', ')} FROM "Issue" i WHERE i."id" IN (?)`,
    [issueIds],
  );
  return new Map(rows.map(({ id, ...n }) => [id!, Object.fromEntries(relations.map((r) => [r, Number(n[r])]))]));
}
