import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import { milestoneReadWhere } from '../../services/milestone/visibility.ts';
import { plannedIssueList } from '../preload/repositoryIssues.ts';
import { subscribedIssuesWhere } from '../../services/watch/issueWatch.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { dbId } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { sharedConnection } from '../sharedConnection.ts';
import { bothNodePaths, withLabelScalars, withUserScalars } from '../selection.ts';
import { carriedLabelsOrderBy, LabelConnectionRef, LabelOrderInput, LabelRef } from './label.ts';
import { OrderDirectionEnum } from './orderInput.ts';
import { RepositoryRef } from './repository.ts';
import { UserConnectionRef, UserRef, userNamed } from './user.ts';
import { attached } from '../preload/plan.ts';
import { ActorRef } from './repositoryOwner.ts';
import { AssignableRef, ClosableRef, LabelableRef, LockableRef, ReactableRef, SubscribableRef } from './githubInterfaces.ts';
import { withTotal } from '../totalCount.ts';

export const IssueStateEnum = builder.enumType('IssueState', {
  description: 'Whether an issue is open or closed.',
  values: { OPEN: { value: 'OPEN' }, CLOSED: { value: 'CLOSED' } } as const,
});

/** GitHub's MilestoneState. */
export const MilestoneStateEnum = builder.enumType('MilestoneState', {
  description: 'The possible states of a milestone.',
  values: { OPEN: { value: 'OPEN' }, CLOSED: { value: 'CLOSED' } } as const,
});

/** A milestone; node(id:) answers only milestones the viewer may read (milestoneReadWhere). */
export const MilestoneRef = builder.prismaNode('Milestone', {
  description: 'A milestone of a repository.',
  interfaces: [ClosableRef],
  id: { field: 'id' },
  ...filteredBy('milestoneReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [milestoneReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    title: t.exposeString('name'),
    description: t.string({ nullable: true, resolve: (m) => m.content || null }),
    state: t.field({ type: MilestoneStateEnum, resolve: (m) => (m.isClosed ? 'CLOSED' : 'OPEN') }),
    dueOn: t.expose('deadlineAt', { type: 'DateTime', nullable: true }),
    openIssueCount: t.int({ resolve: (m) => m.numIssues - m.numClosedIssues }),
    closedIssueCount: t.exposeInt('numClosedIssues'),
  }),
});
tokenReadScope(MilestoneRef, 'issue');

const IssueOrderFieldEnum = builder.enumType('IssueOrderField', {
  description: 'Properties by which issue connections can be ordered.',
  values: {
    CREATED_AT: { value: 'CREATED_AT', description: 'Order issues by creation time.' },
    UPDATED_AT: { value: 'UPDATED_AT', description: 'Order issues by update time.' },
    COMMENTS: { value: 'COMMENTS', description: 'Order issues by comment count.' },
  } as const,
});

