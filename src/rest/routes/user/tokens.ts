import * as tokenService from '../../../services/user/token.ts';
import { toApiAccessToken } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { defineRoute } from '../../route.ts';
import { CreateAccessTokenOption } from '../../structs/user.ts';

export const tokenRoutes = [
  defineList({
    path: '/users/{username}/tokens',
    operationId: 'userGetTokens',
    summary: "List the authenticated user's access tokens",
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    headers: 'count',
    schema: '[AccessToken]',
    errors: [401, 403, 404],
    load: ({ cx, params, page }) => tokenService.listAccessTokens(cx, params.username ?? '', page),
    convert: (result) => result.items.map((t) => toApiAccessToken(t)),
  }),
  defineRoute({
    method: 'POST',
    path: '/users/{username}/tokens',
    operationId: 'userCreateToken',
    summary: 'Create an access token',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    body: CreateAccessTokenOption,
    success: { status: 201, schema: 'AccessToken' },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const created = await tokenService.createAccessToken(cx, {
        username: params.username ?? '',
        name: body.name,
        scopes: body.scopes ?? [],
      });
      return toApiAccessToken(created.token, created.secret);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/users/{username}/tokens/{token}',
    operationId: 'userDeleteAccessToken',
    summary: 'Delete an access token',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await tokenService.deleteAccessToken(cx, { username: params.username ?? '', token: params.token ?? '' });
    },
  }),
];
