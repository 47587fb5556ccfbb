import { ValidationError } from '../../errors.ts';
import * as generateService from '../../services/repo/generate.ts';
import { builder } from '../builder.ts';
import { withInputFieldNames } from '../errors.ts';
import { loginOfOwnerId, repoRefOf } from '../idInputs.ts';
import { opt } from '../ids.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { RepositoryRef } from './repository.ts';
import { RepositoryVisibilityEnum } from './repositoryListArgs.ts';

/** The service's (Gitea's) field names → the mutation inputs', for `ValidationError.field`. */
const INPUT_FIELDS = { name: 'name', default_branch: 'defaultBranch', description: 'description' };

builder.relayMutationField(
  'cloneTemplateRepository',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({ required: true, description: 'The Node ID of the template repository.' }),
      ownerId: t.globalID({ required: true, description: 'The ID of the owner for the new repository (a User or Organization).' }),
      name: t.string({ required: true, description: 'The name of the new repository.' }),
      description: t.string({ description: 'A short description of the new repository.' }),
      visibility: t.field({ type: RepositoryVisibilityEnum, required: true, description: 'PUBLIC or PRIVATE; INTERNAL is refused.' }),
      includeAllBranches: t.boolean({
        defaultValue: false,
        description: 'Only false is accepted: Gitea copies the default branch of the template.',
      }),
      // Gitea's GenerateRepoOption items (ours).
      gitContent: t.boolean({ defaultValue: true, description: "The template's default-branch files (Gitea git_content)." }),
      defaultBranch: t.string({ description: "The new default branch; the template's when omitted." }),
      topics: t.boolean({ description: "Copy the template's topics." }),
      labels: t.boolean({ description: "Copy the template's labels." }),
      webhooks: t.boolean({ description: "Copy the template's webhooks." }),
      protectedBranch: t.boolean({ description: "Copy the template's branch protection rules." }),
      avatar: t.boolean({ description: "Copy the template's avatar." }),
      gitHooks: t.boolean({ description: "Copy the template's git hooks (unless DISABLE_GIT_HOOKS)." }),
    }),
  },
  {
    description:
      'Create a new repository with the same files and directory structure as a template repository (as POST /api/v1/repos/{template_owner}/{template_repo}/generate).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      if (input.visibility === 'INTERNAL')
        throw new ValidationError('visibility: INTERNAL is not supported (Gitea has no internal repositories)', { field: 'visibility' });
      if (input.includeAllBranches)
        throw new ValidationError('includeAllBranches: not supported (only the default branch is copied)', { field: 'includeAllBranches' });
      const template = await repoRefOf(ctx, input.repositoryId);
      const owner = await loginOfOwnerId(ctx, input.ownerId);
      const created = await withInputFieldNames(INPUT_FIELDS, () =>
        generateService.generateRepo(ctx.cx, template, {
          owner,
          name: input.name,
          description: opt(input.description),
          private: input.visibility === 'PRIVATE',
          defaultBranch: opt(input.defaultBranch),
          gitContent: input.gitContent ?? true,
          topics: opt(input.topics),
          labels: opt(input.labels),
          webhooks: opt(input.webhooks),
          protectedBranch: opt(input.protectedBranch),
          avatar: opt(input.avatar),
          gitHooks: opt(input.gitHooks),
        }),
      );
      return { repository: created.repo };
    },
  },
  { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
);
