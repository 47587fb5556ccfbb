import type { Models } from '../../db/client.ts';
import * as pages from '../../services/issue/relationPages.ts';
import { countedInNumComments } from '../../services/issue/comment.ts';
import { attachUsers, isRecord, targetOf, type Fill, type Preloader, type Preloaders } from './plan.ts';
import { prunedColumns, type FieldColumns } from './columns.ts';
import { groupBy } from '../../groupBy.ts';
import { pageToLoad, recordCounts, recordPage, type PreloadedPageField } from './preloadedPages.ts';

/**
 * The hot relations of an issue served below Prisma (plan.ts): labels, assignees and comments (a page per issue
 * in SQL), with their users. (The poster and the reactions are attached by the issue list, preload/
 * repositoryIssues.ts, for the plain fields Issue.author and Issue.reactionGroups.) Each preloader recognises
 * exactly the arguments the graph's fields plan (Issue.labels/assignees/comments, first page only:
 * no cursor) and loads what Prisma would for them; anything else (a cursor, a filter, a nested relation below
 * a user) is left to Prisma.
 */

type Row = Record<string, unknown>;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether `args` of a relation to `model` loads only its scalars (`true`, or a select/include of scalars). */
function scalarsOnly(model: string, args: unknown): boolean {
  if (args === true) return true;
  if (!isRecord(args) || !Object.keys(args).every((k) => k === 'select' || k === 'include')) return false;
  return [args.select, args.include].every(
    (s) => s === undefined || (isRecord(s) && Object.entries(s).every(([f, v]) => v === true && !targetOf(model, f))),
  );
}

/**
 * The arguments of a to-many relation when they are a first page in id order with only scalars and the
 * `nested` relations (each loading only scalars): its page, `where` and nested relations; else null.
 */
function firstPage(
  model: string,
  args: unknown,
  nested: readonly string[],
): { page: pages.PerIssuePage; where: unknown; relations: Set<string> } | null {
  if (!isRecord(args)) return null;
  if (!Object.keys(args).every((k) => ['where', 'orderBy', 'take', 'skip', 'select', 'include'].includes(k))) return null;
  if (!same(args.orderBy, { id: 'asc' }) && !same(args.orderBy, [{ id: 'asc' }])) return null;
  const { take, skip = 0 } = args;
  if (take !== undefined && !(Number.isSafeInteger(take) && (take as number) >= 0)) return null;
  if (!(Number.isSafeInteger(skip) && (skip as number) >= 0)) return null;
  const relations = new Set<string>();
  for (const selection of [args.select, args.include]) {
    if (selection === undefined) continue;
    if (!isRecord(selection)) return null;
    for (const [field, v] of Object.entries(selection)) {
      const target = targetOf(model, field);
      if (!target) {
        if (v !== true) return null;
      } else if (nested.includes(field) && scalarsOnly(target, v)) relations.add(field);
      else if (v !== false) return null;
    }
  }
  return { page: { take: take as number | undefined, skip: skip as number }, where: args.where, relations };
}

const idsOf = (parents: Row[]): number[] => [...new Set(parents.map((p) => p.id as number))];

/**
 * How many comments of `type` the issues have at most, when their rows say (`numComments`, loaded with the issues
 * when an operation reads their comments: repositoryIssues.ts ISSUE_FIELD_COLUMNS): each issue's counted once.
 */
function commentsAtMost(parents: Row[], type: Models.Comment['type']): number | undefined {
  if (!countedInNumComments(type)) return undefined;
  const counts = new Map<number, number>();
  for (const p of parents) {
    if (typeof p.numComments !== 'number') return undefined;
    counts.set(p.id as number, p.numComments);
  }
  let sum = 0;
  for (const n of counts.values()) sum += n;
  return sum;
}

/** Sets `parents[i][name]` to the rows whose `issueId` is the parent's id (in the rows' order). */
function attach(parents: Row[], name: string, rows: readonly { issueId: number }[]): void {
  const byIssue = groupBy(rows, (r) => r.issueId);
  for (const p of parents) p[name] = byIssue.get(p.id as number) ?? [];
}

/**
 * The columns each field of Label reads (see COMMENT_FIELD_COLUMNS): the keys are always loaded, orgId for the
 * token read scope of organization labels.
 */
