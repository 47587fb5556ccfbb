// The runs and jobs of an organization's repositories (its owners) and of the signed-in user's (Gitea
// routers/api/v1/org/action.go and user/action.go, over shared.ListRuns / ListJobs with the owner's id).
import { listOwnerJobs, listOwnerRuns, type OwnerRef } from '../../../services/actions/ownerLists.ts';
import { toApiJob, toApiRun } from '../../convert/actions.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import type { RouteDef } from '../../route.ts';
import { jobFilter, jobQuery, runFilter, runQuery } from '../repo/actions.ts';
import { ORG_SCOPE, USER_SCOPE, type ActionsScopeDef } from './actionRunners.ts';

function ownerListRoutes(s: ActionsScopeDef, ref: (params: Record<string, string>) => OwnerRef, what: string): RouteDef[] {
  const doc = { tag: s.tag, scopes: s.scopes, gate: s.gate, headers: 'link' as const };
  return [
    defineList({
      path: `${s.prefix}/actions/runs`,
      operationId: `get${s.name}WorkflowRuns`,
      summary: `Get ${what} workflow runs`,
      ...doc,
      query: runQuery,
      schema: 'ActionWorkflowRunsResponse',
      errors: [400, 401, 403, 404],
      load: ({ cx, params, query, page }) => listOwnerRuns(cx, ref(params), runFilter(query), page),
      convert: (result, { cx }) => ({
        workflow_runs: result.items.map((r) => toApiRun(r, cx.viewer, convertOptions(cx))),
        total_count: result.total,
      }),
    }),
    defineList({
      path: `${s.prefix}/actions/jobs`,
      operationId: `get${s.name}WorkflowJobs`,
      summary: `Get ${what} workflow jobs`,
      ...doc,
      query: jobQuery,
      schema: 'ActionWorkflowJobsResponse',
      errors: [400, 401, 403, 404, 422],
      load: ({ cx, params, query, page }) => listOwnerJobs(cx, ref(params), jobFilter(query), page),
      convert: (result, { cx }) => ({ jobs: result.items.map((j) => toApiJob(j, convertOptions(cx))), total_count: result.total }),
    }),
  ];
}

/** /orgs/{org}/actions/{runs,jobs} and /user/actions/{runs,jobs}. */
export const actionOwnerListRoutes: RouteDef[] = [
  ...ownerListRoutes(ORG_SCOPE, (params) => ({ org: params.org ?? '' }), "an organization's"),
  ...ownerListRoutes(USER_SCOPE, () => 'user', "the user's"),
];
