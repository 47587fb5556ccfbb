import { createContextCache } from '@pothos/core';
import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { commentReadWhere } from '../../services/issue/visibility.ts';
import { diffHunkOf } from '../../services/pull/codeCommentPatch.ts';
import { pullProtectionState, reviewDecisionOf } from '../../services/pull/protectionState.ts';
import { reviewDecisionLoader, reviewRequestsLoader, teamByIdLoader } from '../../services/pull/reviewView.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import type { GraphQLContext } from '../context.ts';
import { dbId } from '../ids.ts';
import { reviewReadWhere, reviewRequestReadWhere } from '../../services/pull/visibility.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { bothNodePaths, withUserScalars } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { associationOf, CommentAuthorAssociationEnum } from './authorAssociation.ts';
import { CommitRef, loadCommit } from './gitObject.ts';
import { PROTECTION_SELECT, PullRequestRef } from './pullRequest.ts';
import { TeamRef } from './team.ts';
import { UserRef } from './user.ts';
import { ActorRef } from './repositoryOwner.ts';
import { ReactableRef } from './githubInterfaces.ts';

type ReviewWhere = Models.Prisma.ReviewWhereInput;

const requestsOf = createContextCache((ctx: GraphQLContext) => reviewRequestsLoader(ctx.cx));
export const teamsById = createContextCache((ctx: GraphQLContext) => teamByIdLoader(ctx.cx.db));
const decisions = createContextCache((ctx: GraphQLContext) => reviewDecisionLoader(ctx.cx.db));

const PullRequestReviewStateEnum = builder.enumType('PullRequestReviewState', {
  description: 'The state of a pull request review.',
  values: {
    APPROVED: { value: 'APPROVED', description: 'Approves the changes (Gitea APPROVED).' },
    CHANGES_REQUESTED: { value: 'CHANGES_REQUESTED', description: 'Asks for changes (Gitea REQUEST_CHANGES).' },
    COMMENTED: { value: 'COMMENTED', description: 'General feedback (Gitea COMMENT).' },
    DISMISSED: { value: 'DISMISSED', description: 'An approval or rejection that was dismissed.' },
    PENDING: { value: 'PENDING', description: 'Not submitted yet.' },
  } as const,
});
type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';

const STATE_OF: Record<Exclude<Models.ReviewType, 'REQUEST'>, ReviewState> = {
  APPROVE: 'APPROVED',
  REJECT: 'CHANGES_REQUESTED',
  COMMENT: 'COMMENTED',
  PENDING: 'PENDING',
};

/** The rows of each state, for `reviews(states:)`. */
const STATE_WHERE: Record<ReviewState, ReviewWhere> = {
  APPROVED: { type: 'APPROVE', dismissed: false },
  CHANGES_REQUESTED: { type: 'REJECT', dismissed: false },
  COMMENTED: { type: 'COMMENT' },
  DISMISSED: { dismissed: true },
  PENDING: { type: 'PENDING' },
};

const stateOf = (r: Pick<Models.Review, 'type' | 'dismissed'>): ReviewState =>
  r.dismissed ? 'DISMISSED' : r.type === 'REQUEST' ? 'PENDING' : STATE_OF[r.type];

export const PullRequestReviewEventEnum = builder.enumType('PullRequestReviewEvent', {
  description: 'What submitting a review does.',
  values: {
    APPROVE: { value: 'APPROVED', description: 'Approve the changes.' },
    COMMENT: { value: 'COMMENT', description: 'Comment without a verdict.' },
    DISMISS: { value: 'DISMISS', description: 'Not a submission here: use dismissPullRequestReview (a review given it stays pending).' },
    REQUEST_CHANGES: { value: 'REQUEST_CHANGES', description: 'Ask for changes.' },
  } as const,
});

const PullRequestReviewDecisionEnum = builder.enumType('PullRequestReviewDecision', {
  description: "The review status of a pull request, from each reviewer's latest official verdict.",
  values: {
    APPROVED: { value: 'APPROVED', description: 'Approved, and no official reviewer asks for changes.' },
    CHANGES_REQUESTED: { value: 'CHANGES_REQUESTED', description: 'An official reviewer asks for changes.' },
    REVIEW_REQUIRED: { value: 'REVIEW_REQUIRED', description: 'No official approval yet.' },
  } as const,
});