export const LABEL_FIELD_COLUMNS: FieldColumns<Models.Label> = {
  __typename: [],
  id: [],
  databaseId: [],
  name: ['name'],
  color: ['color'],
  description: ['description'],
  isExclusive: ['exclusive'],
  exclusiveScope: ['name', 'exclusive'],
  isArchived: ['archivedAt'],
  archivedAt: ['archivedAt'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
};
const LABEL_KEYS: readonly (keyof Models.Label)[] = ['id', 'repoId', 'orgId'];

/** The columns each field of User reads, for assignees (the private fields, which depend on the viewer, load whole rows). */
export const USER_FIELD_COLUMNS: FieldColumns<Models.User> = {
  __typename: [],
  id: [],
  databaseId: [],
  login: ['name'],
  name: ['fullName'],
  url: ['name'],
  isViewer: [],
  location: ['location'],
  websiteUrl: ['website'],
  bio: ['description'],
  avatarUrl: ['email', 'avatar'],
  visibility: ['visibility'],
  isRestricted: ['isRestricted'],
  followersCount: ['numFollowers'],
  followingCount: ['numFollowing'],
  starredRepositoriesCount: ['numStars'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
};
const USER_KEYS: readonly (keyof Models.User)[] = ['id', 'name', 'type'];

const labels: Preloader = (args, selected) => {
  const plan = firstPage('IssueLabel', args, ['label']);
  if (!plan || plan.where !== undefined) return null;
  const columns = prunedColumns(selected, 'Label', LABEL_FIELD_COLUMNS, LABEL_KEYS);
  const load = pageToLoad(plan.page, selected, 'LabelConnection');
  return async (cx, parents) => {
    attach(parents, 'labels', await pages.issueLabelPages(cx.db, idsOf(parents), load, columns));
    recordPage(parents, 'labels', plan.page);
  };
};

const assignees: Preloader = (args, selected) => {
  const plan = firstPage('IssueAssignee', args, ['assignee']);
  if (!plan || plan.where !== undefined) return null;
  const columns = prunedColumns(selected, 'User', USER_FIELD_COLUMNS, USER_KEYS);
  const load = pageToLoad(plan.page, selected, 'UserConnection');
  return async (cx, parents) => {
    attach(parents, 'assignees', await pages.issueAssigneePages(cx.db, idsOf(parents), load, columns));
    recordPage(parents, 'assignees', plan.page);
  };
};

type CommentColumn = keyof Models.Comment;

/**
 * The columns each field of IssueComment reads (its resolver's, plugin-prisma's cursor and the relations' keys
 * are always loaded: COMMENT_KEYS). A field missing here (added later, or reading more than a column or two) makes
 * the comments load whole; test/graphql/preloadedRelations.test.ts checks every entry against a whole row.
 */
export const COMMENT_FIELD_COLUMNS: FieldColumns<Models.Comment> = {
  __typename: [],
  id: [],
  databaseId: [],
  body: ['content'],
  author: [],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  lastEditedAt: ['contentVersion', 'updatedAt'],
  includesCreatedEdit: ['contentVersion'],
  isMinimized: [],
  minimizedReason: [],
  authorAssociation: ['originalAuthorId'],
  viewerDidAuthor: [],
};
const COMMENT_KEYS: readonly CommentColumn[] = ['id', 'type', 'issueId', 'posterId'];

const comments: Preloader = (args, selected) => {
  const plan = firstPage('Comment', args, ['poster']);
  const where = plan?.where;
  if (!plan || !isRecord(where) || Object.keys(where).length !== 1 || typeof where.type !== 'string') return null;
  const type = where.type as Models.Comment['type'];
  const columns = prunedColumns(selected, 'IssueComment', COMMENT_FIELD_COLUMNS, COMMENT_KEYS);
  const withPosters = plan.relations.has('poster') || selected('IssueComment').has('author');
  const load = pageToLoad(plan.page, selected, 'IssueCommentConnection');
  const fill: Fill = async (cx, parents, users) => {
    const rows = await pages.issueCommentPages(cx.db, idsOf(parents), type, load, columns, commentsAtMost(parents, type));
    // IssueComment.author is a plain field (types/issueComment.ts): it reads the poster attached here.
    if (withPosters) await attachUsers(rows as unknown as Row[], 'posterId', 'poster', users);
    attach(parents, 'comments', rows);
    recordPage(parents, 'comments', { ...plan.page, type });
  };
  return fill;
};

/** Per counted relation, the connection type whose `totalCount` reads the count (types/issue.ts). */
const COUNTED_BY: Record<pages.CountedIssueRelation, string> = { labels: 'LabelConnection', assignees: 'UserConnection' };
const isCounted = (r: string): r is pages.CountedIssueRelation => Object.hasOwn(COUNTED_BY, r);

/**
 * The issue's `_count` of labels and assignees (the connections' totalCount), counted per issue on the read path.
 * A relation whose connection type has no `totalCount` anywhere in the operation is not counted (nothing would
 * read it): its count stays absent, and a query selecting no count costs no statement.
 */
const counts: Preloader = (args, selected) => {
  const select = isRecord(args) && same(Object.keys(args), ['select']) ? args.select : null;
  if (!isRecord(select)) return null;
  const relations = Object.keys(select);
  if (!relations.every((r) => isCounted(r) && select[r] === true)) return null;
  const counted = (relations as pages.CountedIssueRelation[]).filter((r) => selected(COUNTED_BY[r]).has('totalCount'));
  return async (cx, parents) => {
    const byIssue = counted.length > 0 ? await pages.issueRelationCounts(cx.db, idsOf(parents), counted) : new Map();
    const none = Object.fromEntries(counted.map((r) => [r, 0]));
    for (const p of parents) p._count = byIssue.get(p.id as number) ?? { ...none };
    recordCounts(parents, counted);
  };
};

/** The preloaders of an issue's hot relations. */
export const ISSUE_PRELOADERS: Preloaders = { Issue: { labels, assignees, comments, _count: counts } };

/**
 * The fields that answer the pages these preloaders attach directly (preloadedPages.ts): the first page in id
 * order, which is what each plans without `orderBy`.
 */
export const ISSUE_PAGE_FIELDS: readonly PreloadedPageField<never>[] = [
  { coordinate: 'Issue.labels', relation: 'labels', servedArgs: (a) => a.orderBy == null, nodeOf: (r: pages.IssueLabelPageRow) => r.label },
  { coordinate: 'Issue.assignees', relation: 'assignees', servedArgs: () => true, nodeOf: (r: pages.IssueAssigneePageRow) => r.assignee },
  {
    coordinate: 'Issue.comments',
    relation: 'comments',
    type: 'COMMENT',
    servedArgs: (a) => a.orderBy == null,
    nodeOf: (r: Models.Comment) => r,
  },
];
