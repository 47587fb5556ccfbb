import { z } from 'zod';
import * as userService from '../../../services/user/user.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUser, toApiUserList } from '../../convert/user.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';
import { zQueryInt } from '../../validation.ts';

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
  defineRoute({
    method: 'GET',
    path: '/users/search',
    operationId: 'userSearch',
    summary: 'Search for users',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    query: z.object({ q: z.string().optional(), uid: zQueryInt }),
    success: { status: 200, schema: 'UserSearchResults' },
    handler: async ({ cx, query, req, reply }) => {
      const opts = listOptions(req.query as Record<string, unknown>);
      const page = await userService.searchUsers(cx, { ...opts, q: query.q, uid: query.uid });
      setPaginationHeaders(req, reply, cx.config.rootUrl, page.total, opts);
      return { ok: true, data: toApiUserList(page.items, cx.viewer, convertOptions(cx)) };
    },
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
