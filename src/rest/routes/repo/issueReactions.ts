import type { RepoRef } from '../../../services/access/repoAccess.ts';
import * as reactionService from '../../../services/issue/reaction.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiReaction, toApiReactionList } from '../../convert/reaction.ts';
import { listOptions, setTotalCount } from '../../pagination.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { EditReactionOption } from '../../structs/reaction.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** Gitea ParamsInt64: anything but an integer reads as 0 (then 404). */
const intParam = (value: string | undefined): number => (/^\d+$/.test(value ?? '') ? Number(value) : 0);

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
    success: { status: 200, schema: '[Reaction]' },
    errors: [403, 404],
    handler: async ({ cx, params }) =>
      toApiReactionList(await reactionService.listCommentReactions(cx, ref(params), intParam(params.id)), cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/comments/{id}/reactions',
    operationId: 'issuePostCommentReaction',
    summary: 'Add a reaction to a comment of an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: EditReactionOption,
    success: { status: 201, schema: 'Reaction' },
    errors: [401, 403, 404],
    handler: async ({ cx, params, body, reply }) => {
      const { reaction, created } = await reactionService.createCommentReaction(cx, ref(params), intParam(params.id), body.content ?? '');
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
    body: EditReactionOption,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params, body }) => {
      await reactionService.deleteCommentReaction(cx, ref(params), intParam(params.id), body.content ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/reactions',
    operationId: 'issueGetIssueReactions',
    summary: 'Get a list reactions of an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: '[Reaction]' },
    errors: [403, 404],
    handler: async ({ cx, params, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await reactionService.listIssueReactions(cx, ref(params), intParam(params.index), page);
      setTotalCount(reply, result.total);
      return toApiReactionList(result.items, cx.viewer, convertOptions(cx));
    },
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
    errors: [401, 403, 404],
    handler: async ({ cx, params, body, reply }) => {
      const { reaction, created } = await reactionService.createIssueReaction(cx, ref(params), intParam(params.index), body.content ?? '');
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
      await reactionService.deleteIssueReaction(cx, ref(params), intParam(params.index), body.content ?? '');
    },
  }),
];
