import { locatePullById } from '../../services/pull/edit.ts';
import { formatPrismaCursor } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import * as commentService from '../../services/issue/comment.ts';
import * as issueService from '../../services/issue/issue.ts';
import { commentReadWhere } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import type { GraphQLContext } from '../context.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, dbIdOf } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { IssueRef } from './issue.ts';
import { LabelRef } from './label.ts';
import { UserRef, userNamed } from './user.ts';
import { attached } from '../preload/plan.ts';
import { ActorRef } from './repositoryOwner.ts';
import { withIssueScalars, withUserScalars } from '../selection.ts';
import { connectionCount } from '../sharedConnection.ts';
import { AssignableRef, ClosableRef, LabelableRef, LockableRef, ReactableRef } from './githubInterfaces.ts';
import { directionOf, orderInput } from './orderInput.ts';

type Where = Models.Prisma.CommentWhereInput;

/** What `url` and the viewerCan* fields read of a comment's issue. */
const ISSUE_FACTS = {
  select: { index: true, isPull: true, repoId: true, repo: { select: { ownerName: true, name: true, isArchived: true } } },
} as const;

// The timeline's kinds of items: Comment rows of every type, as the GitHub type where GitHub has the event.
const ITEM_TYPES = [
  'ISSUE_COMMENT',
  'CLOSED_EVENT',
  'REOPENED_EVENT',
  'LABELED_EVENT',
  'UNLABELED_EVENT',
  'ASSIGNED_EVENT',
  'UNASSIGNED_EVENT',
  'MILESTONED_EVENT',
  'DEMILESTONED_EVENT',
  'RENAMED_TITLE_EVENT',
  'LOCKED_EVENT',
  'UNLOCKED_EVENT',
  'PINNED_EVENT',
  'UNPINNED_EVENT',
] as const;
type ItemType = (typeof ITEM_TYPES)[number];

/**
 * GitHub's kinds of issue timeline items this timeline never holds (GitHub-only concepts, or Gitea rows it does
 * not show): valid in `itemTypes`, where they match nothing.
 */
const GITHUB_ONLY_ITEM_TYPES = [
  'ADDED_TO_PROJECT_EVENT',
  'COMMENT_DELETED_EVENT',
  'CONNECTED_EVENT',
  'CONVERTED_NOTE_TO_ISSUE_EVENT',
  'CONVERTED_TO_DISCUSSION_EVENT',
  'CROSS_REFERENCED_EVENT',
  'DISCONNECTED_EVENT',
  'MARKED_AS_DUPLICATE_EVENT',
  'MENTIONED_EVENT',
  'MOVED_COLUMNS_IN_PROJECT_EVENT',
  'PARENT_ISSUE_ADDED_EVENT',
  'PARENT_ISSUE_REMOVED_EVENT',
  'REFERENCED_EVENT',
  'REMOVED_FROM_PROJECT_EVENT',
  'SUBSCRIBED_EVENT',
  'SUB_ISSUE_ADDED_EVENT',
  'SUB_ISSUE_REMOVED_EVENT',
  'TRANSFERRED_EVENT',
  'UNMARKED_AS_DUPLICATE_EVENT',
  'UNSUBSCRIBED_EVENT',
  'USER_BLOCKED_EVENT',
] as const;
type ItemTypeArg = ItemType | (typeof GITHUB_ONLY_ITEM_TYPES)[number];

