import * as reactionService from '../../../services/issue/reaction.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiReaction, toApiReactionList } from '../../convert/reaction.ts';
import { defineList } from '../../list.ts';
import { idParam, indexParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { EditReactionOption } from '../../structs/reaction.ts';

/** /repos/{o}/{r}/issues/{index}/reactions and /repos/{o}/{r}/issues/comments/{id}/reactions (Gitea issue_reaction.go). */
export const issueReactionRoutes: readonly RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/reactions',
    operationId: 'issueGetCommentReactions',
    summary: 'Get a list of reactions from a comment of an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOf('comment') },
    success: { status: 200, schema: '[Reaction]', nullable: true },
    errors: [403, 404],
    handler: async ({ cx, params }) =>
      toApiReactionList(await reactionService.listCommentReactions(cx, repoRef(params), idParam(params)), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/reactions',
    operationId: 'issuePostCommentReaction',
    summary: 'Add a reaction to a comment of an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOf('comment') },
    body: EditReactionOption,
    success: { status: 201, schema: 'Reaction' },
    also: [{ status: 200, schema: 'Reaction', description: 'the reaction already existed' }],
    errors: [401, 403, 404],
    handler: async ({ cx, params, body, reply }) => {
      const { reaction, created } = await reactionService.createCommentReaction(cx, repoRef(params), idParam(params), body.content ?? '');
      reply.code(created ? 201 : 200);
      return reply.send(toApiReaction(reaction, cx.viewer, convertOptions(cx)));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/reactions',
    operationId: 'issueDeleteCommentReaction',
    summary: 'Remove a reaction from a comment of an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOf('comment') },
    body: EditReactionOption,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params, body }) => {
      await reactionService.deleteCommentReaction(cx, repoRef(params), idParam(params), body.content ?? '');
    },
  }),
  defineList({
    path: '/repos/{owner}/{repo}/issues/{index}/reactions',
    operationId: 'issueGetIssueReactions',
    summary: 'Get a list reactions of an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    headers: 'count',
    schema: '[Reaction]',
    nullable: true,
    errors: [403, 404],
    load: ({ cx, params, page }) => reactionService.listIssueReactions(cx, repoRef(params), indexParam(params), page),
    convert: (result, { cx }) => toApiReactionList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/reactions',
    operationId: 'issuePostIssueReaction',
    summary: 'Add a reaction to an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditReactionOption,
    success: { status: 201, schema: 'Reaction' },
    also: [{ status: 200, schema: 'Reaction', description: 'the reaction already existed' }],
    errors: [401, 403, 404],
    handler: async ({ cx, params, body, reply }) => {
      const { reaction, created } = await reactionService.createIssueReaction(cx, repoRef(params), indexParam(params), body.content ?? '');
      reply.code(created ? 201 : 200);
      return reply.send(toApiReaction(reaction, cx.viewer, convertOptions(cx)));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/reactions',
    operationId: 'issueDeleteIssueReaction',
    summary: 'Remove a reaction from an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditReactionOption,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params, body }) => {
      await reactionService.deleteIssueReaction(cx, repoRef(params), indexParam(params), body.content ?? '');
    },
  }),
];