const PullRequestReviewCommentStateEnum = builder.enumType('PullRequestReviewCommentState', {
  description: 'Whether a review comment was submitted.',
  values: { PENDING: { value: 'PENDING' }, SUBMITTED: { value: 'SUBMITTED' } } as const,
});

export const DiffSideEnum = builder.enumType('DiffSide', {
  description: 'The side of a diff a line comment is on.',
  values: {
    LEFT: { value: 'LEFT', description: 'The old side (a removed or unchanged line).' },
    RIGHT: { value: 'RIGHT', description: 'The new side.' },
  } as const,
});

/**
 * A line comment of a review (a Comment row of type CODE). node(id:) answers only comments of visible pull
 * requests, and those of someone else's pending review only to site admins.
 */
export const PullRequestReviewCommentRef = builder.prismaNode('Comment', {
  variant: 'PullRequestReviewComment',
  description: 'A comment on a line of a pull request diff, part of a review.',
  interfaces: [ReactableRef],
  id: { field: 'id' },
  ...filteredBy('commentReadWhere'),
  findUnique: (id, ctx) => ({
    id: dbId(id),
    type: 'CODE',
    AND: [commentReadWhere(ctx.cx), { OR: [{ reviewId: null }, { review: reviewReadWhere(ctx.cx) }] }],
  }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    body: t.exposeString('content'),
    author: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Null for a deleted (ghost) author.',
      ...inherits('REST shows the poster with the comment'),
      select: (_a, _c, nested) => ({ poster: withUserScalars(nested(true)) }),
      resolve: (c) => c.poster,
    }),
    path: t.exposeString('treePath'),
    line: t.int({
      nullable: true,
      description: 'The line on the new side; null for a comment on the old side or on the file.',
      resolve: (c) => (c.line > 0 ? c.line : null),
    }),
    originalLine: t.int({
      nullable: true,
      description: 'The line on the old side; null otherwise.',
      resolve: (c) => (c.line < 0 ? -c.line : null),
    }),
    diffSide: t.field({ type: DiffSideEnum, resolve: (c) => (c.line < 0 ? 'LEFT' : 'RIGHT') }),
    diffHunk: t.string({ description: 'The diff lines up to the commented one.', resolve: (c) => diffHunkOf(c.patch) }),
    commitOid: t.string({ nullable: true, description: 'The commit the comment was made on.', resolve: (c) => c.commitSha || null }),
    outdated: t.exposeBoolean('invalidated'),
    state: t.field({
      type: PullRequestReviewCommentStateEnum,
      select: { review: { select: { type: true } } },
      resolve: (c) => (c.review?.type === 'PENDING' ? 'PENDING' : 'SUBMITTED'),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});
tokenReadScope(PullRequestReviewCommentRef, 'issue');

/**
 * A pull request review (Gitea PullReview): not a review request. node(id:) answers only reviews of visible pull
 * requests; someone else's pending review only for site admins.
 */
export const PullRequestReviewRef = builder.prismaNode('Review', {
  variant: 'PullRequestReview',
  description: 'A review of a pull request: a verdict or comments, with line comments.',
  interfaces: [ReactableRef],
  id: { field: 'id' },
  ...filteredBy('reviewReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [reviewReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    body: t.exposeString('content'),
    state: t.field({ type: PullRequestReviewStateEnum, resolve: stateOf }),
    author: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Null for a deleted (ghost) reviewer.',
      ...inherits('REST shows the reviewer with the review'),
      select: (_a, _c, nested) => ({ reviewer: withUserScalars(nested(true)) }),
      resolve: (r) => r.reviewer,
    }),
    commitOid: t.string({ nullable: true, description: 'The commit the review was made on.', resolve: (r) => r.commitId || null }),
    commit: t.field({
      type: CommitRef,
      nullable: true,
      description: 'The commit the review was made on; null when unknown, gone, or without code read access.',
      ...checkedBy('gitObjectLoader (code unit readable)'),
      select: { issue: { select: { repo: { select: { id: true, ownerName: true, name: true, isEmpty: true } } } } },
      resolve: (r, _a, ctx) => (r.commitId ? loadCommit(ctx, r.issue.repo, r.commitId) : null),
    }),
    authorAssociation: t.field({
      type: CommentAuthorAssociationEnum,
      description:
        "The reviewer's association with the repository: OWNER, MEMBER, COLLABORATOR (where the viewer may see it), MANNEQUIN for migrated reviews, else NONE.",
      resolve: (r, _a, ctx) => associationOf(ctx, { issueId: r.issueId, posterId: r.reviewerId, originalAuthorId: r.originalAuthorId }),
    }),
    official: t.exposeBoolean('official', {
      description: "Whether the review counts towards approvals (the reviewer's latest verdict, by a code writer).",
    }),
    stale: t.exposeBoolean('stale', { description: 'Whether the code changed since the reviewed commit.' }),
    dismissed: t.exposeBoolean('dismissed'),
    submittedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Null while pending.',
      resolve: (r) => (r.type === 'PENDING' ? null : r.createdAt),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    viewerDidAuthor: t.boolean({ resolve: (r, _a, ctx) => ctx.cx.viewer !== null && r.reviewerId === ctx.cx.viewer.id }),
    pullRequest: t.field({
      type: PullRequestRef,
      ...inherits('a readable review implies a readable pull request (reviewReadWhere)'),
      select: (_args, _ctx, nested) => ({ issue: { select: { pullRequest: nested(true) } } }),
      resolve: (r) => {
        if (!r.issue.pullRequest) throw new NotFoundError('pull request does not exist', { issueId: r.issueId });
        return r.issue.pullRequest;
      },
    }),
    comments: t.relatedConnection(
      'comments',
      {
        type: PullRequestReviewCommentRef,
        cursor: 'id',
        totalCount: true,
        description: 'The line comments, oldest first.',
        ...inherits('the line comments of a readable review'),
        query: { where: { type: 'CODE' }, orderBy: { id: 'asc' } },
      },
      { name: 'PullRequestReviewCommentConnection' },
      { name: 'PullRequestReviewCommentEdge' },
    ),
  }),
});
tokenReadScope(PullRequestReviewRef, 'issue');

