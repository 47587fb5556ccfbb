import type { Models } from '../../db/client.ts';
import { readRows, type Param } from '../../db/readPath.ts';
import { sql } from '../../db/sqlText.ts';
import type { ServiceContext } from '../context.ts';
import { readableRepoIds } from '../repo/visibility.ts';

/** Which issues of each repository, in which order, and which page of them. */
export interface RepoIssuePageInput {
  /** Pull requests (true) or issues (false). */
  isPull: boolean;
  /** Only closed (true) or open (false) ones; every one when undefined. */
  closed?: boolean;
  /** The order, ties broken by id in the same direction (as the GraphQL and REST lists order). */
  order: { column: 'createdAt' | 'updatedAt' | 'numComments'; direction: 'asc' | 'desc' };
  take: number;
  skip: number;
}

/** One repository's page, as SQL for both databases (a LIMIT per repository: the page reads its own rows only). */
function pageSql(input: RepoIssuePageInput, columns: string): { sql: string; params: (repoId: number) => Param[] } {
  const { column, direction } = input.order;
  const closed = input.closed === undefined ? '' : ' AND "isClosed" = ?';
  return {
    sql: sql`SELECT ${columns} FROM "Issue" WHERE "repoId" = ? AND "isPull" = ?${closed} ORDER BY "${column}" ${direction}, "id" ${direction} LIMIT ? OFFSET ?`,
    params: (repoId) => [repoId, input.isPull, ...(input.closed === undefined ? [] : [input.closed]), input.take, input.skip],
  };
}

/**
 * A page of the issues (or pull requests) of each repository in `repoIds` (every column, or only `columns`: the
 * caller reads no other, the rest are absent from the rows), on the read path, in one statement
 * whatever the number of repositories. The read policy of issues in its loaded form, as findIssueByIndex and
 * listIssues apply it: a repository's issues are listed when the viewer can read its issues unit (pull requests:
 * its pull requests unit), from the request's permission loader (readableRepoIds); none otherwise.
 */
export async function repoIssuePages(
  cx: ServiceContext,
  repoIds: readonly number[],
  input: RepoIssuePageInput,
  columns?: readonly (keyof Models.Issue)[],
): Promise<Models.Issue[]> {
  const visible = await readableRepoIds(
    cx,
    repoIds.map((id) => ({ id })),
    input.isPull ? 'PULL_REQUESTS' : 'ISSUES',
  );
  const readable = repoIds.filter((id) => visible.has(id));
  if (readable.length === 0 || input.take <= 0) return [];
  const page = pageSql(input, columns ? columns.map((c) => `"${c}"`).join(', ') : '*');
  if (readable.length === 1) return readRows(cx.db, 'Issue', page.sql, page.params(readable[0]!));
  const { column, direction } = input.order;
  return readRows(
    cx.db,
    'Issue',
    sql`${readable.map((_, i) => `SELECT * FROM (${page.sql}) p${i}`).join(' UNION ALL ')} ORDER BY "repoId", "${column}" ${direction}, "id" ${direction}`,
    readable.flatMap((id) => page.params(id)),
  );
}
