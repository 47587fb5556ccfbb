import * as gitRead from '../../../services/repo/gitRead.ts';
import { toApiBranch } from '../../convert/git.ts';
import { listOptions, setPaginationHeaders } from '../../pagination.ts';
import { defineRoute } from '../../route.ts';

/** /repos/{owner}/{repo}/branches: list and get (Gitea routers/api/v1/repo/branch.go). */
export const branchRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/branches',
    operationId: 'repoListBranches',
    summary: "List a repository's branches",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[Branch]' },
    errors: [404],
    handler: async ({ cx, params, req, reply }) => {
      const opts = listOptions(req.query as Record<string, unknown>);
      const page = await gitRead.listBranches(cx, params.owner ?? '', params.repo ?? '', opts);
      setPaginationHeaders(req, reply, cx.config.rootUrl, page.total, opts);
      return page.items.map((b) => toApiBranch(page.repo, b, cx.config.rootUrl));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/branches/{branch}',
    operationId: 'repoGetBranch',
    summary: 'Retrieve a specific branch from a repository, including its effective branch protection',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    tailParam: 'branch',
    success: { status: 200, schema: 'Branch' },
    errors: [404],
    handler: async ({ cx, params }) => {
      const { repo, branch } = await gitRead.getBranch(cx, params.owner ?? '', params.repo ?? '', params.branch ?? '');
      return toApiBranch(repo, branch, cx.config.rootUrl);
    },
  }),
];