/** The rows of each item type (Gitea keeps added/removed in one comment type, told apart by a column). */
const ITEM_WHERE: Record<ItemType, Where> = {
  ISSUE_COMMENT: { type: 'COMMENT' },
  CLOSED_EVENT: { type: 'CLOSE' },
  REOPENED_EVENT: { type: 'REOPEN' },
  LABELED_EVENT: { type: 'LABEL', content: '1' },
  UNLABELED_EVENT: { type: 'LABEL', NOT: { content: '1' } },
  ASSIGNED_EVENT: { type: 'ASSIGNEES', removedAssignee: false },
  UNASSIGNED_EVENT: { type: 'ASSIGNEES', removedAssignee: true },
  MILESTONED_EVENT: { type: 'MILESTONE', milestoneId: { not: null } },
  DEMILESTONED_EVENT: { type: 'MILESTONE', milestoneId: null },
  RENAMED_TITLE_EVENT: { type: 'CHANGE_TITLE' },
  LOCKED_EVENT: { type: 'LOCK' },
  UNLOCKED_EVENT: { type: 'UNLOCK' },
  PINNED_EVENT: { type: 'PIN' },
  UNPINNED_EVENT: { type: 'UNPIN' },
};

/** GraphQL type name of an item type: `CLOSED_EVENT` → `ClosedEvent`. */
const typeNameOf = (item: ItemType): string =>
  item
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** The member a Comment row is shown as (rows are loaded only when they match one of ITEM_WHERE). */
function itemTypeOf(c: Pick<Models.Comment, 'type' | 'content' | 'removedAssignee' | 'milestoneId'>): ItemType {
  switch (c.type) {
    case 'COMMENT':
      return 'ISSUE_COMMENT';
    case 'CLOSE':
      return 'CLOSED_EVENT';
    case 'REOPEN':
      return 'REOPENED_EVENT';
    case 'LABEL':
      return c.content === '1' ? 'LABELED_EVENT' : 'UNLABELED_EVENT';
    case 'ASSIGNEES':
      return c.removedAssignee ? 'UNASSIGNED_EVENT' : 'ASSIGNED_EVENT';
    case 'MILESTONE':
      return c.milestoneId !== null ? 'MILESTONED_EVENT' : 'DEMILESTONED_EVENT';
    case 'CHANGE_TITLE':
      return 'RENAMED_TITLE_EVENT';
    case 'LOCK':
      return 'LOCKED_EVENT';
    case 'UNLOCK':
      return 'UNLOCKED_EVENT';
    case 'PIN':
      return 'PINNED_EVENT';
    case 'UNPIN':
      return 'UNPINNED_EVENT';
    default:
      return 'ISSUE_COMMENT';
  }
}

/** Users a comment or event names (poster, assignee): REST shows them with the comment, as Gitea does. */
const SHOWN = inherits('REST shows the users a comment or event names with it');
/** The issue of a comment or event: readable when the comment is (commentReadWhere is the issue's policy). */
const OF_ISSUE = inherits('a readable comment or event implies a readable issue');

/**
 * An item of an issue timeline (GitHub's IssueTimelineItems members; an interface here, so that the whole
 * page plans as one query): every Comment row shown as the GitHub type of its event.
 */
export const TimelineItemRef = builder.prismaInterface('Comment', {
  variant: 'IssueTimelineItems',
  description: 'An item in an issue timeline: a comment or an event.',
  fields: (t) => ({
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the item was created.' }),
  }),
  resolveType: (row) => typeNameOf(itemTypeOf(row)),
});

/**
 * A plain comment (Gitea comment type COMMENT) on an issue or pull request. node(id:) answers only comments
 * of issues the viewer may see. Other features add fields with builder.prismaObjectFields(IssueCommentRef, …).
 */