/** GitHub's IssueOrder, for every issue list (Repository.issues, Label.issues). */
export const IssueOrderInput = builder.inputType('IssueOrder', {
  description: 'Ways in which lists of issues can be ordered upon return.',
  fields: (t) => ({
    field: t.field({ type: IssueOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
  }),
});

/** GitHub's IssueFilters (the subset Forgegraph can answer); absent fields do not filter. */
export const IssueFiltersInput = builder.inputType('IssueFilters', {
  description: 'Ways in which to filter lists of issues.',
  fields: (t) => ({
    assignee: t.string({ description: 'Issues assigned to this login; `null` for issues with no assignee, `*` for issues with any.' }),
    createdBy: t.string({ description: 'Issues opened by this login.' }),
    labels: t.stringList({ description: 'Issues carrying every one of these label names.' }),
    mentioned: t.string({ description: 'Issues that mention this login.' }),
    milestone: t.string({
      description:
        "Issues in the milestone with this database id (GitHub's `milestone`); `none` for issues without a milestone, `*` for issues in any.",
    }),
    milestoneNumber: t.string({
      description:
        'Issues in the milestone with this database id (Gitea milestones have no number); `null` for issues without a milestone, `*` for issues in any.',
    }),
    since: t.field({ type: 'DateTime', description: 'Issues updated at or after this time.' }),
    states: t.field({ type: [IssueStateEnum], description: 'Issues in these states.' }),
    viewerSubscribed: t.boolean({
      defaultValue: false,
      description: 'Only issues the viewer is subscribed to (none for an anonymous viewer), as GET /repos/issues/search?subscribed=true.',
    }),
  }),
});

type IssueWhere = Models.Prisma.IssueWhereInput;
type IssueListArgs = {
  states?: readonly ('OPEN' | 'CLOSED')[] | null;
  labels?: readonly string[] | null;
  filterBy?: {
    assignee?: string | null;
    createdBy?: string | null;
    labels?: readonly string[] | null;
    mentioned?: string | null;
    milestone?: string | null;
    milestoneNumber?: string | null;
    since?: Date | null;
    states?: readonly ('OPEN' | 'CLOSED')[] | null;
    viewerSubscribed?: boolean | null;
  } | null;
};

function statesWhere(states: readonly ('OPEN' | 'CLOSED')[] | null | undefined): IssueWhere[] {
  const closed = new Set((states ?? []).map((s) => s === 'CLOSED'));
  const [only] = closed;
  return closed.size === 1 && only !== undefined ? [{ isClosed: only }] : [];
}

const labelsWhere = (names: readonly string[] | null | undefined): IssueWhere[] =>
  (names ?? []).map((name) => ({ labels: { some: { label: { name } } } }));

const byLogin = (login: string) => ({ lowerName: login.toLowerCase() });

/** Issues in the milestone with this database id, or in any (`*`); anything else names no milestone. */
const milestoneWhere = (id: string): IssueWhere =>
  id === '*' ? { milestoneId: { not: null } } : { milestoneId: /^\d{1,10}$/.test(id) ? dbId(id) || -1 : -1 };

/**
 * The Prisma filter of an issue list's `states`, `labels` and `filterBy` (GitHub's semantics: every label
 * named must be carried, an unknown label or login matches nothing). Pure where clauses, so a page costs the
 * same statements whatever it holds.
 */
export function issueListWhere(args: IssueListArgs, viewerId: number | undefined): IssueWhere {
  const f = args.filterBy ?? {};
  const and: IssueWhere[] = [...statesWhere(args.states), ...statesWhere(f.states), ...labelsWhere(args.labels), ...labelsWhere(f.labels)];
  if (f.assignee === null) and.push({ assignees: { none: {} } });
  else if (f.assignee === '*') and.push({ assignees: { some: {} } });
  else if (f.assignee !== undefined) and.push({ assignees: { some: { assignee: byLogin(f.assignee) } } });
  if (f.createdBy != null) and.push({ poster: byLogin(f.createdBy) });
  if (f.mentioned != null) and.push({ issueUsers: { some: { isMentioned: true, user: byLogin(f.mentioned) } } });
  if (f.milestoneNumber === null) and.push({ milestoneId: null });
  else if (f.milestoneNumber !== undefined) and.push(milestoneWhere(f.milestoneNumber));
  if (f.milestone === 'none') and.push({ milestoneId: null });
  else if (f.milestone != null) and.push(milestoneWhere(f.milestone));
  if (f.since != null) and.push({ updatedAt: { gte: f.since } });
  if (f.viewerSubscribed) and.push(viewerId === undefined ? { id: -1 } : subscribedIssuesWhere(viewerId));
  return and.length ? { AND: and } : {};
}

/** The Prisma order of an IssueOrder (GitHub's default: newest first), ties broken by id. */
export function issueOrderBy(
  order: { field: 'CREATED_AT' | 'UPDATED_AT' | 'COMMENTS'; direction: 'ASC' | 'DESC' } | null | undefined,
): Models.Prisma.IssueOrderByWithRelationInput[] {
  const dir = order?.direction === 'ASC' ? 'asc' : 'desc';
  switch (order?.field) {
    case 'UPDATED_AT':
      return [{ updatedAt: dir }, { id: dir }];
    case 'COMMENTS':
      return [{ numComments: dir }, { id: dir }];
    default:
      return [{ createdAt: dir }, { id: dir }];
  }
}

/** The default `orderBy` of issue lists: newest first. */
export const ISSUE_ORDER_DEFAULT = { field: 'CREATED_AT', direction: 'DESC' } as const;

const issueLabels = prismaConnectionHelpers(builder, 'IssueLabel', {
  cursor: 'id',
  select: (nodeSelection) => ({ label: withLabelScalars(nodeSelection(true)) }),
  args: (t) => ({ orderBy: t.field({ type: LabelOrderInput, description: 'The order they were added when absent.' }) }),
  query: (args) => ({ orderBy: carriedLabelsOrderBy(args.orderBy) }),
  resolveNode: (row) => row.label,
});

const issueAssignees = prismaConnectionHelpers(builder, 'IssueAssignee', {
  cursor: 'id',
  select: (nodeSelection) => ({ assignee: withUserScalars(nodeSelection(true)) }),
  query: () => ({ orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.assignee,
});

/** An issue (pull requests share the numbering). node(id:) answers only issues the viewer may read (issueReadWhere). */
export const IssueRef = builder.prismaNode('Issue', {
  description: 'An issue in a repository.',
  interfaces: [AssignableRef, ClosableRef, LabelableRef, LockableRef, ReactableRef, SubscribableRef],
  id: { field: 'id' },
  ...filteredBy('issueReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [issueReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    number: t.exposeInt('index'),
    title: t.exposeString('title'),
    body: t.exposeString('content'),
    state: t.field({ type: IssueStateEnum, resolve: (i) => (i.isClosed ? 'CLOSED' : 'OPEN') }),
    closed: t.exposeBoolean('isClosed'),
    locked: t.exposeBoolean('isLocked'),
    isPullRequest: t.exposeBoolean('isPull'),
    url: t.field({
      type: 'URI',
      select: { repo: { select: { ownerName: true, name: true } } },
      resolve: (i, _a, ctx) => `${ctx.cx.config.rootUrl}${i.repo.ownerName}/${i.repo.name}/${i.isPull ? 'pulls' : 'issues'}/${i.index}`,
    }),
    author: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Null for a deleted (ghost) author.',
      ...inherits('REST shows the poster with the issue'),
      resolve: (i, _a, ctx) => userNamed(ctx, attached(i, 'poster'), i.posterId),
    }),
    repository: t.relation('repo', { type: RepositoryRef, ...inherits('a readable issue implies a readable repository') }),
    milestone: t.relation('milestone', {
      nullable: true,
      ...inherits("a readable issue or pull request implies its repository's milestones (issues or pulls readable)"),
    }),
    commentCount: t.exposeInt('numComments'),
    contentVersion: t.exposeInt('contentVersion', {
      description: 'Incremented on every body edit; pass it to updateIssue(contentVersion:) to detect concurrent edits.',
    }),
    dueOn: t.expose('deadlineAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    closedAt: t.expose('closedAt', { type: 'DateTime', nullable: true }),
    labels: t.connection(
      {
        type: LabelRef,
        ...inherits('REST shows the labels with the issue'),
        args: issueLabels.getArgs(),
        select: (args, ctx, nested) => ({
          labels: issueLabels.getQuery(args, ctx, bothNodePaths(nested)),
          _count: { select: { labels: true } },
        }),
        resolve: (i, args, ctx) => withTotal(issueLabels.resolve(i.labels, args, ctx), i._count.labels),
      },
      LabelConnectionRef,
    ),
    assignees: t.connection(
      {
        type: UserRef,
        ...inherits('REST shows the assignees with the issue'),
        select: (args, ctx, nested) => ({
          assignees: issueAssignees.getQuery(args, ctx, bothNodePaths(nested)),
          _count: { select: { assignees: true } },
        }),
        resolve: (i, args, ctx) => withTotal(issueAssignees.resolve(i.assignees, args, ctx), i._count.assignees),
      },
      UserConnectionRef,
    ),
  }),
});
tokenReadScope(IssueRef, 'issue');

/** GitHub's IssueConnection: a repository's, a milestone's, a label's issues. */
export const IssueConnectionRef = sharedConnection(IssueRef, 'IssueConnection');

builder.prismaObjectFields(RepositoryRef, (t) => ({
  issues: t.relatedConnection(
    'issues',
    {
      cursor: 'id',
      description:
        'Issues (not pull requests), newest first unless `orderBy` says otherwise; empty when the viewer cannot read the issues unit.',
      totalCount: true,
      ...filteredBy('issueReadWhere'),
      args: {
        states: t.arg({ type: [IssueStateEnum], required: false }),
        labels: t.arg.stringList({ description: 'Only issues carrying every one of these label names.' }),
        orderBy: t.arg({ type: IssueOrderInput, defaultValue: ISSUE_ORDER_DEFAULT }),
        filterBy: t.arg({ type: IssueFiltersInput }),
      },
      // Planned, so its first pages can load on the read path (preload/repositoryIssues.ts).
      query: (args, ctx) => plannedIssueList(issueReadWhere(ctx.cx), issueListWhere(args, ctx.cx.viewer?.id), issueOrderBy(args.orderBy)),
    },
    IssueConnectionRef,
  ),
  issue: t.field({
    type: IssueRef,
    nullable: true,
    description: 'An issue by number (null for pull requests and when the viewer cannot read the issues unit).',
    ...filteredBy('issueReadWhere'),
    args: { number: t.arg.int({ required: true }) },
    select: (args, ctx, nested) => ({
      issues: { where: { AND: [{ index: args.number, isPull: false }, issueReadWhere(ctx.cx)] }, take: 1, ...nested(true) },
    }),
    resolve: (r) => r.issues[0] ?? null,
  }),
}));
