import { locatePullById } from '../../services/pull/edit.ts';
import { formatPrismaCursor } from '@pothos/plugin-prisma';
import * as commentService from '../../services/issue/comment.ts';
import * as issueService from '../../services/issue/issue.ts';
import { commentReadWhere } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, dbIdOf } from '../ids.ts';
import { filteredBy, inherits } from '../policy.ts';
import { IssueRef } from './issue.ts';
import { userNamed } from './user.ts';
import { TimelineItemRef } from './timelineItem.ts';
import { attached } from '../preload/plan.ts';
import { ActorRef } from './repositoryOwner.ts';
import { connectionCount } from '../sharedConnection.ts';
import { ReactableRef } from './githubInterfaces.ts';
import { directionOf, orderInput } from './orderInput.ts';

/** What `url` and the viewerCan* fields read of a comment's issue. */
const ISSUE_FACTS = {
  select: { index: true, isPull: true, repoId: true, repo: { select: { ownerName: true, name: true, isArchived: true } } },
} as const;

/** Users a comment or event names (poster, assignee): REST shows them with the comment, as Gitea does. */
const SHOWN = inherits('REST shows the users a comment or event names with it');
/** The issue of a comment or event: readable when the comment is (commentReadWhere is the issue's policy). */
const OF_ISSUE = inherits('a readable comment or event implies a readable issue');

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
