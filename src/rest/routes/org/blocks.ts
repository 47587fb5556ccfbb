import * as blockService from '../../../services/user/block.ts';
import { defineRoute } from '../../route.ts';
import { BlockUserQuery, blockList, checkBlocked } from '../user/blocks.ts';

/** /orgs/{org}/blocks: list, check, block, unblock (organization owners and site admins). */
export const orgBlockRoutes = [
  blockList(
    {
      path: '/orgs/{org}/blocks',
      operationId: 'organizationListBlocks',
      summary: 'List users blocked by the organization',
      tag: 'organization',
      scopes: ['organization'],
      errors: [401, 403, 404],
    },
    (params) => ({ org: params.org ?? '' }),
  ),
  defineRoute({
    method: 'GET',
    path: '/orgs/{org}/blocks/{username}',
    operationId: 'organizationCheckUserBlock',
    summary: 'Check if a user is blocked by the organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: ({ cx, params }) => checkBlocked(cx, { org: params.org ?? '' }, params.username ?? ''),
  }),
  defineRoute({
    method: 'PUT',
    path: '/orgs/{org}/blocks/{username}',
    operationId: 'organizationBlockUser',
    summary: 'Block a user',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    query: BlockUserQuery,
    success: { status: 204 },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, query }) => {
      await blockService.blockUser(cx, { org: params.org ?? '' }, params.username ?? '', query.note ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/orgs/{org}/blocks/{username}',
    operationId: 'organizationUnblockUser',
    summary: 'Unblock a user',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await blockService.unblockUser(cx, { org: params.org ?? '' }, params.username ?? '');
    },
  }),
];
