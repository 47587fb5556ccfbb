import * as settingsService from '../../../services/user/settings.ts';
import * as tokenService from '../../../services/user/token.ts';
import { toApiAccessToken, toApiCurrentAccessToken, toApiUserSettings } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { defineRoute } from '../../route.ts';
import { CreateAccessTokenOption, UserSettingsOptions } from '../../structs/user.ts';

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
  defineRoute({
    method: 'GET',
    path: '/token',
    operationId: 'getCurrentToken',
    summary: 'Get the currently authenticated token',
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'CurrentAccessToken' },
    errors: [404],
    handler: async ({ cx }) => {
      const { token, owner } = await settingsService.getCurrentToken(cx);
      return toApiCurrentAccessToken(token, owner);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/token',
    operationId: 'deleteCurrentToken',
    summary: 'Delete the currently authenticated token',
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    success: { status: 204, description: 'token deleted' },
    errors: [404],
    handler: async ({ cx }) => {
      await settingsService.deleteCurrentToken(cx);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user/settings',
    operationId: 'getUserSettings',
    summary: 'Get user settings',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 200, schema: 'UserSettings' },
    errors: [401, 403],
    handler: async ({ cx }) => toApiUserSettings(settingsService.getUserSettings(cx)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/user/settings',
    operationId: 'updateUserSettings',
    summary: 'Update user settings',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    body: UserSettingsOptions,
    success: { status: 200, schema: 'UserSettings' },
    errors: [401, 403, 422],
    handler: async ({ cx, body }) =>
      toApiUserSettings(
        await settingsService.updateUserSettings(cx, {
          fullName: body.full_name ?? undefined,
          website: body.website ?? undefined,
          description: body.description ?? undefined,
          location: body.location ?? undefined,
          language: body.language ?? undefined,
          theme: body.theme ?? undefined,
          diffViewStyle: body.diff_view_style ?? undefined,
          hideEmail: body.hide_email ?? undefined,
          hideActivity: body.hide_activity ?? undefined,
        }),
      ),
  }),
];
