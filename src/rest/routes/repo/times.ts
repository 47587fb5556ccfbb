import * as stopwatchService from '../../../services/issue/stopwatch.ts';
import * as trackedTimeService from '../../../services/issue/trackedTime.ts';
import type { TrackedTimeFilters } from '../../../services/issue/trackedTime.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiStopWatch, toApiTrackedTime, toApiTrackedTimeList } from '../../convert/trackedTime.ts';
import { defineList } from '../../list.ts';
import { idParam, indexParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { AddTimeOption, TrackedTimesQuery } from '../../structs/trackedTime.ts';

function filters(query: { user?: string | undefined; since?: Date | undefined; before?: Date | undefined }): TrackedTimeFilters {
  return { user: query.user?.trim() || undefined, since: query.since, before: query.before };
}

/** /user/times reads no `user` filter (Gitea's ListMyTrackedTimes). */
const MyTrackedTimesQuery = TrackedTimesQuery.omit({ user: true });

const issueTimeRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/issues/{index}/times',
    operationId: 'issueTrackedTimes',
    summary: "List an issue's tracked times",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: TrackedTimesQuery,
    headers: 'count',
    schema: '[TrackedTime]',
    errors: [401, 403, 404, 422],
    load: ({ cx, params, query, page }) =>
      trackedTimeService.listIssueTrackedTimes(cx, repoRef(params), indexParam(params), filters(query), page),
    convert: (result, { cx }) => toApiTrackedTimeList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/issues/{index}/times',
    operationId: 'issueAddTime',
    summary: 'Add tracked time to a issue',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: AddTimeOption,
    success: { status: 200, schema: 'TrackedTime' },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const view = await trackedTimeService.addTrackedTime(cx, repoRef(params), indexParam(params), {
        time: body.time,
        created: body.created ? new Date(body.created) : undefined,
        userName: body.user_name ?? undefined,
      });
      return toApiTrackedTime(view, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/times',
    operationId: 'issueResetTime',
    summary: "Reset a tracked time of an issue (the viewer's own times)",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await trackedTimeService.resetIssueTrackedTimes(cx, repoRef(params), indexParam(params));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/issues/{index}/times/{id}',
    operationId: 'issueDeleteTime',
    summary: 'Delete specific tracked time',
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    params: { id: idOf('tracked time') },
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await trackedTimeService.deleteTrackedTime(cx, repoRef(params), indexParam(params), idParam(params));
    },
  }),
];

const repoTimeRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/times',
    operationId: 'repoTrackedTimes',
    summary: "List a repo's tracked times",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: TrackedTimesQuery,
    headers: 'count',
    schema: '[TrackedTime]',
    errors: [400, 401, 403, 404, 422],
    load: ({ cx, params, query, page }) => trackedTimeService.listRepoTrackedTimes(cx, repoRef(params), filters(query), page),
    convert: (result, { cx }) => toApiTrackedTimeList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/times/{user}',
    operationId: 'userTrackedTimes',
    summary: "List a user's tracked times in a repo (deprecated)",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[TrackedTime]' },
    errors: [400, 401, 403, 404],
    deprecated: true,
    handler: async ({ cx, params }) =>
      toApiTrackedTimeList(
        await trackedTimeService.listUserTrackedTimesInRepo(cx, repoRef(params), params.user ?? ''),
        cx.viewer,
        convertOptions(cx),
      ),
  }),
];

const stopwatchRoutes = [
  ...(
    [
      ['POST', 'start', 'issueStartStopWatch', 'Start stopwatch on an issue.', 201, stopwatchService.startStopwatch],
      ['POST', 'stop', 'issueStopStopWatch', "Stop an issue's existing stopwatch.", 201, stopwatchService.stopStopwatch],
      ['DELETE', 'delete', 'issueDeleteStopWatch', "Delete an issue's existing stopwatch.", 204, stopwatchService.cancelStopwatch],
    ] as const
  ).map(([method, action, operationId, summary, status, run]) =>
    defineRoute({
      method,
      path: `/repos/{owner}/{repo}/issues/{index}/stopwatch/${action}`,
      operationId,
      summary,
      tag: 'issue',
      scopes: ['issue'],
      gate: 'none',
      success: { status },
      errors: [401, 403, 404, 409],
      handler: async ({ cx, params }) => {
        await run(cx, repoRef(params), indexParam(params));
      },
    }),
  ),
];

const userRoutes = [
  defineList({
    path: '/user/times',
    operationId: 'userCurrentTrackedTimes',
    summary: "List the current user's tracked times",
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    query: MyTrackedTimesQuery,
    headers: 'count',
    schema: '[TrackedTime]',
    errors: [401, 422],
    load: ({ cx, query, page }) => trackedTimeService.listMyTrackedTimes(cx, { since: query.since, before: query.before }, page),
    convert: (result, { cx }) => toApiTrackedTimeList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/user/stopwatches',
    operationId: 'userGetStopWatches',
    summary: 'Get list of all existing stopwatches',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    headers: 'count',
    schema: '[StopWatch]',
    errors: [401],
    load: ({ cx, page }) => stopwatchService.listMyStopwatches(cx, page),
    convert: (result) => {
      const now = new Date();
      return result.items.map((v) => toApiStopWatch(v, now));
    },
  }),
];

/** Tracked time (Gitea issue_tracked_time.go) and stopwatches (issue_stopwatch.go). */
export const trackedTimeRoutes: readonly RouteDef[] = [...issueTimeRoutes, ...repoTimeRoutes, ...stopwatchRoutes, ...userRoutes];
