import * as avatarService from '../../../services/avatar/avatar.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { UpdateRepoAvatarOption, UpdateUserAvatarOption } from '../../structs/avatar.ts';

/** Avatar uploads and removals of the signed-in user, organizations and repositories (base64 images). */
export const avatarRoutes = [
  defineRoute({
    method: 'POST',
    path: '/user/avatar',
    operationId: 'userUpdateAvatar',
    summary: 'Update Avatar',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    body: UpdateUserAvatarOption,
    success: { status: 204 },
    errors: [400, 401, 403, 422],
    handler: async ({ cx, body }) => {
      await avatarService.updateUserAvatar(cx, body.image ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/user/avatar',
    operationId: 'userDeleteAvatar',
    summary: 'Delete Avatar',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403],
    handler: async ({ cx }) => {
      await avatarService.deleteUserAvatar(cx);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/orgs/{org}/avatar',
    operationId: 'orgUpdateAvatar',
    summary: 'Update Avatar',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    body: UpdateUserAvatarOption,
    success: { status: 204 },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await avatarService.updateOrgAvatar(cx, params.org ?? '', body.image ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/orgs/{org}/avatar',
    operationId: 'orgDeleteAvatar',
    summary: 'Delete Avatar',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await avatarService.deleteOrgAvatar(cx, params.org ?? '');
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/avatar',
    operationId: 'repoUpdateAvatar',
    summary: 'Update avatar',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: UpdateRepoAvatarOption,
    success: { status: 204 },
    errors: [400, 401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      await avatarService.updateRepoAvatar(cx, repoRef(params), body.image ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/avatar',
    operationId: 'repoDeleteAvatar',
    summary: 'Delete avatar',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await avatarService.deleteRepoAvatar(cx, repoRef(params));
    },
  }),
];