builder.prismaObjectFields(PullRequestReviewCommentRef, (t) => ({
  pullRequestReview: t.relation('review', {
    type: PullRequestReviewRef,
    nullable: true,
    description: 'The review the comment belongs to.',
    ...inherits("a readable line comment implies its review (the comment's policy includes the review's)"),
  }),
}));

/** GitHub's RequestedReviewer: a user or a team. */
const RequestedReviewerUnion = builder.unionType('RequestedReviewer', {
  description: 'Who a review is requested from.',
  types: [UserRef, TeamRef],
  resolveType: (v) => ('orgId' in v ? TeamRef : UserRef),
});

/** A pending review request (a Review row of type REQUEST). */
export const ReviewRequestRef = builder.prismaNode('Review', {
  variant: 'ReviewRequest',
  description: 'A request for a user or a team to review a pull request.',
  id: { field: 'id' },
  ...filteredBy('reviewRequestReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [reviewRequestReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id (of the PullReview in state REQUEST_REVIEW).' }),
    asCodeOwner: t.boolean({ description: 'Always false: there are no code owners here.', resolve: () => false }),
    official: t.exposeBoolean('official'),
    requestedReviewer: t.field({
      type: RequestedReviewerUnion,
      nullable: true,
      description: 'Null once the user or team is deleted.',
      ...inherits('a readable request names a user, or a team the viewer may read (reviewRequestReadWhere)'),
      // Per-request loaders, so a page of pull requests costs one query for all their reviewers.
      resolve: (r, _a, ctx) =>
        r.reviewerId !== null
          ? ctx.cx.loaders.userById.load(r.reviewerId)
          : r.reviewerTeamId !== null
            ? teamsById(ctx).load(r.reviewerTeamId)
            : null,
    }),
    pullRequest: t.field({
      type: PullRequestRef,
      ...inherits('a readable request implies a readable pull request (reviewRequestReadWhere)'),
      select: (_args, _ctx, nested) => ({ issue: { select: { pullRequest: nested(true) } } }),
      resolve: (r) => {
        if (!r.issue.pullRequest) throw new NotFoundError('pull request does not exist', { issueId: r.issueId });
        return r.issue.pullRequest;
      },
    }),
  }),
});
tokenReadScope(ReviewRequestRef, 'issue');

/** GitHub's PullRequestReviewConnection, shared by PullRequest.reviews and latestReviews. */
const PullRequestReviewConnection = builder.connectionObject(
  {
    type: PullRequestReviewRef,
    name: 'PullRequestReviewConnection',
    fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }),
  },
  { name: 'PullRequestReviewEdge' },
);

