import * as protectionService from '../../../services/protection/manage.ts';
import { branchProtectionInput, toApiBranchProtection } from '../../convert/branchProtection.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import {
  CreateBranchProtectionOption,
  EditBranchProtectionOption,
  UpdateBranchProtectionPriories,
} from '../../structs/branchProtection.ts';

/** /repos/{owner}/{repo}/branch_protections: list, create, get, edit, delete, priorities (Gitea api/v1/repo/branch.go). */
export const branchProtectionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/branch_protections',
    operationId: 'repoListBranchProtection',
    summary: 'List branch protections for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 200, schema: '[BranchProtection]' },
    errors: [403, 404],
    handler: async ({ cx, params }) => (await protectionService.listBranchProtections(cx, repoRef(params))).map(toApiBranchProtection),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/branch_protections',
    operationId: 'repoCreateBranchProtection',
    summary: 'Create a branch protections for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateBranchProtectionOption,
    success: { status: 201, schema: 'BranchProtection' },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiBranchProtection(
        await protectionService.createBranchProtection(cx, repoRef(params), {
          ...branchProtectionInput(body),
          ruleName: body.rule_name || body.branch_name || '',
        }),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/branch_protections/priority',
    operationId: 'repoUpdateBranchProtectionPriories',
    summary: 'Update the priorities of branch protections for a repository.',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: UpdateBranchProtectionPriories,
    success: { status: 204 },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params, body }) => {
      await protectionService.updateBranchProtectionPriorities(cx, repoRef(params), body.ids);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/branch_protections/{name}',
    operationId: 'repoGetBranchProtection',
    summary: 'Get a specific branch protection for the repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 200, schema: 'BranchProtection' },
    errors: [403, 404],
    handler: async ({ cx, params }) =>
      toApiBranchProtection(await protectionService.getBranchProtection(cx, repoRef(params), params.name ?? '')),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/branch_protections/{name}',
    operationId: 'repoEditBranchProtection',
    summary: 'Edit a branch protections for a repository. Only fields that are set will be changed',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: EditBranchProtectionOption,
    success: { status: 200, schema: 'BranchProtection' },
    errors: [403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiBranchProtection(
        await protectionService.editBranchProtection(cx, repoRef(params), params.name ?? '', branchProtectionInput(body)),
      ),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/branch_protections/{name}',
    operationId: 'repoDeleteBranchProtection',
    summary: 'Delete a specific branch protection for the repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 204 },
    errors: [403, 404],
    handler: async ({ cx, params }) => {
      await protectionService.deleteBranchProtection(cx, repoRef(params), params.name ?? '');
    },
  }),
];
