import type { RepoRef } from '../../../services/access/repoAccess.ts';
import * as dependencyService from '../../../services/issue/dependency.ts';
import { toApiIssue, toApiIssueList } from '../../convert/issue.ts';
import { convertOptions } from '../../convert/options.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { IssueMeta } from '../../structs/issueDependency.ts';

const ref = (params: Record<string, string>): RepoRef => ({ owner: params.owner ?? '', repo: params.repo ?? '' });

/** Gitea ParamsInt64: anything but an integer reads as 0 (then 404). */
const indexOf = (params: Record<string, string>): number => (/^\d+$/.test(params.index ?? '') ? Number(params.index) : 0);

const DEPENDENCIES = '/repos/{owner}/{repo}/issues/{index}/dependencies';
const BLOCKS = '/repos/{owner}/{repo}/issues/{index}/blocks';

/** Lists of an issue's blockers (…/dependencies) or of the issues it blocks (…/blocks): Issue JSON, paginated. */
function listRoute(path: string, operationId: string, summary: string, list: typeof dependencyService.listIssueBlocks): RouteDef {
  return defineRoute({
    method: 'GET',
    path,
    operationId,
    summary,
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    success: { status: 200, schema: '[Issue]' },
    errors: [404],
    handler: async ({ cx, params, req, reply }) => {
      const page = listOptions(req.query as Record<string, unknown>);
      const result = await list(cx, ref(params), indexOf(params), page);
      setPaginationHeaders(req, reply, cx.config.rootUrl, result.total, page);
      return toApiIssueList(result.items, cx.viewer, convertOptions(cx));
    },
  });
}

/**
 * Adding or removing a dependency through either route. Gitea answers 201 with the URL issue for all four,
 * DELETE included (its swagger says 200). Only …/dependencies refuses an archived URL repository (423).
 */
function writeRoute(
  method: 'POST' | 'DELETE',
  path: string,
  route: dependencyService.DependencyRoute,
  operationId: string,
  summary: string,
): RouteDef {
  const write = method === 'POST' ? dependencyService.addIssueDependency : dependencyService.removeIssueDependency;
  return defineRoute({
    method,
    path,
    operationId,
    summary,
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    body: IssueMeta,
    success: { status: 201, schema: 'Issue' },
    errors: route === 'dependencies' ? [400, 401, 404, 409, 423] : [400, 401, 404, 409],
    handler: async ({ cx, params, body }) => {
      const view = await write(cx, ref(params), indexOf(params), { owner: body.owner, repo: body.repo, index: body.index }, route);
      return toApiIssue(view, cx.viewer, convertOptions(cx));
    },
  });
}

/** /repos/{o}/{r}/issues/{index}/dependencies and /blocks (Gitea routers/api/v1/repo/issue_dependency.go). */
export const issueDependencyRoutes: readonly RouteDef[] = [
  listRoute(
    DEPENDENCIES,
    'issueListIssueDependencies',
    "List an issue's dependencies, i.e all issues that block this issue.",
    dependencyService.listIssueDependencies,
  ),
  writeRoute(
    'POST',
    DEPENDENCIES,
    'dependencies',
    'issueCreateIssueDependencies',
    'Make the issue in the url depend on the issue in the form.',
  ),
  writeRoute('DELETE', DEPENDENCIES, 'dependencies', 'issueRemoveIssueDependencies', 'Remove an issue dependency'),
  listRoute(BLOCKS, 'issueListBlocks', 'List issues that are blocked by this issue', dependencyService.listIssueBlocks),
  writeRoute('POST', BLOCKS, 'blocks', 'issueCreateIssueBlocking', 'Block the issue given in the body by the issue in path'),
  writeRoute('DELETE', BLOCKS, 'blocks', 'issueRemoveIssueBlocking', 'Unblock the issue given in the body by the issue in path'),
];
