// /repos/{owner}/{repo}/actions/workflows: the workflow files and their enabling (Gitea routers/api/v1/repo/action.go).
import * as workflows from '../../../services/actions/workflows.ts';
import { listWorkflowRuns } from '../../../services/actions/repoActions.ts';
import { toApiRun, toApiWorkflow } from '../../convert/actions.ts';
import { defineList } from '../../list.ts';
import { runFilter, runQuery } from './actions.ts';
import { convertOptions } from '../../convert/options.ts';
import { repoRef } from '../../params.ts';
import { defineRoute, type RouteDef } from '../../route.ts';

const workflow = { workflow_id: { schema: { type: 'string' as const }, description: 'id of the workflow (its file name)' } };

function toggleRoute(enabled: boolean): RouteDef {
  return defineRoute({
    method: 'PUT',
    path: `/repos/{owner}/{repo}/actions/workflows/{workflow_id}/${enabled ? 'enable' : 'disable'}`,
    operationId: enabled ? 'ActionsEnableWorkflow' : 'ActionsDisableWorkflow',
    summary: enabled ? 'Enable a workflow' : 'Disable a workflow',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: workflow,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await workflows.setWorkflowEnabled(cx, repoRef(params), params.workflow_id ?? '', enabled);
    },
  });
}

export const repoActionWorkflowRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/workflows',
    operationId: 'ActionsListRepositoryWorkflows',
    summary: 'List repository workflows',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 200, schema: 'ActionWorkflowResponse' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      const list = await workflows.listWorkflows(cx, repoRef(params));
      return { workflows: list.map((w) => toApiWorkflow(w, convertOptions(cx))), total_count: list.length };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}',
    operationId: 'ActionsGetWorkflow',
    summary: 'Get a workflow',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: workflow,
    success: { status: 200, schema: 'ActionWorkflow' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiWorkflow(await workflows.getWorkflow(cx, repoRef(params), params.workflow_id ?? ''), convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
    operationId: 'ActionsListWorkflowRuns',
    summary: 'List runs of a workflow',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    headers: 'link',
    params: workflow,
    query: runQuery,
    schema: 'ActionWorkflowRunsResponse',
    errors: [400, 401, 403, 404],
    load: ({ cx, params, query, page }) => listWorkflowRuns(cx, repoRef(params), params.workflow_id ?? '', runFilter(query), page),
    convert: (result, { cx }) => ({
      workflow_runs: result.items.map((r) => toApiRun(r, cx.viewer, convertOptions(cx))),
      total_count: result.total,
    }),
  }),
  toggleRoute(false),
  toggleRoute(true),
];
