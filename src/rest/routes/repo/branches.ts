import * as gitRead from '../../../services/repo/gitRead.ts';
import { toApiBranch } from '../../convert/git.ts';
import { defineList } from '../../list.ts';
import { defineRoute } from '../../route.ts';

/** /repos/{owner}/{repo}/branches: list and get (Gitea routers/api/v1/repo/branch.go). */
export const branchRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/branches',
    operationId: 'repoListBranches',
    summary: "List a repository's branches",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    schema: '[Branch]',
    errors: [404],
    load: ({ cx, params, page }) => gitRead.listBranches(cx, params.owner ?? '', params.repo ?? '', page),
    convert: (result, { cx }) => result.items.map((b) => toApiBranch(result.repo, b, cx.config.rootUrl)),
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
