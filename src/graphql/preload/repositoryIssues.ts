import type { Models } from '../../db/client.ts';
import { loadReactionCounts, loadReactions } from '../../services/issue/reaction.ts';
import { repoIssuePages, type RepoIssuePageInput } from '../../services/issue/repoIssuePages.ts';
import { prunedColumns, type FieldColumns } from './columns.ts';
import { attachUsers, isRecord, type Fill, type Preloader, type Preloaders } from './plan.ts';
import { pageToLoad } from './preloadedPages.ts';
import { reactorsCountedOnly } from './reactionCounts.ts';
import { groupBy } from '../../groupBy.ts';

/**
 * Repository.issues served below Prisma (plan.ts): a first page of a repository's issues, open, closed or both,
 * in any of the list's orders, with nothing but scalars left in its query once the issue's own relations have
 * been taken by their preloaders. The connection registers the `where` it plans (plannedIssueList), so this
 * preloader recognises its own query by identity and knows the list filter it was built from; any other query
 * (another filter, a cursor, `last:`, a relation no preloader took) stays with Prisma.
 */

type Args = Record<string, unknown>;
type IssueWhere = Models.Prisma.IssueWhereInput;
type IssueOrder = Models.Prisma.IssueOrderByWithRelationInput[];

interface Planned {
  listWhere: IssueWhere;
  orderBy: IssueOrder;
}
const planned = new WeakMap<object, Planned>();

/**
 * The Prisma query of a repository's issue list: issues (not pull requests) the viewer may read (`readWhere`, the
 * read policy as a filter), filtered by `listWhere` and ordered by `orderBy`. Its `where` is remembered, so the
 * preloader can serve the same list on the read path.
 */
export function plannedIssueList(
  readWhere: IssueWhere,
  listWhere: IssueWhere,
  orderBy: IssueOrder,
): { where: IssueWhere; orderBy: IssueOrder } {
  const where = { AND: [{ isPull: false }, readWhere, listWhere] };
  planned.set(where, { listWhere, orderBy });
  return { where, orderBy };
}

/**
 * The open/closed filter of a list filter that holds nothing else: `undefined` for both, 'none' when it asks for
 * both states in two places (states: [OPEN], filterBy: { states: [CLOSED] }: no issue is both), null when it holds
 * anything else.
 */
function closedOf(listWhere: IssueWhere): boolean | undefined | 'none' | null {
  const and =
    Object.keys(listWhere).length === 0 ? [] : Array.isArray(listWhere.AND) && Object.keys(listWhere).length === 1 ? listWhere.AND : null;
  if (!and) return null;
  const states = new Set<boolean>();
  for (const w of and) {
    if (!isRecord(w) || Object.keys(w).length !== 1 || typeof w.isClosed !== 'boolean') return null;
    states.add(w.isClosed);
  }
  return states.size === 0 ? undefined : states.size === 1 ? [...states][0]! : 'none';
}

/** The list order as a column and direction, when it is one of issueOrderBy's. */
function orderOf(orderBy: IssueOrder): RepoIssuePageInput['order'] | null {
  if (orderBy.length !== 2 || !isRecord(orderBy[0]) || !isRecord(orderBy[1])) return null;
  const [first] = Object.entries(orderBy[0]);
  if (!first) return null;
  const [column, direction] = first;
  if (column !== 'createdAt' && column !== 'updatedAt' && column !== 'numComments') return null;
  if ((direction !== 'asc' && direction !== 'desc') || orderBy[1].id !== direction || Object.keys(orderBy[0]).length !== 1) return null;
  return { column, direction };
}

/**
 * The columns each field of Issue reads (see preload/issue.ts COMMENT_FIELD_COLUMNS). The relations the issue
 * preloaders attach (labels, assignees, reactions, their counts) read only the id; comments also the issue's count
 * of them, which chooses how they are read (preload/issue.ts commentsAtMost); the keys are what the fills join on
 * and the list groups by.
 */
