import { generateRepo } from '../../../services/repo/generate.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepository } from '../../convert/repo.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { GenerateRepoOption } from '../../structs/repo.ts';

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** Creating a repository from a template (Gitea routers/api/v1/repo/repo.go Generate). */
export const generateRoutes: readonly RouteDef[] = [
  defineRoute({
    method: 'POST',
    path: '/repos/{template_owner}/{template_repo}/generate',
    operationId: 'generateRepo',
    summary: 'Create a repository using a template',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'token',
    body: GenerateRepoOption,
    success: { status: 201, schema: 'Repository' },
    errors: [401, 403, 404, 409, 422],
    handler: async ({ cx, params, body }) => {
      const { repo, perm } = await generateRepo(
        cx,
        { owner: params.template_owner ?? '', repo: params.template_repo ?? '' },
        {
          owner: body.owner,
          name: body.name,
          description: opt(body.description),
          private: opt(body.private),
          defaultBranch: opt(body.default_branch),
          gitContent: opt(body.git_content),
          topics: opt(body.topics),
          gitHooks: opt(body.git_hooks),
          webhooks: opt(body.webhooks),
          avatar: opt(body.avatar),
          labels: opt(body.labels),
          protectedBranch: opt(body.protected_branch),
        },
      );
      return toApiRepository(repo, repo.owner, perm, convertOptions(cx));
    },
  }),
];
