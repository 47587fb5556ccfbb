import { z } from 'zod';
import { listAdminJobs, listAdminRuns } from '../../../services/actions/lists.ts';
import { instanceRegistrationToken } from '../../../services/actions/registrationTokens.ts';
import { deleteRunner, getRunner, listRunners, setRunnerDisabled } from '../../../services/actions/runners.ts';
import { ValidationError } from '../../../errors.ts';
import { toApiJob, toApiRun, toApiRunner } from '../../convert/actions.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { intParam, listOptionsOf, qLimit, qPage, qRepeated, qString } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { EditActionRunnerOption } from '../../structs/actions.ts';

const runnerId = { runner_id: { schema: { type: 'string' as const }, description: 'id of the runner' } };

/** Gitea's `disabled` filter: empty = all; true/1/on = disabled only; any other value parses as false. */
function disabledFilter(raw: string | undefined): boolean | null {
  if (raw === undefined || raw === '') return null;
  return ['true', '1', 'on', 't', 'T', 'TRUE', 'True'].includes(raw);
}

export const adminActionsRoutes = [
  defineRoute({
    method: 'POST',
    path: '/admin/actions/runners/registration-token',
    operationId: 'adminCreateRunnerRegistrationToken',
    summary: 'Get a global actions runner registration token',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    success: { status: 200, schema: 'RegistrationToken' },
    errors: [401, 403],
    handler: async ({ cx }) => ({ token: await instanceRegistrationToken(cx) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/actions/runners',
    operationId: 'getAdminRunners',
    summary: 'Get all runners',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    query: z.object({ disabled: qString('filter by disabled status (true or false)'), page: qPage, limit: qLimit }),
    success: { status: 200, schema: 'ActionRunnersResponse' },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, query }) => {
      // Gitea pages the runners but sends no pagination headers.
      const result = await listRunners(cx, disabledFilter(query.disabled), listOptionsOf(query));
      return { runners: result.items.map(toApiRunner), total_count: result.total };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/admin/actions/runners/{runner_id}',
    operationId: 'getAdminRunner',
    summary: 'Get a global runner',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    params: runnerId,
    success: { status: 200, schema: 'ActionRunner' },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => toApiRunner(await getRunner(cx, intParam(params.runner_id))),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/admin/actions/runners/{runner_id}',
    operationId: 'updateAdminRunner',
    summary: 'Update a global runner',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    params: runnerId,
    body: EditActionRunnerOption,
    success: { status: 200, schema: 'ActionRunner' },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const id = intParam(params.runner_id);
      await getRunner(cx, id);
      if (body.disabled === undefined || body.disabled === null) throw new ValidationError('[Disabled]: Required');
      return toApiRunner(await setRunnerDisabled(cx, id, body.disabled));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/admin/actions/runners/{runner_id}',
    operationId: 'deleteAdminRunner',
    summary: 'Delete a global runner',
    tag: 'admin',
    scopes: ['admin'],
    gate: 'admin',
    params: runnerId,
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await deleteRunner(cx, intParam(params.runner_id));
    },
  }),
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