export const IssueCommentRef = builder.prismaNode('Comment', {
  name: 'IssueComment',
  description: 'A comment on an issue or pull request.',
  interfaces: [TimelineItemRef, ReactableRef],
  id: { field: 'id' },
  ...filteredBy('commentReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), type: 'COMMENT', AND: [commentReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    body: t.exposeString('content'),
    author: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Null for a deleted (ghost) author.',
      ...SHOWN,
      resolve: (c, _a, ctx) => userNamed(ctx, attached(c, 'poster'), c.posterId),
    }),
    issue: t.relation('issue', { type: IssueRef, ...OF_ISSUE }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    lastEditedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the body was last edited; null when it never was.',
      resolve: (c) => (c.contentVersion > 0 ? c.updatedAt : null),
    }),
    url: t.field({
      type: 'URI',
      description: "The comment's web URL (`…/issues/{n}#issuecomment-{id}`).",
      select: { issue: ISSUE_FACTS },
      resolve: (c, _a, ctx) =>
        `${ctx.cx.config.rootUrl}${c.issue.repo.ownerName}/${c.issue.repo.name}/${c.issue.isPull ? 'pulls' : 'issues'}/${c.issue.index}#issuecomment-${c.id}`,
    }),
    includesCreatedEdit: t.boolean({
      description: 'Whether the body was edited after the comment was made (its edits are not kept, only that there were some).',
      resolve: (c) => c.contentVersion > 0,
    }),
    isMinimized: t.boolean({ description: 'Always false: comments cannot be minimized here.', resolve: () => false }),
    minimizedReason: t.string({ nullable: true, description: 'Always null: comments cannot be minimized here.', resolve: () => null }),
    viewerDidAuthor: t.boolean({ resolve: (c, _a, ctx) => ctx.cx.viewer !== null && c.posterId === ctx.cx.viewer.id }),
    viewerCanUpdate: t.boolean({
      description: 'Whether updateIssueComment would be allowed (the poster, or a writer; not in archived repositories).',
      select: { issue: ISSUE_FACTS },
      resolve: (c, _a, ctx) => commentService.viewerCanModifyComment(ctx.cx, c, 'update'),
    }),
    viewerCanDelete: t.boolean({
      description: 'Whether deleteIssueComment would be allowed (the poster, or a writer).',
      select: { issue: ISSUE_FACTS },
      resolve: (c, _a, ctx) => commentService.viewerCanModifyComment(ctx.cx, c, 'delete'),
    }),
  }),
});
tokenReadScope(IssueCommentRef, 'issue');

/** GitHub's IssueCommentEdge, shared by Issue.comments and the addComment payload. */
export const IssueCommentEdgeRef = builder.edgeObject({ type: IssueCommentRef, name: 'IssueCommentEdge' });

/** GitHub's IssueCommentConnection, shared by Issue.comments and PullRequest.comments. */
export const IssueCommentConnectionRef = builder.connectionObject(
  {
    type: IssueCommentRef,
    name: 'IssueCommentConnection',
    fields: (c) => ({ totalCount: c.int({ extensions: { pothosPrismaTotalCount: true }, resolve: connectionCount }) }),
  },
  IssueCommentEdgeRef,
);

/** GitHub's IssueCommentOrder (UPDATED_AT), of Issue.comments and PullRequest.comments. */
export const IssueCommentOrderInput = orderInput('IssueCommentOrder', ['UPDATED_AT'] as const, 'issue comment connections');

/** The comments' order: oldest first, or by when they were last updated. */
export const commentOrder = (o: { direction: 'ASC' | 'DESC' } | null | undefined) =>
  o ? { updatedAt: directionOf(o) } : { id: 'asc' as const };

builder.prismaObjectFields(IssueRef, (t) => ({
  comments: t.relatedConnection(
    'comments',
    {
      type: IssueCommentRef,
      cursor: 'id',
      totalCount: true,
      description: 'The plain comments, oldest first unless `orderBy` says otherwise.',
      ...inherits('the comments of a readable issue (as GET …/issues/{index}/comments)'),
      args: { orderBy: t.arg({ type: IssueCommentOrderInput }) },
      // Without orderBy, the query the issue preloaders plan (preload/issue.ts).
      query: (args) => ({ where: { type: 'COMMENT' as const }, orderBy: commentOrder(args.orderBy) }),
    },
    IssueCommentConnectionRef,
  ),
}));

// ---------------------------------------------------------------------------------------------------------
// The timeline's events and Issue.timelineItems.

