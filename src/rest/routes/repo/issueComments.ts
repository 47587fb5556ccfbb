import { ValidationError } from '../../../errors.ts';
import type { RepoRef } from '../../../services/access/repoAccess.ts';
import * as commentService from '../../../services/issue/comment.ts';
import { listTimeline } from '../../../services/issue/timeline.ts';
import { toApiComment, toApiCommentList, toApiTimeline } from '../../convert/comment.ts';
import { convertOptions } from '../../convert/options.ts';
import { listOptions, setPaginationHeaders, setTotalCount } from '../../pagination.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CommentListQuery, CreateIssueCommentOption, EditIssueCommentOption } from '../../structs/comment.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** Gitea ParamsInt64: anything but an integer reads as 0 (then 404). */
const intParam = (value: string | undefined): number => (/^\d+$/.test(value ?? '') ? Number(value) : 0);

/** Gitea GetQueryBeforeSince: RFC 3339, 422 otherwise. */
function timeParam(value: string | undefined, field: string): Date | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(d.getTime()))
    throw new ValidationError(`parsing time "${value}" as RFC3339 failed`, { field });
  return d;
}

const window = (query: { since?: string | undefined; before?: string | undefined }): commentService.TimeWindow => ({
  since: timeParam(query.since, 'since'),
  before: timeParam(query.before, 'before'),
});

const editRoute = (deprecated: boolean) =>
  defineRoute({
    method: 'PATCH',
    path: deprecated ? '/repos/{owner}/{repo}/issues/{index}/comments/{id}' : '/repos/{owner}/{repo}/issues/comments/{id}',
    operationId: deprecated ? 'issueEditCommentDeprecated' : 'issueEditComment',
    summary: deprecated ? 'Edit a comment (deprecated: the index is ignored)' : 'Edit a comment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditIssueCommentOption,
    success: { status: 200, schema: 'Comment' },
    errors: deprecated ? [401, 403, 404, 422] : [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body, reply }) => {
      const view = await commentService.editComment(cx, ref(params), intParam(params.id), body.body, deprecated ? 'deprecated' : 'current');
      if (!view) return reply.code(204).send();
      return toApiComment(view, convertOptions(cx));
    },
  });

const deleteRoute = (deprecated: boolean) =>
  defineRoute({
    method: 'DELETE',
    path: deprecated ? '/repos/{owner}/{repo}/issues/{index}/comments/{id}' : '/repos/{owner}/{repo}/issues/comments/{id}',
    operationId: deprecated ? 'issueDeleteCommentDeprecated' : 'issueDeleteComment',
    summary: deprecated ? 'Delete a comment (deprecated: the index is ignored)' : 'Delete a comment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await commentService.deleteComment(cx, ref(params), intParam(params.id));
    },
  });

/** Issue comments (Gitea routers/api/v1/repo/issue_comment.go) and the issue timeline. */
export const issueCommentRoutes: readonly RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/comments',
    operationId: 'issueGetRepoComments',
    summary: 'List all comments in a repository',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: CommentListQuery,
    success: { status: 200, schema: '[Comment]' },
    errors: [404, 422],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await commentService.listRepoComments(cx, ref(params), { ...window(query), page });
      setPaginationHeaders(req, reply, cx.config.rootUrl, result.total, page);
      return toApiCommentList(result.items, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/comments/{id}',
    operationId: 'issueGetComment',
    summary: 'Get a comment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: 'Comment' },
    errors: [404],
    handler: async ({ cx, params, reply }) => {
      const view = await commentService.getComment(cx, ref(params), intParam(params.id));
      if (!view) return reply.code(204).send();
      return toApiComment(view, convertOptions(cx));
    },
  }),
  editRoute(false),
  deleteRoute(false),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/comments',
    operationId: 'issueGetComments',
    summary: 'List all comments on an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: CommentListQuery,
    success: { status: 200, schema: '[Comment]' },
    errors: [404, 422],
    handler: async ({ cx, params, query, reply }) => {
      const views = await commentService.listIssueComments(cx, ref(params), intParam(params.index), window(query));
      setTotalCount(reply, views.length);
      return toApiCommentList(views, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/comments',
    operationId: 'issueCreateComment',
    summary: 'Add a comment to an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: CreateIssueCommentOption,
    success: { status: 201, schema: 'Comment' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiComment(await commentService.createComment(cx, ref(params), intParam(params.index), body.body), convertOptions(cx)),
  }),
  editRoute(true),
  deleteRoute(true),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/timeline',
    operationId: 'issueGetCommentsAndTimeline',
    summary: 'List all comments and events on an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: CommentListQuery,
    success: { status: 200, schema: '[TimelineComment]' },
    errors: [404, 422],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const views = await listTimeline(cx, ref(params), intParam(params.index), { ...window(query), page });
      // Gitea counts what this page shows (after dropping references the viewer may not see), and sends no Link.
      setTotalCount(reply, views.length);
      return toApiTimeline(views, cx.viewer, convertOptions(cx));
    },
  }),
];
