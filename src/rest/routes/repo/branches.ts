import * as branchService from '../../../services/repo/branch.ts';
import * as gitRead from '../../../services/repo/gitRead.ts';
import { toApiBranch } from '../../convert/git.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { CreateBranchRepoOption, RenameBranchRepoOption, UpdateBranchRepoOption } from '../../structs/files.ts';

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

/** POST /repos/{owner}/{repo}/branches, PUT, DELETE and PATCH /branches/{branch} (Gitea CreateBranch, UpdateBranch, DeleteBranch, RenameBranch). */
export const branchWriteRoutes = [
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/branches',
    operationId: 'repoCreateBranch',
    summary: 'Create a branch',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateBranchRepoOption,
    success: { status: 201, schema: 'Branch' },
    errors: [401, 403, 404, 409, 422, 423],
    handler: async ({ cx, params, body }) => {
      const { repo, branch } = await branchService.createBranch(cx, repoRef(params), {
        name: body.new_branch_name,
        ...(body.old_branch_name ? { oldBranchName: body.old_branch_name } : {}),
        ...(body.old_ref_name ? { oldRefName: body.old_ref_name } : {}),
      });
      return toApiBranch(repo, branch, cx.config.rootUrl);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/branches/{branch}',
    operationId: 'repoUpdateBranch',
    summary: 'Update a branch reference to a new commit',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    tailParam: 'branch',
    body: UpdateBranchRepoOption,
    success: { status: 204 },
    errors: [401, 403, 404, 409, 422, 423],
    handler: async ({ cx, params, body }) => {
      await branchService.updateBranch(cx, repoRef(params), params.branch ?? '', {
        newCommitId: body.new_commit_id,
        ...(body.old_commit_id ? { oldCommitId: body.old_commit_id } : {}),
        force: body.force === true,
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/branches/{branch}',
    operationId: 'repoDeleteBranch',
    summary: 'Delete a specific branch from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    tailParam: 'branch',
    success: { status: 204 },
    errors: [401, 403, 404, 423],
    handler: async ({ cx, params }) => {
      await branchService.deleteBranch(cx, repoRef(params), params.branch ?? '');
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/branches/{branch}',
    operationId: 'repoRenameBranch',
    summary: 'Rename a branch',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    tailParam: 'branch',
    body: RenameBranchRepoOption,
    success: { status: 204 },
    errors: [401, 403, 404, 409, 422, 423],
    handler: async ({ cx, params, body }) => {
      await branchService.renameBranch(cx, repoRef(params), params.branch ?? '', body.name);
    },
  }),
];
