import { z } from 'zod';
import { NotFoundError } from '../../../errors.ts';
import type { ServiceContext } from '../../../services/context.ts';
import * as blockService from '../../../services/user/block.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { defineList, type ListDef } from '../../list.ts';
import { qString } from '../../params.ts';
import { defineRoute, type RouteDef } from '../../route.ts';

/** Query of PUT …/blocks/{username}: the optional `note` (first value wins, like Gitea's FormString). */
export const BlockUserQuery = z.object({ note: qString('optional note for the block') });

/** GET …/blocks of a blocker: the blocked users, converted as Gitea does (the blocker as the viewer). */
export function blockList(
  doc: Pick<ListDef<z.ZodObject, blockService.BlockPage>, 'path' | 'operationId' | 'summary' | 'tag' | 'scopes' | 'errors'>,
  ref: (params: Record<string, string>) => blockService.BlockerRef,
): RouteDef {
  return defineList({
    ...doc,
    gate: 'token',
    headers: 'link',
    schema: '[User]',
    load: ({ cx, params, page }) => blockService.listBlocks(cx, ref(params), page),
    convert: (result, { cx }) => toApiUserList(result.items, result.blocker, convertOptions(cx)),
  });
}

/** GET …/blocks/{username}: 204 when blocked, 404 otherwise. */
export async function checkBlocked(cx: ServiceContext, ref: blockService.BlockerRef, username: string): Promise<void> {
  if (!(await blockService.isBlocked(cx, ref, username))) throw new NotFoundError('not found');
}

/** /user/blocks: the signed-in user's list, check, block, unblock. */
export const userBlockRoutes = [
  blockList(
    {
      path: '/user/blocks',
      operationId: 'userListBlocks',
      summary: 'List users blocked by the authenticated user',
      tag: 'user',
      scopes: ['user'],
      errors: [401, 403],
    },
    () => ({}),
  ),
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
