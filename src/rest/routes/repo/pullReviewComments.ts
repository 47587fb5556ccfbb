import * as threadService from '../../../services/pull/reviewThread.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPullReviewComment } from '../../convert/review.ts';
import { idParam, indexParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CreatePullReviewCommentReplyOptions } from '../../structs/review.ts';

const COMMENT_ID = { id: idOf('review comment') };

/** Resolving a conversation and undoing it share one service. */
const markRoute = (resolved: boolean) =>
  defineRoute({
    method: 'POST',
    path: `/repos/{owner}/{repo}/pulls/comments/{id}/${resolved ? 'resolve' : 'unresolve'}`,
    operationId: resolved ? 'repoResolvePullReviewComment' : 'repoUnresolvePullReviewComment',
    summary: `${resolved ? 'Resolve' : 'Unresolve'} a pull request review comment`,
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: COMMENT_ID,
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await threadService.markConversation(cx, repoRef(params), idParam(params), resolved);
    },
  });

/** Conversations of review comments: resolve, unresolve, reply (Gitea routers/api/v1/repo/pull_review.go). */
export const pullReviewCommentRoutes: readonly RouteDef[] = [
  markRoute(true),
  markRoute(false),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls/{index}/comments/{id}/replies',
    operationId: 'repoCreatePullReviewCommentReply',
    summary: 'Reply to a pull request review comment',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: { id: idOf('review comment to reply to') },
    body: CreatePullReviewCommentReplyOptions,
    success: { status: 201, schema: 'PullReviewComment' },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const { comment, view } = await threadService.replyToReviewComment(
        cx,
        repoRef(params),
        indexParam(params),
        idParam(params),
        body.body ?? undefined,
      );
      return toApiPullReviewComment(comment, view, cx.viewer, convertOptions(cx));
    },
  }),
];