export const ISSUE_FIELD_COLUMNS: FieldColumns<Models.Issue> = {
  __typename: [],
  id: [],
  databaseId: [],
  number: ['index'],
  title: ['title'],
  body: ['content'],
  state: ['isClosed'],
  closed: ['isClosed'],
  locked: ['isLocked'],
  isPullRequest: ['isPull'],
  author: [],
  authorAssociation: ['originalAuthorId'],
  commentCount: ['numComments'],
  contentVersion: ['contentVersion'],
  dueOn: ['deadlineAt'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  closedAt: ['closedAt'],
  labels: [],
  assignees: [],
  comments: ['numComments'],
  reactionGroups: [],
};
const ISSUE_KEYS: readonly (keyof Models.Issue)[] = ['id', 'repoId', 'index', 'isPull', 'posterId'];

/** Whether the relation's include/select asks for nothing beyond the issue's scalars. */
function scalarsOnly(args: Args): boolean {
  if (args.select !== undefined) return false;
  return args.include === undefined || (isRecord(args.include) && Object.values(args.include).every((v) => !v));
}

const issues: Preloader = (args, selected) => {
  if (!isRecord(args) || !Object.keys(args).every((k) => ['where', 'orderBy', 'take', 'skip', 'include'].includes(k))) return null;
  const plan = isRecord(args.where) ? planned.get(args.where) : undefined;
  if (!plan || args.orderBy !== plan.orderBy || !scalarsOnly(args)) return null;
  const { take, skip = 0 } = args;
  if (!Number.isSafeInteger(take) || (take as number) < 0 || !Number.isSafeInteger(skip) || (skip as number) < 0) return null;
  const closed = closedOf(plan.listWhere);
  const order = orderOf(plan.orderBy);
  if (closed === null || !order) return null;
  const input: RepoIssuePageInput =
    closed === 'none'
      ? { isPull: false, order, take: 0, skip: 0 }
      : { isPull: false, closed, order, ...pageToLoad({ take: take as number, skip: skip as number }, selected, 'IssueConnection') };
  // Issue.author and Issue.reactionGroups are plain fields (types/issue.ts, types/reaction.ts): they read
  // the poster and the reactions attached here: the reactions' rows, or their groups counted in SQL when the
  // operation reads no reactor (reactionCounts.ts).
  const withPosters = selected('Issue').has('author');
  const withReactions = selected('Issue').has('reactionGroups');
  const reactionsCounted = withReactions && reactorsCountedOnly(selected);
  const columns = prunedColumns(selected, 'Issue', ISSUE_FIELD_COLUMNS, ISSUE_KEYS);
  const fill: Fill = async (cx, parents, users, defer) => {
    const rows = await repoIssuePages(cx, [...new Set(parents.map((p) => p.id as number))], input, columns);
    const ids = rows.map((r) => r.id);
    const withRelations = rows as (Models.Issue & { reactions?: unknown; reactionGroups?: unknown })[];
    const byRepo = groupBy(rows, (r) => r.repoId);
    for (const p of parents) p.issues = byRepo.get(p.id as number) ?? [];
    // The posters and reactions are the issues' own fields, read by no fill below: they load beside those fills.
    if (withPosters) defer(attachUsers(rows as unknown as Record<string, unknown>[], 'posterId', 'poster', users));
    if (withReactions)
      defer(
        reactionsCounted
          ? loadReactionCounts(cx, 'issue', ids).then((groups) => {
              for (const r of withRelations) r.reactionGroups = groups.get(r.id);
            })
          : loadReactions(cx, 'issue', ids).then((reactions) => {
              for (const r of withRelations) r.reactions = reactions.get(r.id) ?? [];
            }),
      );
  };
  return fill;
};

/** The preloader of a repository's issue list. */
export const REPOSITORY_PRELOADERS: Preloaders = { Repository: { issues } };