export const ItemTypeEnum = builder.enumType('IssueTimelineItemsItemType', {
  description: 'The kinds of issue timeline items.',
  values: Object.fromEntries([...ITEM_TYPES, ...GITHUB_ONLY_ITEM_TYPES].map((v) => [v, { value: v }])) as Record<
    ItemTypeArg,
    { value: ItemTypeArg }
  >,
});

/** node(id:) of a timeline event: rows of that kind on issues the viewer may see. */
const eventWhere = (item: ItemType) => (id: string, ctx: GraphQLContext) =>
  ({ id: dbId(id), AND: [ITEM_WHERE[item], commentReadWhere(ctx.cx)] }) as Models.Prisma.CommentWhereUniqueInput;

const EVENT = { id: { field: 'id' }, nullable: true, ...filteredBy('commentReadWhere') } as const;

/** An event's actor: the user who posted it, as GitHub's Actor (null for a deleted user). */
function actorOfEvent() {
  return {
    type: ActorRef,
    nullable: true,
    ...SHOWN,
    select: (_a: unknown, _c: unknown, nested: (selection: true) => Models.Prisma.UserDefaultArgs | true) => ({
      poster: withUserScalars(nested(true)),
    }),
    resolve: (c: { poster: Models.User | null }) => c.poster,
  } as const;
}
// Every event type (each is a variant of the Comment rows) reads with the issue scope, as comments do.
for (const item of ITEM_TYPES) if (item !== 'ISSUE_COMMENT') tokenReadScope({ name: typeNameOf(item) }, 'issue');

for (const [variant, item, description] of [
  ['ClosedEvent', 'CLOSED_EVENT', 'The issue was closed.'],
  ['ReopenedEvent', 'REOPENED_EVENT', 'The issue was reopened.'],
] as const) {
  builder.prismaNode('Comment', {
    ...EVENT,
    interfaces: [TimelineItemRef],
    variant,
    description,
    findUnique: eventWhere(item),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      closable: t.field({
        type: ClosableRef,
        ...OF_ISSUE,
        select: (_a, _c, nested) => ({ issue: withIssueScalars(nested(true)) }),
        resolve: (c) => c.issue,
      }),
    }),
  });
}

const labelEvent = (item: 'LABELED_EVENT' | 'UNLABELED_EVENT', description: string) =>
  builder.prismaNode('Comment', {
    ...EVENT,
    interfaces: [TimelineItemRef],
    variant: typeNameOf(item),
    description,
    findUnique: eventWhere(item),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      label: t.relation('label', {
        type: LabelRef,
        nullable: true,
        description: 'Null once the label was deleted.',
        ...inherits("a label on a readable issue is one of its repository's or organization's (REST shows it in the timeline)"),
      }),
      labelable: t.field({
        type: LabelableRef,
        ...OF_ISSUE,
        select: (_a, _c, nested) => ({ issue: withIssueScalars(nested(true)) }),
        resolve: (c) => c.issue,
      }),
    }),
  });
labelEvent('LABELED_EVENT', 'A label was added.');
labelEvent('UNLABELED_EVENT', 'A label was removed.');

/** GitHub's Assignee: whom an issue can be assigned to (users here; GitHub also has bots and mannequins). */
const AssigneeUnion = builder.unionType('Assignee', {
  description: 'Types that can be assigned to issues.',
  types: [UserRef],
  resolveType: () => UserRef,
});

const assignEvent = (item: 'ASSIGNED_EVENT' | 'UNASSIGNED_EVENT', description: string) =>
  builder.prismaNode('Comment', {
    ...EVENT,
    interfaces: [TimelineItemRef],
    variant: typeNameOf(item),
    description,
    findUnique: eventWhere(item),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      assignee: t.field({
        type: AssigneeUnion,
        nullable: true,
        ...SHOWN,
        select: (_a, _c, nested) => ({ assignee: withUserScalars(nested(true)) }),
        resolve: (c) => c.assignee,
      }),
      assignable: t.field({
        type: AssignableRef,
        ...OF_ISSUE,
        select: (_a, _c, nested) => ({ issue: withIssueScalars(nested(true)) }),
        resolve: (c) => c.issue,
      }),
    }),
  });
