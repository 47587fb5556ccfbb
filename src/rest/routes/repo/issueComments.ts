import * as commentService from '../../../services/issue/comment.ts';
import { listTimeline } from '../../../services/issue/timeline.ts';
import { toApiComment, toApiCommentList, toApiTimeline } from '../../convert/comment.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { setTotalCount } from '../../pagination.ts';
import { idParam, indexParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CommentListQuery, CreateIssueCommentOption, EditIssueCommentOption } from '../../structs/comment.ts';

const window = (query: { since?: Date | undefined; before?: Date | undefined }): commentService.TimeWindow => ({
  since: query.since,
  before: query.before,
});

const COMMENT_ID = { id: idOf('comment') };

const editRoute = (deprecated: boolean) =>
  defineRoute({
    method: 'PATCH',
    path: deprecated ? '/repos/{owner}/{repo}/issues/{index}/comments/{id}' : '/repos/{owner}/{repo}/issues/comments/{id}',
    operationId: deprecated ? 'issueEditCommentDeprecated' : 'issueEditComment',
    summary: deprecated ? 'Edit a comment (deprecated: the index is ignored)' : 'Edit a comment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: COMMENT_ID,
    body: EditIssueCommentOption,
    success: { status: 200, schema: 'Comment' },
    also: [{ status: 204, description: 'the comment type has no content' }],
    errors: deprecated ? [401, 403, 404, 422] : [401, 403, 404, 422, 423],
    ...(deprecated ? { deprecated: true } : {}),
    handler: async ({ cx, params, body, reply }) => {
      const view = await commentService.editComment(cx, repoRef(params), idParam(params), body.body, deprecated ? 'deprecated' : 'current');
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
    params: COMMENT_ID,
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    ...(deprecated ? { deprecated: true } : {}),
    handler: async ({ cx, params }) => {
      await commentService.deleteComment(cx, repoRef(params), idParam(params));
    },
  });

/** Issue comments (Gitea routers/api/v1/repo/issue_comment.go) and the issue timeline. */
export const issueCommentRoutes: readonly RouteDef[] = [
  defineList({
    path: '/repos/{owner}/{repo}/issues/comments',
    operationId: 'issueGetRepoComments',
    summary: 'List all comments in a repository',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: CommentListQuery,
    headers: 'link',
    schema: '[Comment]',
    errors: [404, 422],
    load: ({ cx, params, query, page }) => commentService.listRepoComments(cx, repoRef(params), { ...window(query), page }),
    convert: (result, { cx }) => toApiCommentList(result.items, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/comments/{id}',
    operationId: 'issueGetComment',
    summary: 'Get a comment',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: COMMENT_ID,
    success: { status: 200, schema: 'Comment' },
    also: [{ status: 204, description: 'the comment type has no content' }],
    errors: [404],
    handler: async ({ cx, params, reply }) => {
      const view = await commentService.getComment(cx, repoRef(params), idParam(params));
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
      const views = await commentService.listIssueComments(cx, repoRef(params), indexParam(params), window(query));
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
      toApiComment(await commentService.createComment(cx, repoRef(params), indexParam(params), body.body), convertOptions(cx)),
  }),
  editRoute(true),
  deleteRoute(true),
  defineList({
    path: '/repos/{owner}/{repo}/issues/{index}/timeline',
    operationId: 'issueGetCommentsAndTimeline',
    summary: 'List all comments and events on an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: CommentListQuery,
    // Gitea counts what this page shows (after dropping references the viewer may not see), and sends no Link.
    headers: 'count',
    schema: '[TimelineComment]',
    errors: [404, 422],
    load: async ({ cx, params, query, page }) => {
      const views = await listTimeline(cx, repoRef(params), indexParam(params), { ...window(query), page });
      return { items: views, total: views.length };
    },
    convert: (result, { cx }) => toApiTimeline(result.items, cx.viewer, convertOptions(cx)),
  }),
];
