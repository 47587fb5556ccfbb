import { NotFoundError } from '../../../errors.ts';
import * as collaboratorService from '../../../services/repo/collaborator.ts';
import { toApiRepoCollaboratorPermission } from '../../convert/collaborator.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { AddCollaboratorOption } from '../../structs/collaborator.ts';

// Repository routes answer 404 for an invisible repository before 401 (Gitea repoAssignment runs before
// reqToken), so their gate is `none` and the service asks for a signed-in viewer after the lookup.

/** /repos/{owner}/{repo}/collaborators: list, check, add or update, remove, and a user's permission. */
export const collaboratorRoutes = [
  defineList({
    path: '/repos/{owner}/{repo}/collaborators',
    operationId: 'repoListCollaborators',
    summary: "List a repository's collaborators",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    // Gitea sets X-Total-Count but no Link header on this list.
    headers: 'count',
    schema: '[User]',
    errors: [401, 403, 404],
    load: ({ cx, params, page }) => collaboratorService.listCollaborators(cx, repoRef(params), page),
    convert: (result, { cx }) => toApiUserList(result.items, cx.viewer, convertOptions(cx)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
    operationId: 'repoCheckCollaborator',
    summary: 'Check if a user is a collaborator of a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      if (!(await collaboratorService.isCollaborator(cx, repoRef(params), params.collaborator ?? ''))) throw new NotFoundError('not found');
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
    operationId: 'repoAddCollaborator',
    summary: 'Add or Update a collaborator to a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: AddCollaboratorOption,
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      await collaboratorService.addOrUpdateCollaborator(cx, repoRef(params), params.collaborator ?? '', body.permission ?? undefined);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/repos/{owner}/{repo}/collaborators/{collaborator}',
    operationId: 'repoDeleteCollaborator',
    summary: 'Delete a collaborator from a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await collaboratorService.deleteCollaborator(cx, repoRef(params), params.collaborator ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/collaborators/{collaborator}/permission',
    operationId: 'repoGetRepoPermissions',
    summary: 'Get repository permissions for a user',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'RepoCollaboratorPermission' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) =>
      toApiRepoCollaboratorPermission(
        await collaboratorService.getCollaboratorPermission(cx, repoRef(params), params.collaborator ?? ''),
        convertOptions(cx),
      ),
  }),
];
