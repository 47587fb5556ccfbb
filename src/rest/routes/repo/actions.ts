import { z } from 'zod';
import * as actions from '../../../services/actions/repoActions.ts';
import * as maintenance from '../../../services/actions/runMaintenance.ts';
import { toApiJob, toApiRun } from '../../convert/actions.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { intParam, qRepeated, qString, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateActionWorkflowDispatch } from '../../structs/actions.ts';

const run = { run: { schema: { type: 'integer' as const, format: 'int64' }, description: 'id of the run' } };
const job = { job_id: { schema: { type: 'integer' as const, format: 'int64' }, description: 'id of the job' } };
const workflow = { workflow_id: { schema: { type: 'string' as const }, description: 'id of the workflow (its file name)' } };

export const runQuery = z.object({
  event: qString('workflow event name'),
  branch: qString('workflow branch'),
  status: qRepeated('workflow status (pending, queued, in_progress, failure, success, skipped)'),
  actor: qString('triggered by user'),
  head_sha: qString('triggering sha of the workflow run'),
});
export const jobQuery = z.object({
  status: qRepeated('workflow status (pending, queued, in_progress, failure, success, skipped); may repeat'),
  sort: qString('sort field (id)'),
  order: qString('sort order (asc or desc)'),
});

export const runFilter = (q: z.output<typeof runQuery>) => ({
  event: q.event ?? '',
  branch: q.branch ?? '',
  status: q.status ?? [],
  actor: q.actor ?? '',
  headSha: q.head_sha ?? '',
});
export const jobFilter = (q: z.output<typeof jobQuery>) => ({ status: q.status ?? [], sort: q.sort ?? '', order: q.order ?? '' });

/** The write routes on one run: Actions writers, token scope `repository`. */
const runWrite = { tag: 'repository', scopes: ['repository' as const], gate: 'token' as const, params: run };

/** /repos/{owner}/{repo}/actions: runs, jobs, job logs, cancel, re-run, delete and dispatch (Gitea routers/api/v1/repo/action.go). */
export const repoActionsRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/actions/runs',
    operationId: 'getWorkflowRuns',
    summary: 'Lists all runs for a repository run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    query: runQuery,
    schema: 'ActionWorkflowRunsResponse',
    errors: [400, 404],
    load: ({ cx, params, query, page }) => actions.listRepoRuns(cx, repoRef(params), runFilter(query), page),
    convert: (result, { cx }) => ({
      workflow_runs: result.items.map((r) => toApiRun(r, cx.viewer, convertOptions(cx))),
      total_count: result.total,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/runs/{run}',
    operationId: 'GetWorkflowRun',
    summary: 'Gets a specific workflow run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: run,
    success: { status: 200, schema: 'ActionWorkflowRun' },
    errors: [400, 404],
    handler: async ({ cx, params }) =>
      toApiRun(await actions.getRepoRun(cx, repoRef(params), intParam(params.run)), cx.viewer, convertOptions(cx)),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/actions/runs/{run}/jobs',
    operationId: 'listWorkflowRunJobs',
    summary: 'Lists all jobs for a workflow run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    params: run,
    query: jobQuery,
    schema: 'ActionWorkflowJobsResponse',
    errors: [400, 404, 422],
    load: ({ cx, params, query, page }) => actions.listRepoJobs(cx, repoRef(params), intParam(params.run), jobFilter(query), page),
    convert: (result, { cx }) => ({ jobs: result.items.map((j) => toApiJob(j, convertOptions(cx))), total_count: result.total }),
  }),
  defineList({
    path: '/repos/{owner}/{repo}/actions/jobs',
    operationId: 'listWorkflowJobs',
    summary: 'Lists all jobs for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    query: jobQuery,
    schema: 'ActionWorkflowJobsResponse',
    errors: [400, 404, 422],
    load: ({ cx, params, query, page }) => actions.listRepoJobs(cx, repoRef(params), null, jobFilter(query), page),
    convert: (result, { cx }) => ({ jobs: result.items.map((j) => toApiJob(j, convertOptions(cx))), total_count: result.total }),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/jobs/{job_id}',
    operationId: 'getWorkflowJob',
    summary: 'Gets a specific workflow job for a workflow run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: job,
    success: { status: 200, schema: 'ActionWorkflowJob' },
    errors: [400, 404],
    handler: async ({ cx, params }) => toApiJob(await actions.getRepoJob(cx, repoRef(params), intParam(params.job_id)), convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs',
    operationId: 'downloadActionsRunJobLogs',
    summary: 'Downloads the job logs for a workflow run',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    params: job,
    success: { status: 200, contentType: 'text/plain', description: 'the log lines' },
    errors: [400, 404],
    handler: async ({ cx, params, reply }) => {
      const text = await actions.repoJobLogs(cx, repoRef(params), intParam(params.job_id));
      return reply.code(200).type('text/plain; charset=utf-8').send(text);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/actions/runs/{run}/cancel',
    operationId: 'cancelWorkflowRun',
    summary: "Cancels a workflow run's unfinished jobs (GitHub's endpoint; Gitea cancels from its web UI)",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: run,
    success: { status: 202 },
    errors: [403, 404],
    handler: async ({ cx, params }) => {
      await actions.cancelRun(cx, repoRef(params), intParam(params.run));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
    operationId: 'ActionsDispatchWorkflow',
    summary: 'Create a workflow dispatch event',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: workflow,
    body: CreateActionWorkflowDispatch,
    success: { status: 204 },
    errors: [400, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await actions.dispatchWorkflow(cx, repoRef(params), {
        workflowId: params.workflow_id ?? '',
        ref: body.ref,
        inputs: body.inputs ?? {},
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/actions/runs/{run}',
    operationId: 'deleteActionRun',
    summary: 'Delete a workflow run',
    ...runWrite,
    success: { status: 204 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params }) => {
      await maintenance.deleteRun(cx, repoRef(params), intParam(params.run));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/actions/runs/{run}/rerun',
    operationId: 'rerunWorkflowRun',
    summary: 'Reruns an entire workflow run',
    ...runWrite,
    success: { status: 201, schema: 'ActionWorkflowRun' },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params, reply }) => {
      await maintenance.rerunRun(cx, repoRef(params), intParam(params.run));
      const view = await actions.getRepoRun(cx, repoRef(params), intParam(params.run));
      return reply.code(201).send(toApiRun(view, cx.viewer, convertOptions(cx)));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/actions/runs/{run}/rerun-failed-jobs',
    operationId: 'rerunFailedWorkflowRun',
    summary: 'Reruns all failed jobs in a workflow run',
    ...runWrite,
    success: { status: 201 },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params, reply }) => {
      await maintenance.rerunFailedJobs(cx, repoRef(params), intParam(params.run));
      return reply.code(201).send();
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/actions/runs/{run}/jobs/{job_id}/rerun',
    operationId: 'rerunWorkflowJob',
    summary: 'Reruns a specific workflow job in a run',
    ...runWrite,
    params: { ...run, ...job },
    success: { status: 201, schema: 'ActionWorkflowJob' },
    errors: [400, 401, 403, 404],
    handler: async ({ cx, params, reply }) => {
      const id = await maintenance.rerunJob(cx, repoRef(params), intParam(params.run), intParam(params.job_id));
      return reply.code(201).send(toApiJob(await actions.getRepoJob(cx, repoRef(params), id), convertOptions(cx)));
    },
  }),
];
