import { z } from 'zod';
import * as statusService from '../../../services/status/commitStatus.ts';
import { toApiCombinedStatus, toApiCommitStatus } from '../../convert/commitStatus.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { listOptionsOf, qLimit, qPage, repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateStatusOption, ListStatusesQuery } from '../../structs/commitStatus.ts';

const statusList = (path: string, operationId: string, summary: string, param: 'sha' | 'ref') =>
  defineList({
    path,
    operationId,
    summary,
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: ListStatusesQuery,
    headers: 'link',
    schema: '[CommitStatus]',
    errors: [400, 404],
    load: ({ cx, params, query, page }) =>
      statusService.listCommitStatuses(cx, repoRef(params), params[param] ?? '', { ...page, sort: query.sort ?? '', state: query.state }),
    convert: (result, { cx }) => result.items.map((s) => toApiCommitStatus(result.repo, s, cx.viewer, convertOptions(cx))),
  });

/** Commit statuses: create and list by sha, list and combine by ref (Gitea api/v1/repo/status.go). */
export const commitStatusRoutes = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/statuses/{sha}',
    operationId: 'repoCreateStatus',
    summary: 'Create a commit status',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateStatusOption,
    success: { status: 201, schema: 'CommitStatus' },
    errors: [400, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      const { repo, status } = await statusService.postCommitStatus(cx, repoRef(params), params.sha ?? '', {
        state: body.state ?? undefined,
        targetUrl: body.target_url ?? undefined,
        description: body.description ?? undefined,
        context: body.context ?? undefined,
      });
      return toApiCommitStatus(repo, status, cx.viewer, convertOptions(cx));
    },
  }),
  statusList('/repos/{owner}/{repo}/statuses/{sha}', 'repoListStatuses', "Get a commit's statuses", 'sha'),
  statusList(
    '/repos/{owner}/{repo}/commits/{ref}/statuses',
    'repoListStatusesByRef',
    "Get a commit's statuses, by branch/tag/commit reference",
    'ref',
  ),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/commits/{ref}/status',
    operationId: 'repoGetCombinedStatusByRef',
    summary: "Get a commit's combined status, by branch/tag/commit reference",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    query: z.object({ page: qPage, limit: qLimit }),
    success: { status: 200, schema: 'CombinedStatus' },
    errors: [400, 404],
    handler: async ({ cx, params, query }) => {
      const view = await statusService.getCombinedStatus(cx, repoRef(params), params.ref ?? '', listOptionsOf(query));
      return toApiCombinedStatus(view, cx.viewer, convertOptions(cx));
    },
  }),
];
