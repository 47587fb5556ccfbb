// Pull request review mutations (GitHub's names), over the services of the REST routes.
import { ValidationError } from '../../errors.ts';
import { locatePullById } from '../../services/pull/edit.ts';
import * as reviewService from '../../services/pull/review.ts';
import * as reviewUndo from '../../services/pull/reviewUndo.ts';
import * as requestService from '../../services/pull/reviewRequest.ts';
import { locateReviewById } from '../../services/pull/reviewView.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbIdOf, opt, type GlobalId } from '../ids.ts';
import { PullRequestRef } from './pullRequest.ts';
import { DiffSideEnum, PullRequestReviewEventEnum, PullRequestReviewRef } from './pullRequestReview.ts';

const DraftPullRequestReviewThreadInput = builder.inputType('DraftPullRequestReviewThread', {
  description: 'A line comment of a new review.',
  fields: (t) => ({
    path: t.string({ required: true }),
    line: t.int({ required: true, description: 'The line (on `side`); 0 comments the file.' }),
    side: t.field({ type: DiffSideEnum, defaultValue: 'RIGHT' }),
    startLine: t.int({ description: 'Gitea comments one line: only `line` itself (or nothing) is accepted.' }),
    startSide: t.field({ type: DiffSideEnum, description: 'Only `side` itself (or nothing) is accepted.' }),
    body: t.string({ required: true }),
  }),
});

const DraftPullRequestReviewCommentInput = builder.inputType('DraftPullRequestReviewComment', {
  description: "A comment of a new review placed by GitHub's diff position (the older form of DraftPullRequestReviewThread).",
  fields: (t) => ({
    path: t.string({ required: true }),
    position: t.int({
      required: true,
      description:
        "The line's position in the file's diff: 1 is the line below the first `@@` hunk header, counting on through later hunks (their headers included).",
    }),
    body: t.string({ required: true }),
  }),
});

/**
 * The line comments of a new review, nulls skipped. Gitea's review comments are on one line: a range (GitHub's
 * startLine/startSide other than the line itself) is refused rather than silently shortened.
 * @throws ValidationError naming startLine
 */
function singleLineThreads<
  T extends { line: number; side?: 'LEFT' | 'RIGHT' | null; startLine?: number | null; startSide?: 'LEFT' | 'RIGHT' | null },
>(threads: readonly (T | null | undefined)[] | null | undefined): T[] {
  const out = (threads ?? []).filter((c): c is T => c != null);
  for (const c of out) {
    const side = c.side ?? 'RIGHT';
    if ((c.startLine != null && c.startLine !== c.line) || (c.startSide != null && c.startSide !== side))
      throw new ValidationError('startLine: multi-line review comments are not supported (Gitea comments one line)', {
        field: 'startLine',
      });
  }
  return out;
}

const LEFT_OR_RIGHT = (thread: { line: number; side?: 'LEFT' | 'RIGHT' | null }) =>
  thread.side === 'LEFT' ? { oldPosition: thread.line } : { newPosition: thread.line };

builder.relayMutationField(
  'addPullRequestReview',
  {
    inputFields: (t) => ({
      pullRequestId: t.globalID({ required: true }),
      body: t.string(),
      event: t.field({ type: PullRequestReviewEventEnum, description: 'Omitted: the review stays pending (Gitea needs a body for that).' }),
      commitOID: t.field({ type: 'GitObjectID', description: 'The reviewed commit; the head by default.' }),
      threads: t.field({
        type: [DraftPullRequestReviewThreadInput],
        required: { list: false, items: false },
        description: 'Line comments.',
      }),
      comments: t.field({
        type: [DraftPullRequestReviewCommentInput],
        required: { list: false, items: false },
        description:
          "Line comments by diff position (GitHub's deprecated form of `threads`); a position outside the file's diff is refused.",
      }),
    }),
  },
  {
    description:
      "Review a pull request (the service of POST /api/v1/repos/{o}/{r}/pulls/{index}/reviews): the viewer's pending review is reused; APPROVE and REQUEST_CHANGES are refused to the author and on closed pull requests.",
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const loc = await locatePullById(ctx.cx, dbIdOf(input.pullRequestId, 'PullRequest'));
      const view = await reviewService.createReview(ctx.cx, loc.ref, loc.index, {
        event: input.event ?? 'PENDING',
        body: opt(input.body),
        commitId: opt(input.commitOID),
        comments: [
          ...singleLineThreads(input.threads).map((c) => ({ path: c.path, body: c.body, ...LEFT_OR_RIGHT(c) })),
          ...(input.comments ?? []).flatMap((c) => (c ? [{ path: c.path, body: c.body, diffPosition: c.position }] : [])),
        ],
      });
      return { reviewId: view.review.id };
    },
  },
  {
    outputFields: (t) => ({
      pullRequestReview: t.prismaField({
        type: PullRequestReviewRef,
        nullable: true,
        resolve: (query, p, _a, ctx) => ctx.cx.db.review.findFirst({ ...query, where: { id: p.reviewId } }),
      }),
    }),
  },
);

