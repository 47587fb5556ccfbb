import { z } from 'zod';
import * as attempts from '../../../services/actions/runAttempts.ts';
import { toApiJob, toApiRun } from '../../convert/actions.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { intParam, qRepeated, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

const params = {
  run: { schema: { type: 'integer' as const, format: 'int64' }, description: 'id of the run' },
  attempt: { schema: { type: 'integer' as const, format: 'int64' }, description: 'logical attempt number of the run' },
};
const attemptJobQuery = z.object({
  status: qRepeated('workflow status (pending, queued, in_progress, failure, success, skipped)'),
});

/** /repos/{owner}/{repo}/actions/runs/{run}/attempts/{attempt}[/jobs] (Gitea routers/api/v1/repo/action.go). */
export const repoActionAttemptRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/runs/{run}/attempts/{attempt}',
    operationId: 'getWorkflowRunAttempt',
    summary: 'Gets a specific workflow run attempt',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params,
    success: { status: 200, schema: 'ActionWorkflowRun' },
    errors: [400, 404],
    handler: async ({ cx, params: p }) =>
      toApiRun(await attempts.getRunAttempt(cx, repoRef(p), intParam(p.run), intParam(p.attempt)), cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/actions/runs/{run}/attempts/{attempt}/jobs',
    operationId: 'listWorkflowRunAttemptJobs',
    summary: 'Lists all jobs for a workflow run attempt',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    params,
    query: attemptJobQuery,
    schema: 'ActionWorkflowJobsResponse',
    errors: [400, 404],
    load: ({ cx, params: p, query, page }) =>
      attempts.listRunAttemptJobs(cx, repoRef(p), intParam(p.run), intParam(p.attempt), { status: query.status ?? [] }, page),
    convert: (result, { cx }) => ({ jobs: result.items.map((j) => toApiJob(j, convertOptions(cx))), total_count: result.total }),
  }),
];