assignEvent('ASSIGNED_EVENT', 'A user was assigned.');
assignEvent('UNASSIGNED_EVENT', 'A user was unassigned.');

/** MilestonedEvent (its `subject`, an issue or a pull request, is added by timelineSubject.ts). */
export const MilestonedEventRef = builder.prismaNode('Comment', {
  ...EVENT,
  interfaces: [TimelineItemRef],
  variant: 'MilestonedEvent',
  description: 'The issue was added to a milestone.',
  findUnique: eventWhere('MILESTONED_EVENT'),
  fields: (t) => ({
    actor: t.field(actorOfEvent()),
    milestoneTitle: t.string({ select: { milestone: { select: { name: true } } }, resolve: (c) => c.milestone?.name ?? '' }),
  }),
});

/** DemilestonedEvent (its `subject`, an issue or a pull request, is added by timelineSubject.ts). */
export const DemilestonedEventRef = builder.prismaNode('Comment', {
  ...EVENT,
  interfaces: [TimelineItemRef],
  variant: 'DemilestonedEvent',
  description: 'The issue was removed from a milestone.',
  findUnique: eventWhere('DEMILESTONED_EVENT'),
  fields: (t) => ({
    actor: t.field(actorOfEvent()),
    milestoneTitle: t.string({ select: { oldMilestone: { select: { name: true } } }, resolve: (c) => c.oldMilestone?.name ?? '' }),
  }),
});

/** RenamedTitleEvent (its `subject`, an issue or a pull request, is added by timelineSubject.ts). */
export const RenamedTitleEventRef = builder.prismaNode('Comment', {
  ...EVENT,
  interfaces: [TimelineItemRef],
  variant: 'RenamedTitleEvent',
  description: 'The title changed.',
  findUnique: eventWhere('RENAMED_TITLE_EVENT'),
  fields: (t) => ({
    actor: t.field(actorOfEvent()),
    previousTitle: t.exposeString('oldTitle'),
    currentTitle: t.exposeString('newTitle'),
  }),
});

const lockEvent = (item: 'LOCKED_EVENT' | 'UNLOCKED_EVENT', description: string) =>
  builder.prismaNode('Comment', {
    ...EVENT,
    interfaces: [TimelineItemRef],
    variant: typeNameOf(item),
    description,
    findUnique: eventWhere(item),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      lockable: t.field({
        type: LockableRef,
        ...OF_ISSUE,
        select: (_a, _c, nested) => ({ issue: withIssueScalars(nested(true)) }),
        resolve: (c) => c.issue,
      }),
    }),
  });
lockEvent('LOCKED_EVENT', 'The conversation was locked.');
lockEvent('UNLOCKED_EVENT', 'The conversation was unlocked.');

const pinEvent = (item: 'PINNED_EVENT' | 'UNPINNED_EVENT', description: string) =>
  builder.prismaNode('Comment', {
    ...EVENT,
    interfaces: [TimelineItemRef],
    variant: typeNameOf(item),
    description,
    findUnique: eventWhere(item),
    fields: (t) => ({
      actor: t.field(actorOfEvent()),
      issue: t.relation('issue', { type: IssueRef, ...OF_ISSUE }),
    }),
  });
pinEvent('PINNED_EVENT', 'The issue was pinned.');
pinEvent('UNPINNED_EVENT', 'The issue was unpinned.');

/** The Comment rows of the timeline: the given kinds of items (all by default), created at or after `since`. */
export function timelineWhere(args: { itemTypes?: readonly ItemTypeArg[] | null; since?: Date | null }): Where {
  const items = (args.itemTypes?.length ? args.itemTypes : ITEM_TYPES).filter((i): i is ItemType => i in ITEM_WHERE);
  // Only kinds this timeline never holds: nothing (an empty OR would match everything).
  const kinds: Where = items.length ? { OR: [...new Set(items)].map((i) => ITEM_WHERE[i]) } : { id: { in: [] } };
  return { AND: [kinds, ...(args.since ? [{ createdAt: { gte: args.since } }] : [])] };
}

