import * as reviewService from '../../../services/pull/review.ts';
import * as reviewUndo from '../../../services/pull/reviewUndo.ts';
import * as requestService from '../../../services/pull/reviewRequest.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiPullReview, toApiPullReviewComment, toApiPullReviewList } from '../../convert/review.ts';
import { defineList } from '../../list.ts';
import { idParam, indexParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import {
  CreatePullReviewOptions,
  DismissPullReviewOptions,
  PullReviewRequestOptions,
  SubmitPullReviewOptions,
} from '../../structs/review.ts';

const REVIEW = '/repos/{owner}/{repo}/pulls/{index}/reviews/{id}';
const REVIEW_ID = { id: idOf('review') };

/** Dismissal and its undoing share one service; undismissals take no body. */
const dismissRoute = (dismiss: boolean) =>
  dismiss
    ? defineRoute({
        method: 'POST',
        path: `${REVIEW}/dismissals`,
        operationId: 'repoDismissPullReview',
        summary: 'Dismiss a review for a pull request',
        tag: 'repository',
        scopes: ['repository'],
        gate: 'none',
        params: REVIEW_ID,
        body: DismissPullReviewOptions,
        success: { status: 200, schema: 'PullReview' },
        errors: [401, 403, 404, 422],
        handler: async ({ cx, params, body }) => {
          const input = { message: body.message ?? undefined, priors: body.priors ?? undefined };
          const view = await reviewUndo.setReviewDismissed(cx, repoRef(params), indexParam(params), idParam(params), true, input);
          return toApiPullReview(view, cx.viewer, convertOptions(cx));
        },
      })
    : defineRoute({
        method: 'POST',
        path: `${REVIEW}/undismissals`,
        operationId: 'repoUnDismissPullReview',
        summary: 'Cancel to dismiss a review for a pull request',
        tag: 'repository',
        scopes: ['repository'],
        gate: 'none',
        params: REVIEW_ID,
        success: { status: 200, schema: 'PullReview' },
        errors: [401, 403, 404, 422],
        handler: async ({ cx, params }) => {
          const view = await reviewUndo.setReviewDismissed(cx, repoRef(params), indexParam(params), idParam(params), false);
          return toApiPullReview(view, cx.viewer, convertOptions(cx));
        },
      });

/** Pull request reviews and review requests (Gitea routers/api/v1/repo/pull_review.go). */
export const pullReviewRoutes: readonly RouteDef[] = [
  defineList({
    path: '/repos/{owner}/{repo}/pulls/{index}/reviews',
    operationId: 'repoListPullReviews',
    summary: 'List all reviews for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'count',
    schema: '[PullReview]',
    errors: [403, 404],
    load: ({ cx, params, page }) => reviewService.listReviews(cx, repoRef(params), indexParam(params), page),
    convert: (result, { cx }) => toApiPullReviewList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls/{index}/reviews',
    operationId: 'repoCreatePullReview',
    summary: 'Create a review to an pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: CreatePullReviewOptions,
    success: { status: 200, schema: 'PullReview' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const view = await reviewService.createReview(cx, repoRef(params), indexParam(params), {
        event: body.event ?? undefined,
        body: body.body ?? undefined,
        commitId: body.commit_id ?? undefined,
        comments: (body.comments ?? []).map((c) => ({
          path: c.path ?? undefined,
          body: c.body ?? undefined,
          oldPosition: c.old_position ?? undefined,
          newPosition: c.new_position ?? undefined,
        })),
      });
      return toApiPullReview(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: REVIEW,
    operationId: 'repoGetPullReview',
    summary: 'Get a specific review for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: REVIEW_ID,
    success: { status: 200, schema: 'PullReview' },
    errors: [403, 404],
    handler: async ({ cx, params }) => {
      const view = await reviewService.getReview(cx, repoRef(params), indexParam(params), idParam(params));
      return toApiPullReview(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'POST',
    path: REVIEW,
    operationId: 'repoSubmitPullReview',
    summary: 'Submit a pending review to an pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: REVIEW_ID,
    body: SubmitPullReviewOptions,
    success: { status: 200, schema: 'PullReview' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const input = { event: body.event ?? undefined, body: body.body ?? undefined };
      const view = await reviewService.submitReview(cx, repoRef(params), indexParam(params), idParam(params), input);
      return toApiPullReview(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: REVIEW,
    operationId: 'repoDeletePullReview',
    summary: 'Delete a specific review from a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: REVIEW_ID,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await reviewUndo.deleteReview(cx, repoRef(params), indexParam(params), idParam(params));
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${REVIEW}/comments`,
    operationId: 'repoGetPullReviewComments',
    summary: 'Get a specific review for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: REVIEW_ID,
    success: { status: 200, schema: '[PullReviewComment]' },
    errors: [403, 404],
    handler: async ({ cx, params }) => {
      const { view, comments } = await reviewService.listReviewComments(cx, repoRef(params), indexParam(params), idParam(params));
      const opts = convertOptions(cx);
      return comments.map((c) => toApiPullReviewComment(c, view, cx.viewer, opts));
    },
  }),
  dismissRoute(true),
  dismissRoute(false),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/pulls/{index}/requested_reviewers',
    operationId: 'repoCreatePullReviewRequests',
    summary: 'create review requests for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: PullReviewRequestOptions,
    success: { status: 201, schema: '[PullReview]' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const views = await requestService.addReviewRequests(cx, repoRef(params), indexParam(params), {
        reviewers: body.reviewers ?? [],
        teamReviewers: body.team_reviewers ?? [],
      });
      return toApiPullReviewList(views, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/pulls/{index}/requested_reviewers',
    operationId: 'repoDeletePullReviewRequests',
    summary: 'cancel review requests for a pull request',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: PullReviewRequestOptions,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await requestService.removeReviewRequests(cx, repoRef(params), indexParam(params), {
        reviewers: body.reviewers ?? [],
        teamReviewers: body.team_reviewers ?? [],
      });
    },
  }),
];
