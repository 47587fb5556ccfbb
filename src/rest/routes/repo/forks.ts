import * as forkService from '../../../services/repo/fork.ts';
import { mergeUpstream } from '../../../services/repo/mergeUpstream.ts';
import { repoRef } from '../../params.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepository, toApiRepositoryList } from '../../convert/repo.ts';
import { defineList } from '../../list.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CreateForkOption, MergeUpstreamRequest } from '../../structs/fork.ts';

/** Repository forks and syncing them with their upstream (Gitea routers/api/v1/repo/fork.go, repo.go MergeUpstream). */
export const forkRoutes: readonly RouteDef[] = [
  defineList({
    path: '/repos/{owner}/{repo}/forks',
    operationId: 'listForks',
    summary: "List a repository's forks",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    headers: 'link',
    schema: '[Repository]',
    errors: [404],
    load: ({ cx, params, page }) => forkService.listForks(cx, params.owner ?? '', params.repo ?? '', page),
    convert: (result, { cx }) => toApiRepositoryList(result.items, convertOptions(cx)),
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/forks',
    operationId: 'createFork',
    summary: 'Fork a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: CreateForkOption,
    // Gitea answers 202 (a comment in its handler says it means to return 201 one day): the fork is complete when the response is sent.
    success: { status: 202, schema: 'Repository' },
    errors: [401, 403, 404, 409, 422],
    handler: async ({ cx, params, body }) => {
      const { repo, perm } = await forkService.forkRepo(cx, params.owner ?? '', params.repo ?? '', {
        organization: body.organization ?? undefined,
        name: body.name ?? undefined,
      });
      return toApiRepository(repo, repo.owner, perm, convertOptions(cx));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/repos/{owner}/{repo}/merge-upstream',
    operationId: 'repoMergeUpstream',
    summary: 'Merge a branch from upstream',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: MergeUpstreamRequest,
    success: { status: 200, schema: 'MergeUpstreamResponse' },
    errors: [400, 401, 403, 404, 409, 423],
    handler: async ({ cx, params, body }) => ({
      merge_type: await mergeUpstream(cx, repoRef(params), {
        ...(body.branch ? { branch: body.branch } : {}),
        ffOnly: body.ff_only === true,
      }),
    }),
  }),
];
