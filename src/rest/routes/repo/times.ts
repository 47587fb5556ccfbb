import { ValidationError } from '../../../errors.ts';
import type { RepoRef } from '../../../services/access/repoAccess.ts';
import * as stopwatchService from '../../../services/issue/stopwatch.ts';
import * as trackedTimeService from '../../../services/issue/trackedTime.ts';
import type { TrackedTimeFilters } from '../../../services/issue/trackedTime.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiStopWatch, toApiTrackedTime, toApiTrackedTimeList } from '../../convert/trackedTime.ts';
import { listOptions, setTotalCount } from '../../pagination.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { AddTimeOption, TrackedTimesQuery } from '../../structs/trackedTime.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** Gitea ParamsInt64: anything but an integer reads as 0 (then 404). */
const intParam = (value: string | undefined): number => (/^\d+$/.test(value ?? '') ? Number(value) : 0);

/** Gitea GetQueryBeforeSince: RFC 3339 (blank = unset), 422 otherwise. */
function timeParam(value: string | undefined, field: string): Date | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  const d = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) || Number.isNaN(d.getTime())) {
    throw new ValidationError(`parsing time "${v}" as RFC3339 failed`, { param: field });
  }
  return d;
}

function filters(query: { user?: string | undefined; since?: string | undefined; before?: string | undefined }): TrackedTimeFilters {
  return { user: query.user?.trim() || undefined, since: timeParam(query.since, 'since'), before: timeParam(query.before, 'before') };
}

const issueTimeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issues/{index}/times',
    operationId: 'issueTrackedTimes',
    summary: "List an issue's tracked times",
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    query: TrackedTimesQuery,
    success: { status: 200, schema: '[TrackedTime]' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await trackedTimeService.listIssueTrackedTimes(cx, ref(params), intParam(params.index), filters(query), page);
      setTotalCount(reply, result.total);
      return toApiTrackedTimeList(result.items, cx.viewer, convertOptions(cx));
    },
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
      const view = await trackedTimeService.addTrackedTime(cx, ref(params), intParam(params.index), {
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
      await trackedTimeService.resetIssueTrackedTimes(cx, ref(params), intParam(params.index));
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
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await trackedTimeService.deleteTrackedTime(cx, ref(params), intParam(params.index), intParam(params.id));
    },
  }),
];

const repoTimeRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/times',
    operationId: 'repoTrackedTimes',
    summary: "List a repo's tracked times",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: TrackedTimesQuery,
    success: { status: 200, schema: '[TrackedTime]' },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await trackedTimeService.listRepoTrackedTimes(cx, ref(params), filters(query), page);
      setTotalCount(reply, result.total);
      return toApiTrackedTimeList(result.items, cx.viewer, convertOptions(cx));
    },
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
    handler: async ({ cx, params }) =>
      toApiTrackedTimeList(
        await trackedTimeService.listUserTrackedTimesInRepo(cx, ref(params), params.user ?? ''),
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
        await run(cx, ref(params), intParam(params.index));
      },
    }),
  ),
];

const userRoutes = [
  defineRoute({
    method: 'GET',
    path: '/user/times',
    operationId: 'userCurrentTrackedTimes',
    summary: "List the current user's tracked times",
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    query: TrackedTimesQuery,
    success: { status: 200, schema: '[TrackedTime]' },
    errors: [401, 422],
    handler: async ({ cx, query, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const { since, before } = filters(query);
      const result = await trackedTimeService.listMyTrackedTimes(cx, { since, before }, page);
      setTotalCount(reply, result.total);
      return toApiTrackedTimeList(result.items, cx.viewer, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/user/stopwatches',
    operationId: 'userGetStopWatches',
    summary: 'Get list of all existing stopwatches',
    tag: 'user',
    scopes: ['user'],
    gate: 'token',
    success: { status: 200, schema: '[StopWatch]' },
    errors: [401],
    handler: async ({ cx, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await stopwatchService.listMyStopwatches(cx, page);
      setTotalCount(reply, result.total);
      const now = new Date();
      return result.items.map((v) => toApiStopWatch(v, now));
    },
  }),
];

/** Tracked time (Gitea issue_tracked_time.go) and stopwatches (issue_stopwatch.go). */
export const trackedTimeRoutes: readonly RouteDef[] = [...issueTimeRoutes, ...repoTimeRoutes, ...stopwatchRoutes, ...userRoutes];
