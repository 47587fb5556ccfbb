import { z } from 'zod';
import * as userService from '../../../services/user/user.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUser, toApiUserList } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { qInt, qString } from '../../params.ts';
import { defineRoute } from '../../route.ts';

export const userRoutes = [
  defineRoute({
    method: 'GET',
    path: '/user',
    operationId: 'userGetCurrent',
    summary: 'Get the authenticated user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 200, schema: 'User' },
    errors: [401],
    handler: async ({ cx }) => toApiUser(userService.getViewer(cx), cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/users/search',
    operationId: 'userSearch',
    summary: 'Search for users',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    query: z.object({ q: qString('keyword'), uid: qInt('ID of the user to search for') }),
    headers: 'link',
    schema: 'UserSearchResults',
    load: ({ cx, query, page }) => userService.searchUsers(cx, { ...page, q: query.q, uid: query.uid }),
    convert: (result, { cx }) => ({ ok: true, data: toApiUserList(result.items, cx.viewer, convertOptions(cx)) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{username}',
    operationId: 'userGet',
    summary: 'Get a user',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    success: { status: 200, schema: 'User' },
    errors: [404],
    handler: async ({ cx, params }) => {
      const user = await userService.getUserByName(cx, params.username ?? '');
      return toApiUser(user, cx.viewer, convertOptions(cx));
    },
  }),
];
