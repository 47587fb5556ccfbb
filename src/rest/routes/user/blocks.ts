import { z } from 'zod';
import { NotFoundError } from '../../../errors.ts';
import type { ServiceContext } from '../../../services/context.ts';
import * as blockService from '../../../services/user/block.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute, type ApiInput } from '../../route.ts';

/** Query of PUT …/blocks/{username}: the optional `note` (first value wins, like Gitea's FormString). */
export const BlockUserQuery = z.object({
  note: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().optional()),
});

/** GET …/blocks for a blocker: the blocked users, converted as Gitea does (the blocker as the viewer). */
export async function listBlocked({ cx, req, reply }: ApiInput<undefined, undefined>, ref: blockService.BlockerRef) {
  const opts = listOptions(req.query as Record<string, unknown>);
  const page = await blockService.listBlocks(cx, ref, opts);
  setPaginationHeaders(req, reply, cx.config.rootUrl, page.total, opts);
  return toApiUserList(page.items, page.blocker, convertOptions(cx));
}

/** GET …/blocks/{username}: 204 when blocked, 404 otherwise. */
export async function checkBlocked(cx: ServiceContext, ref: blockService.BlockerRef, username: string): Promise<void> {
  if (!(await blockService.isBlocked(cx, ref, username))) throw new NotFoundError('not found');
}

/** /user/blocks: the signed-in user's list, check, block, unblock. */
export const userBlockRoutes = [
  defineRoute({
    method: 'GET',
    path: '/user/blocks',
    operationId: 'userListBlocks',
    summary: 'List users blocked by the authenticated user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 200, schema: '[User]' },
    errors: [401, 403],
    handler: (input) => listBlocked(input, {}),
  }),
  defineRoute({
    method: 'GET',
    path: '/user/blocks/{username}',
    operationId: 'userCheckUserBlock',
    summary: 'Check if a user is blocked by the authenticated user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 404],
    handler: ({ cx, params }) => checkBlocked(cx, {}, params.username ?? ''),
  }),
  defineRoute({
    method: 'PUT',
    path: '/user/blocks/{username}',
    operationId: 'userBlockUser',
    summary: 'Block a user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    query: BlockUserQuery,
    success: { status: 204 },
    errors: [400, 401, 404, 422],
    handler: async ({ cx, params, query }) => {
      await blockService.blockUser(cx, {}, params.username ?? '', query.note ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/user/blocks/{username}',
    operationId: 'userUnblockUser',
    summary: 'Unblock a user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 204 },
    errors: [400, 401, 404],
    handler: async ({ cx, params }) => {
      await blockService.unblockUser(cx, {}, params.username ?? '');
    },
  }),
];
