import { z } from 'zod';
import { listAdminJobs, listAdminRuns } from '../../../services/actions/lists.ts';
import { toApiJob, toApiRun } from '../../convert/actions.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { qRepeated, qString } from '../../params.ts';

export const adminActionsRoutes = [
  defineList({
    path: '/admin/actions/jobs',
    operationId: 'listAdminWorkflowJobs',
    summary: 'Lists all jobs',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    headers: 'link',
    query: z.object({
      status: qRepeated('workflow status (pending, queued, in_progress, failure, success, skipped); may repeat'),
      sort: qString('sort field (id)'),
      order: qString('sort order (asc or desc)'),
    }),
    schema: 'ActionWorkflowJobsResponse',
    errors: [400, 401, 403, 404, 422],
    load: ({ cx, query, page }) =>
      listAdminJobs(cx, { status: query.status ?? [], sort: query.sort ?? '', order: query.order ?? '' }, page),
    convert: (result, { cx }) => ({ jobs: result.items.map((j) => toApiJob(j, convertOptions(cx))), total_count: result.total }),
  }),
  defineList({
    path: '/admin/actions/runs',
    operationId: 'listAdminWorkflowRuns',
    summary: 'Lists all runs',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    headers: 'link',
    query: z.object({
      event: qString('workflow event name'),
      branch: qString('workflow branch'),
      status: qRepeated('workflow status (pending, queued, in_progress, failure, success, skipped)'),
      actor: qString('triggered by user'),
      head_sha: qString('triggering sha of the workflow run'),
    }),
    schema: 'ActionWorkflowRunsResponse',
    errors: [400, 401, 403, 404],
    load: ({ cx, query, page }) =>
      listAdminRuns(
        cx,
        {
          event: query.event ?? '',
          branch: query.branch ?? '',
          status: query.status ?? [],
          actor: query.actor ?? '',
          headSha: query.head_sha ?? '',
        },
        page,
      ),
    convert: (result, { cx }) => ({
      workflow_runs: result.items.map((r) => toApiRun(r, cx.viewer, convertOptions(cx))),
      total_count: result.total,
    }),
  }),
];
