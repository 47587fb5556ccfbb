import * as tagProtectionService from '../../../services/protection/tagManage.ts';
import { tagProtectionInput, toApiTagProtection } from '../../convert/tagProtection.ts';
import { idParam, repoRef } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateTagProtectionOption, EditTagProtectionOption } from '../../structs/tagProtection.ts';

const PROTECTION_ID = { id: idOf('tag protection') };

/** /repos/{owner}/{repo}/tag_protections: list, create, get, edit, delete (Gitea's group has reqToken + reqAdmin). */
export const tagProtectionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/tag_protections',
    operationId: 'repoListTagProtection',
    summary: 'List tag protections for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    success: { status: 200, schema: '[TagProtection]' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => (await tagProtectionService.listTagProtections(cx, repoRef(params))).map(toApiTagProtection),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/tag_protections',
    operationId: 'repoCreateTagProtection',
    summary: 'Create a tag protections for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateTagProtectionOption,
    success: { status: 201, schema: 'TagProtection' },
    errors: [400, 401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiTagProtection(await tagProtectionService.createTagProtection(cx, repoRef(params), tagProtectionInput(body))),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/tag_protections/{id}',
    operationId: 'repoGetTagProtection',
    summary: 'Get a specific tag protection for the repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: PROTECTION_ID,
    success: { status: 200, schema: 'TagProtection' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiTagProtection(await tagProtectionService.getTagProtection(cx, repoRef(params), idParam(params))),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}/tag_protections/{id}',
    operationId: 'repoEditTagProtection',
    summary: 'Edit a tag protections for a repository. Only fields that are set will be changed',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: PROTECTION_ID,
    body: EditTagProtectionOption,
    success: { status: 200, schema: 'TagProtection' },
    errors: [401, 403, 404, 422, 423],
    handler: async ({ cx, params, body }) =>
      toApiTagProtection(await tagProtectionService.editTagProtection(cx, repoRef(params), idParam(params), tagProtectionInput(body))),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/tag_protections/{id}',
    operationId: 'repoDeleteTagProtection',
    summary: 'Delete a specific tag protection for the repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    params: PROTECTION_ID,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await tagProtectionService.deleteTagProtection(cx, repoRef(params), idParam(params));
    },
  }),
];