builder.relayMutationField(
  'submitPullRequestReview',
  {
    inputFields: (t) => ({
      pullRequestReviewId: t.globalID({ description: 'The pending review to submit.' }),
      pullRequestId: t.globalID({ description: "Or the pull request whose pending review (the viewer's) to submit." }),
      event: t.field({ type: PullRequestReviewEventEnum, required: true }),
      body: t.string(),
    }),
  },
  {
    description: 'Submit a pending review (the service of POST /api/v1/repos/{o}/{r}/pulls/{index}/reviews/{id}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const submit = { event: input.event, body: opt(input.body) };
      if (input.pullRequestReviewId) {
        const loc = await locateReviewById(ctx.cx, dbIdOf(input.pullRequestReviewId, 'PullRequestReview'));
        return { reviewId: (await reviewService.submitReview(ctx.cx, loc.ref, loc.index, loc.id, submit)).review.id };
      }
      const loc = await locatePullById(ctx.cx, input.pullRequestId ? dbIdOf(input.pullRequestId, 'PullRequest') : 0);
      return { reviewId: (await reviewService.submitViewerPendingReview(ctx.cx, loc.ref, loc.index, submit)).review.id };
    },
  },
  {
    outputFields: (t) => ({
      pullRequestReview: t.prismaField({
        type: PullRequestReviewRef,
        nullable: true,
        resolve: (query, p, _a, ctx) => ctx.cx.db.review.findFirst({ ...query, where: { id: p.reviewId } }),
      }),
    }),
  },
);

builder.relayMutationField(
  'deletePullRequestReview',
  { inputFields: (t) => ({ pullRequestReviewId: t.globalID({ required: true }) }) },
  {
    description:
      'Delete a review with its line comments: its author or a site admin (the service of DELETE /api/v1/repos/{o}/{r}/pulls/{index}/reviews/{id}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const loc = await locateReviewById(ctx.cx, dbIdOf(input.pullRequestReviewId, 'PullRequestReview'));
      await reviewUndo.deleteReview(ctx.cx, loc.ref, loc.index, loc.id);
      return { ref: loc.ref, index: loc.index };
    },
  },
  {
    outputFields: (t) => ({
      pullRequest: t.prismaField({
        type: PullRequestRef,
        nullable: true,
        description: 'The pull request the review was on.',
        resolve: (query, p, _args, ctx) =>
          ctx.cx.db.pullRequest.findFirst({
            ...query,
            where: { index: p.index, baseRepo: { ownerName: p.ref.owner, lowerName: p.ref.repo.toLowerCase() } },
          }),
      }),
    }),
  },
);

builder.relayMutationField(
  'dismissPullRequestReview',
  {
    inputFields: (t) => ({
      pullRequestReviewId: t.globalID({ required: true }),
      message: t.string({ required: true }),
      priors: t.boolean({ description: "Also dismiss the reviewer's earlier verdicts (Gitea)." }),
    }),
  },
  {
    description: 'Dismiss an approval or rejection: repository admins, open pull requests (the service of POST …/reviews/{id}/dismissals).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const loc = await locateReviewById(ctx.cx, dbIdOf(input.pullRequestReviewId, 'PullRequestReview'));
      const view = await reviewUndo.setReviewDismissed(ctx.cx, loc.ref, loc.index, loc.id, true, {
        message: input.message,
        priors: opt(input.priors),
      });
      return { reviewId: view.review.id };
    },
  },
  {
    outputFields: (t) => ({
      pullRequestReview: t.prismaField({
        type: PullRequestReviewRef,
        nullable: true,
        resolve: (query, p, _a, ctx) => ctx.cx.db.review.findFirst({ ...query, where: { id: p.reviewId } }),
      }),
    }),
  },
);

for (const [name, byLogin] of [
  ['requestReviews', false],
  ['requestReviewsByLogin', true],
] as const) {
  builder.relayMutationField(
    name,
    {
      inputFields: (t) => ({
        pullRequestId: t.globalID({ required: true }),
        ...(byLogin
          ? {}
          : {
              userIds: t.globalIDList({ description: 'Users to request reviews from.' }),
              teamIds: t.globalIDList({ description: "Teams of the repository's organization." }),
            }),
        userLogins: t.stringList({ description: 'Users by login (or e-mail address).' }),
        teamSlugs: t.stringList({ description: "Teams by name, of the repository's organization." }),
        union: t.boolean({ defaultValue: false, description: 'Add to the requested reviewers instead of replacing them.' }),
      }),
    },
    {
      description:
        'Request reviews (the service of POST/DELETE /api/v1/repos/{o}/{r}/pulls/{index}/requested_reviewers): without `union`, pending requests of anyone not listed are withdrawn.',
      ...writeScope('repository'),
      resolve: async (_root, { input }, ctx) => {
        const loc = await locatePullById(ctx.cx, dbIdOf(input.pullRequestId, 'PullRequest'));
        const ids = input as { userIds?: GlobalId[] | null; teamIds?: GlobalId[] | null };
        await requestService.setReviewRequests(
          ctx.cx,
          loc.ref,
          loc.index,
          {
            reviewers: input.userLogins ?? [],
            teamReviewers: input.teamSlugs ?? [],
            reviewerIds: (ids.userIds ?? []).map((id) => dbIdOf(id, 'User')),
            teamIds: (ids.teamIds ?? []).map((id) => dbIdOf(id, 'Team')),
          },
          input.union ?? false,
        );
        return loc;
      },
    },
    {
      outputFields: (t) => ({
        pullRequest: t.prismaField({
          type: PullRequestRef,
          nullable: true,
          resolve: (query, p, _args, ctx) =>
            ctx.cx.db.pullRequest.findFirst({
              ...query,
              where: { index: p.index, baseRepo: { ownerName: p.ref.owner, lowerName: p.ref.repo.toLowerCase() } },
            }),
        }),
      }),
    },
  );
}
