import { NotFoundError } from '../../../errors.ts';
import type { ServiceContext } from '../../../services/context.ts';
import type { Page } from '../../../services/paging.ts';
import type { RepoWithPermission } from '../../../services/repo/repoRows.ts';
import * as repoWatchService from '../../../services/watch/repoWatch.ts';
import * as starService from '../../../services/watch/star.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepositoryList } from '../../convert/repo.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

const repoList = (result: Page<RepoWithPermission>, { cx }: { cx: ServiceContext }) =>
  toApiRepositoryList(result.items, convertOptions(cx));

// Gitea answers these lists with X-Total-Count and no Link header (SetTotalCountHeader only).
/** /user/starred…, /users/{u}/starred, /user/subscriptions and /users/{u}/subscriptions. */
export const starredRoutes = [
  defineList({
    path: '/user/starred',
    operationId: 'userCurrentListStarred',
    summary: 'The repos that the authenticated user has starred',
    tag: 'user',
    scopes: ['user', 'repository'],
    gate: 'token',
    headers: 'count',
    schema: '[Repository]',
    errors: [401, 403],
    load: ({ cx, page }) => starService.listStarredRepos(cx, null, page),
    convert: repoList,
  }),
  defineRoute({
    method: 'GET',
    path: '/user/starred/{owner}/{repo}',
    operationId: 'userCurrentCheckStarring',
    summary: 'Whether the authenticated is starring the repo',
    tag: 'user',
    scopes: ['user', 'repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 404],
    handler: async ({ cx, params }) => {
      if (!(await starService.isStarring(cx, repoRef(params)))) throw new NotFoundError('not starred');
    },
  }),
  ...(['PUT', 'DELETE'] as const).map((method) =>
    defineRoute({
      method,
      path: '/user/starred/{owner}/{repo}',
      operationId: method === 'PUT' ? 'userCurrentPutStar' : 'userCurrentDeleteStar',
      summary: method === 'PUT' ? 'Star the given repo' : 'Unstar the given repo',
      tag: 'user',
      scopes: ['user', 'repository'],
      gate: 'token',
      success: { status: 204 },
      errors: [401, 403, 404],
      handler: async ({ cx, params }) => {
        await starService.setStar(cx, repoRef(params), method === 'PUT');
      },
    }),
  ),
  defineList({
    path: '/users/{username}/starred',
    operationId: 'userListStarred',
    summary: 'The repos that the given user has starred',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    headers: 'count',
    schema: '[Repository]',
    errors: [404],
    load: ({ cx, params, page }) => starService.listStarredRepos(cx, params.username ?? '', page),
    convert: repoList,
  }),
  defineList({
    path: '/user/subscriptions',
    operationId: 'userCurrentListSubscriptions',
    summary: 'List repositories watched by the authenticated user',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    headers: 'count',
    schema: '[Repository]',
    errors: [401],
    load: ({ cx, page }) => repoWatchService.listWatchedRepos(cx, null, page),
    convert: repoList,
  }),
  defineList({
    path: '/users/{username}/subscriptions',
    operationId: 'userListSubscriptions',
    summary: 'List the repositories watched by a user',
    tag: 'user',
    scopes: ['user'],
    gate: 'none',
    headers: 'count',
    schema: '[Repository]',
    errors: [404],
    load: ({ cx, params, page }) => repoWatchService.listWatchedRepos(cx, params.username ?? '', page),
    convert: repoList,
  }),
];
