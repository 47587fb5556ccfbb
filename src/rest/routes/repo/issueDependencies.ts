import * as dependencyService from '../../../services/issue/dependency.ts';
import * as dependencyRead from '../../../services/issue/dependencyRead.ts';
import { toApiIssue, toApiIssueList } from '../../convert/issue.ts';
import { convertOptions } from '../../convert/options.ts';
import { defineList } from '../../list.ts';
import { indexParam, repoRef } from '../../params.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { IssueMeta } from '../../structs/issueDependency.ts';

const DEPENDENCIES = '/repos/{owner}/{repo}/issues/{index}/dependencies';
const BLOCKS = '/repos/{owner}/{repo}/issues/{index}/blocks';

/** Lists of an issue's blockers (…/dependencies) or of the issues it blocks (…/blocks): Issue JSON, paginated. */
function listRoute(path: string, operationId: string, summary: string, list: typeof dependencyRead.listIssueBlocks): RouteDef {
  return defineList({
    path,
    operationId,
    summary,
    tag: 'issue',
    scopes: ['issue'],
    gate: 'none',
    headers: 'link',
    schema: '[Issue]',
    errors: [404],
    load: ({ cx, params, page }) => list(cx, repoRef(params), indexParam(params), page),
    convert: (result, { cx }) => toApiIssueList(result.items, cx.viewer, convertOptions(cx)),
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
      const view = await write(cx, repoRef(params), indexParam(params), { owner: body.owner, repo: body.repo, index: body.index }, route);
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
    dependencyRead.listIssueDependencies,
  ),
  writeRoute(
    'POST',
    DEPENDENCIES,
    'dependencies',
    'issueCreateIssueDependencies',
    'Make the issue in the url depend on the issue in the form.',
  ),
  writeRoute('DELETE', DEPENDENCIES, 'dependencies', 'issueRemoveIssueDependencies', 'Remove an issue dependency'),
  listRoute(BLOCKS, 'issueListBlocks', 'List issues that are blocked by this issue', dependencyRead.listIssueBlocks),
  writeRoute('POST', BLOCKS, 'blocks', 'issueCreateIssueBlocking', 'Block the issue given in the body by the issue in path'),
  writeRoute('DELETE', BLOCKS, 'blocks', 'issueRemoveIssueBlocking', 'Unblock the issue given in the body by the issue in path'),
];
