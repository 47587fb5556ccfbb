import { NotFoundError } from '../../../errors.ts';
import type { ServiceContext } from '../../../services/context.ts';
import type { Page } from '../../../services/paging.ts';
import * as followService from '../../../services/user/follow.ts';
import type { Models } from '../../../db/client.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { defineRoute } from '../../route.ts';

const userList = (result: Page<Models.User>, { cx }: { cx: ServiceContext }) => toApiUserList(result.items, cx.viewer, convertOptions(cx));

/** 204 when following, Gitea's bare 404 otherwise. */
async function check(cx: ServiceContext, username: string | null, target: string): Promise<void> {
  if (!(await followService.checkFollowing(cx, username, target))) throw new NotFoundError('not following');
}

// Gitea answers these lists with X-Total-Count and no Link header (SetTotalCountHeader only).
/** /user/followers, /user/following[/{username}], /users/{username}/followers, /users/{username}/following[/{target}]. */
export const followRoutes = [
  defineList({
    path: '/user/followers',
    operationId: 'userCurrentListFollowers',
    summary: "List the authenticated user's followers",
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    headers: 'count',
    schema: '[User]',
    errors: [401, 403],
    load: ({ cx, page }) => followService.listFollowers(cx, null, page),
    convert: userList,
  }),
  defineList({
    path: '/user/following',
    operationId: 'userCurrentListFollowing',
    summary: 'List the users that the authenticated user is following',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    headers: 'count',
    schema: '[User]',
    errors: [401, 403],
    load: ({ cx, page }) => followService.listFollowing(cx, null, page),
    convert: userList,
  }),
  defineRoute({
    method: 'GET',
    path: '/user/following/{username}',
    operationId: 'userCurrentCheckFollowing',
    summary: 'Check whether a user is followed by the authenticated user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 404],
    handler: ({ cx, params }) => check(cx, null, params.username ?? ''),
  }),
  defineRoute({
    method: 'PUT',
    path: '/user/following/{username}',
    operationId: 'userCurrentPutFollow',
    summary: 'Follow a user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await followService.followUser(cx, params.username ?? '');
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/user/following/{username}',
    operationId: 'userCurrentDeleteFollow',
    summary: 'Unfollow a user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 404],
    handler: async ({ cx, params }) => {
      await followService.unfollowUser(cx, params.username ?? '');
    },
  }),
  defineList({
    path: '/users/{username}/followers',
    operationId: 'userListFollowers',
    summary: "List the given user's followers",
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    headers: 'count',
    schema: '[User]',
    errors: [404],
    load: ({ cx, params, page }) => followService.listFollowers(cx, params.username ?? '', page),
    convert: userList,
  }),
  defineList({
    path: '/users/{username}/following',
    operationId: 'userListFollowing',
    summary: 'List the users that the given user is following',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    headers: 'count',
    schema: '[User]',
    errors: [404],
    load: ({ cx, params, page }) => followService.listFollowing(cx, params.username ?? '', page),
    convert: userList,
  }),
  defineRoute({
    method: 'GET',
    path: '/users/{username}/following/{target}',
    operationId: 'userCheckFollowing',
    summary: 'Check if one user is following another user',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    success: { status: 204 },
    errors: [404],
    handler: ({ cx, params }) => check(cx, params.username ?? '', params.target ?? ''),
  }),
];
