import * as issueWatchService from '../../../services/watch/issueWatch.ts';
import * as repoWatchService from '../../../services/watch/repoWatch.ts';
import * as starService from '../../../services/watch/star.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { toApiIssueWatchInfo, toApiRepoWatchInfo } from '../../convert/watch.ts';
import { defineList } from '../../list.ts';
import { indexParam, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

// Repository routes answer 404 for an invisible repository before 401 (Gitea repoAssignment runs before
// reqToken), so their gate is `none` and the services ask for a signed-in viewer after the lookup.

// Gitea answers these lists with X-Total-Count and no Link header (SetTotalCountHeader only).
/** /repos/{o}/{r}/subscription, /subscribers, /stargazers and /issues/{index}/subscriptions. */
export const subscriptionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/subscription',
    operationId: 'userCurrentCheckSubscription',
    summary: 'Check if the current user is watching a repo',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'WatchInfo' },
    errors: [401, 404],
    handler: async ({ cx, params }) => {
      const sub = await repoWatchService.getRepoSubscription(cx, repoRef(params));
      return toApiRepoWatchInfo(sub.repo, sub.mode, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/subscription',
    operationId: 'userCurrentPutSubscription',
    summary: 'Watch a repo',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'WatchInfo' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      const sub = await repoWatchService.setRepoSubscription(cx, repoRef(params), 'NORMAL');
      return toApiRepoWatchInfo(sub.repo, sub.mode, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/subscription',
    operationId: 'userCurrentDeleteSubscription',
    summary: 'Unwatch a repo',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await repoWatchService.setRepoSubscription(cx, repoRef(params), 'NONE');
    },
  }),
  defineList({
    path: '/repos/{owner}/{repo}/subscribers',
    operationId: 'repoListSubscribers',
    summary: "List a repo's watchers",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'count',
    schema: '[User]',
    errors: [404],
    load: ({ cx, params, page }) => repoWatchService.listRepoWatchers(cx, repoRef(params), page),
    convert: (result, { cx }) => toApiUserList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/stargazers',
    operationId: 'repoListStargazers',
    summary: "List a repo's stargazers",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'count',
    schema: '[User]',
    errors: [403, 404],
    load: ({ cx, params, page }) => starService.listStargazers(cx, repoRef(params), page),
    convert: (result, { cx }) => toApiUserList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/issues/{index}/subscriptions',
    operationId: 'issueSubscriptions',
    summary: 'Get users who subscribed on an issue.',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    headers: 'count',
    schema: '[User]',
    errors: [404],
    load: ({ cx, params, page }) => issueWatchService.listIssueSubscribers(cx, repoRef(params), indexParam(params), page),
    convert: (result, { cx }) => toApiUserList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/subscriptions/check',
    operationId: 'issueCheckSubscription',
    summary: 'Check if user is subscribed to an issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: 'WatchInfo' },
    errors: [401, 404],
    handler: async ({ cx, params }) => {
      const sub = await issueWatchService.checkIssueSubscription(cx, repoRef(params), indexParam(params));
      return toApiIssueWatchInfo(sub.repo, sub.issue, sub.watching, convertOptions(cx));
    },
  }),
  ...(['PUT', 'DELETE'] as const).map((method) =>
    defineRoute({
      method,
      path: '/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}',
      operationId: method === 'PUT' ? 'issueAddSubscription' : 'issueDeleteSubscription',
      summary: method === 'PUT' ? 'Subscribe user to issue' : 'Unsubscribe user from issue',
      tag: 'issue',
      scopes: ['issue'],
      gate: 'none',
      success: { status: 201, description: 'the subscription changed' },
      also: [{ status: 200, description: 'already so' }],
      errors: [401, 403, 404],
      handler: async ({ cx, params, reply }) => {
        const changed = await issueWatchService.setIssueSubscription(
          cx,
          repoRef(params),
          indexParam(params),
          params.user ?? '',
          method === 'PUT',
        );
        if (!changed) reply.code(200).send();
      },
    }),
  ),
];