/** A planned nested selection, or nothing (every column) when nothing is selected under the nodes (`true`, `{ select: {} }`). */
function plannedOrAll(planned: unknown): object {
  if (typeof planned !== 'object' || planned === null) return {};
  const parts = Object.values(planned as Record<string, unknown>);
  return parts.some((p) => typeof p === 'object' && p !== null && Object.keys(p).length > 0) ? planned : {};
}

/** Submitted reviews (no pending ones, whoever may see them): GitHub's latestReviews. */
const SUBMITTED: ReviewWhere = { type: { in: ['APPROVE', 'REJECT', 'COMMENT'] } };

const pullReviews = prismaConnectionHelpers(builder, PullRequestReviewRef, {
  cursor: 'id',
  args: (t) => ({
    states: t.field({ type: [PullRequestReviewStateEnum], required: false, description: 'Only reviews in these states.' }),
    author: t.string({ required: false, description: 'Only reviews by this login.' }),
  }),
  query: (args, ctx) => ({ where: reviewListWhere(args, ctx), orderBy: { id: 'asc' as const } }),
});

function reviewListWhere(args: { states?: readonly ReviewState[] | null; author?: string | null }, ctx: GraphQLContext): ReviewWhere {
  const and: ReviewWhere[] = [reviewReadWhere(ctx.cx)];
  if (args.states?.length) and.push({ OR: args.states.map((s) => STATE_WHERE[s]) });
  if (args.author) and.push({ reviewer: { lowerName: args.author.toLowerCase() } });
  return { AND: and };
}

builder.prismaObjectFields(PullRequestRef, (t) => ({
  reviews: t.connection(
    {
      type: PullRequestReviewRef,
      description: 'Reviews, oldest first (not review requests; pending ones only for their author).',
      ...filteredBy('reviewReadWhere'),
      args: pullReviews.getArgs(),
      select: (args, ctx, nested) => ({
        issue: {
          select: {
            reviews: pullReviews.getQuery(args, ctx, bothNodePaths(nested)),
            _count: { select: { reviews: { where: reviewListWhere(args, ctx) } } },
          },
        },
      }),
      resolve: (p, args, ctx) => withTotal(pullReviews.resolve(p.issue.reviews, args, ctx), p.issue._count.reviews),
    },
    PullRequestReviewConnection,
  ),
  latestReviews: t.connection(
    {
      type: PullRequestReviewRef,
      description:
        "Each reviewer's latest submitted review (not pending ones), oldest first; reviews of deleted reviewers count as one reviewer's.",
      ...filteredBy('reviewReadWhere'),
      // One row per reviewer (Prisma's distinct over the newest first), planned into the pull request's query.
      select: (_args, ctx, nested) => ({
        issue: {
          select: {
            reviews: {
              where: { AND: [reviewReadWhere(ctx.cx), SUBMITTED] },
              orderBy: { id: 'desc' as const },
              distinct: ['reviewerId' as const],
              ...plannedOrAll(bothNodePaths(nested)(true)),
            },
          },
        },
      }),
      resolve: (p, args) => {
        const latest = [...p.issue.reviews].sort((a, b) => a.id - b.id);
        return arrayConnection(args, latest, { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE });
      },
    },
    PullRequestReviewConnection,
  ),
  reviewRequests: t.connection(
    {
      type: ReviewRequestRef,
      description: 'Pending review requests, oldest first (requests of teams the viewer may not see are left out).',
      ...filteredBy('reviewRequestReadWhere'),
      select: { issueId: true },
      resolve: async (p, args, ctx) => {
        const rows = await requestsOf(ctx).load(p.issueId);
        return arrayConnection(args, rows, { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE });
      },
    },
    { name: 'ReviewRequestConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'ReviewRequestEdge' },
  ),
  reviewDecision: t.field({
    type: PullRequestReviewDecisionEnum,
    nullable: true,
    description:
      "Under a rule requiring approvals, the merge's own count: CHANGES_REQUESTED if an official review asks for changes, APPROVED with enough approvals, else REVIEW_REQUIRED. Without one, the reviewers' latest official verdict when it approves or asks for changes, else null (no review required).",
    select: PROTECTION_SELECT,
    resolve: async (p, _a, ctx) => {
      const [state, verdict] = await Promise.all([pullProtectionState(ctx.cx, p), decisions(ctx).load(p.issueId)]);
      return reviewDecisionOf(state, verdict);
    },
  }),
}));
