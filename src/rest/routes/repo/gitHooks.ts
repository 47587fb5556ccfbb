import * as gitHookService from '../../../services/repo/gitHooks.ts';
import { toApiGitHook } from '../../convert/gitHook.ts';
import { repoRef } from '../../params.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { EditGitHookOption } from '../../structs/gitHook.ts';

const BASE = '/repos/{owner}/{repo}/hooks/git';
const HOOK_NAME = { id: { schema: { type: 'string' as const }, description: 'id of the hook to get' } };
const common = { tag: 'repository', scopes: ['repository' as const], gate: 'token' as const };

/** A repository's own git hook scripts (Gitea routers/api/v1/repo/git_hook.go). */
export const gitHookRoutes: readonly RouteDef[] = [
  defineRoute({
    ...common,
    method: 'GET',
    path: BASE,
    operationId: 'repoListGitHooks',
    summary: 'List the Git hooks in a repository',
    success: { status: 200, schema: '[GitHook]' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => (await gitHookService.listGitHooks(cx, repoRef(params))).map(toApiGitHook),
  }),
  defineRoute({
    ...common,
    method: 'GET',
    path: `${BASE}/{id}`,
    operationId: 'repoGetGitHook',
    summary: 'Get a Git hook',
    params: HOOK_NAME,
    success: { status: 200, schema: 'GitHook' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => toApiGitHook(await gitHookService.getGitHook(cx, repoRef(params), params.id ?? '')),
  }),
  defineRoute({
    ...common,
    method: 'PATCH',
    path: `${BASE}/{id}`,
    operationId: 'repoEditGitHook',
    summary: 'Edit a Git hook in a repository',
    params: HOOK_NAME,
    body: EditGitHookOption,
    success: { status: 200, schema: 'GitHook' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) =>
      toApiGitHook(await gitHookService.editGitHook(cx, repoRef(params), params.id ?? '', body.content ?? '')),
  }),
  defineRoute({
    ...common,
    method: 'DELETE',
    path: `${BASE}/{id}`,
    operationId: 'repoDeleteGitHook',
    summary: 'Delete a Git hook in a repository',
    params: HOOK_NAME,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await gitHookService.deleteGitHook(cx, repoRef(params), params.id ?? '');
    },
  }),
];