builder.prismaObjectFields(IssueRef, (t) => ({
  timelineItems: t.relatedConnection(
    'comments',
    {
      type: TimelineItemRef,
      cursor: 'id',
      totalCount: true,
      description: 'Comments and events, oldest first.',
      ...inherits('the timeline of a readable issue (as GET …/issues/{index}/timeline)'),
      args: {
        itemTypes: t.arg({ type: [ItemTypeEnum], required: false, description: 'Only these kinds of items.' }),
        since: t.arg({ type: 'DateTime', required: false, description: 'Only items created at or after this time.' }),
      },
      query: (args) => ({ where: timelineWhere(args), orderBy: { id: 'asc' as const } }),
    },
    { name: 'IssueTimelineItemsConnection' },
    { name: 'IssueTimelineItemsEdge' },
  ),
}));

// ---------------------------------------------------------------------------------------------------------
// Mutations (GitHub's names), over the REST services.

/** The database id of a global id of the given type (0, answered NotFound by the service, for any other type). */
const idOf = dbIdOf;

builder.relayMutationField(
  'addComment',
  {
    inputFields: (t) => ({
      subjectId: t.globalID({ required: true, description: 'The issue or pull request to comment on.' }),
      body: t.string({ required: true }),
    }),
  },
  {
    description: 'Comment on an issue or a pull request (as POST /api/v1/repos/{o}/{r}/issues/{index}/comments).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      // A pull request's conversation is its issue's (gh pr comment names the pull request).
      const at =
        input.subjectId.typename === 'PullRequest'
          ? await locatePullById(ctx.cx, idOf(input.subjectId, 'PullRequest'))
          : await issueService.locateIssueById(ctx.cx, idOf(input.subjectId, 'Issue'));
      const view = await commentService.createComment(ctx.cx, at.ref, at.index, input.body);
      return { comment: view.comment, issue: view.issue };
    },
  },
  {
    outputFields: (t) => ({
      commentEdge: t.field({
        type: IssueCommentEdgeRef,
        resolve: (p) => ({ cursor: formatPrismaCursor(p.comment, 'id'), node: p.comment }),
      }),
      subject: t.field({
        type: builder.nodeInterfaceRef(),
        description: 'The issue or pull request (its issue) commented on.',
        resolve: (p) => IssueRef.addBrand(p.issue),
      }),
    }),
  },
);

builder.relayMutationField(
  'updateIssueComment',
  {
    inputFields: (t) => ({
      id: t.globalID({ required: true }),
      body: t.string({ required: true }),
    }),
  },
  {
    description: "Edit a comment's body (the poster or a writer; as PATCH /api/v1/repos/{o}/{r}/issues/comments/{id}).",
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      const id = idOf(input.id, 'IssueComment');
      const view = await commentService.editComment(ctx.cx, await commentService.locateComment(ctx.cx, id), id, input.body);
      return { comment: view?.comment ?? null };
    },
  },
  { outputFields: (t) => ({ issueComment: t.field({ type: IssueCommentRef, nullable: true, resolve: (p) => p.comment }) }) },
);

builder.relayMutationField(
  'deleteIssueComment',
  { inputFields: (t) => ({ id: t.globalID({ required: true }) }) },
  {
    description: 'Delete a comment (the poster or a writer; as DELETE /api/v1/repos/{o}/{r}/issues/comments/{id}).',
    ...writeScope('issue'),
    resolve: async (_root, { input }, ctx) => {
      const id = idOf(input.id, 'IssueComment');
      return { issue: await commentService.deleteComment(ctx.cx, await commentService.locateComment(ctx.cx, id), id) };
    },
  },
  { outputFields: (t) => ({ issue: t.field({ type: IssueRef, description: 'The issue the comment was on.', resolve: (p) => p.issue }) }) },
);
