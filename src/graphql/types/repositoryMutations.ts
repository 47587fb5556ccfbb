import { requireSignedInRepo } from '../../services/access/repoAccess.ts';
import * as collaboratorService from '../../services/repo/collaborator.ts';
import * as createService from '../../services/repo/create.ts';
import * as deleteService from '../../services/repo/delete.ts';
import * as deployKeyService from '../../services/repo/deployKey.ts';
import * as editService from '../../services/repo/edit.ts';
import { builder } from '../builder.ts';
import { withInputFieldNames } from '../errors.ts';
import { writeScope, writeScopeBy } from '../tokenWriteScopes.ts';
import { opt } from '../ids.ts';
import { ValidationError } from '../../errors.ts';
import { loginOfOwnerId, repoRefOf } from '../idInputs.ts';
import { DeployKeyRef, RepositoryRef } from './repository.ts';
import { RepositoryVisibilityEnum } from './repositoryListArgs.ts';

/** The service's (Gitea's) field names → the mutation inputs', for `ValidationError.field`. */
const REPO_INPUT_FIELDS = { name: 'name', default_branch: 'defaultBranch', description: 'description', website: 'homepageUrl' };

/** One value given twice (our field and GitHub's): they must agree. @throws ValidationError naming GitHub's field */
function agreed<T>(field: string, ours: T | undefined, github: T | undefined): T | undefined {
  if (ours !== undefined && github !== undefined && ours !== github) {
    throw new ValidationError(`${field}: disagrees with the other field giving the same setting`, { field });
  }
  return ours ?? github;
}

builder.relayMutationField(
  'createRepository',
  {
    inputFields: (t) => ({
      ownerLogin: t.string({ description: 'An organization (or, for site admins, any user); the viewer when omitted.' }),
      name: t.string({ required: true }),
      description: t.string(),
      isPrivate: t.boolean(),
      isTemplate: t.boolean(),
      autoInit: t.boolean({ description: 'Write an initial commit (README, .gitignore, LICENSE).' }),
      gitignores: t.string({ description: 'Comma-separated .gitignore template names.' }),
      license: t.string({ description: 'An SPDX license id.' }),
      readme: t.string(),
      issueLabels: t.string({ description: 'A label set: Default or Advanced.' }),
      defaultBranch: t.string(),
      objectFormat: t.string({ description: 'sha1 (default) or sha256.' }),
      trustModel: t.string(),
      // GitHub's fields (its clients send these).
      ownerId: t.globalID({ description: 'The owner (a User or Organization id), as ownerLogin.' }),
      visibility: t.field({ type: RepositoryVisibilityEnum, description: 'PUBLIC or PRIVATE (as isPrivate); INTERNAL is refused.' }),
      template: t.boolean({ description: 'As isTemplate.' }),
      homepageUrl: t.field({ type: 'URI', description: 'The website.' }),
      hasIssuesEnabled: t.boolean({ description: 'false: the repository starts without the issues unit.' }),
      hasWikiEnabled: t.boolean({ description: 'false: the repository starts without the wiki unit.' }),
      teamId: t.globalID({ description: 'Refused when given: grant a team access with PUT /api/v1/repos/{o}/{r}/teams/{team}.' }),
    }),
  },
  {
    description: 'Create a repository (as POST /api/v1/user/repos, /orgs/{org}/repos or /admin/users/{username}/repos).',
    ...writeScopeBy((input: { ownerLogin?: string | null; ownerId?: unknown }) =>
      // An organization's (organization and repository) or, for site admins, another user's (admin).
      input.ownerLogin || input.ownerId ? [['repository'], ['admin']] : 'repository',
    ),
    resolve: async (_root, { input }, ctx) => {
      const viewerLogin = ctx.cx.viewer?.name.toLowerCase();
      if (input.teamId)
        throw new ValidationError('teamId: not supported; grant the team access with PUT /repos/{o}/{r}/teams/{team}', { field: 'teamId' });
      if (input.visibility === 'INTERNAL')
        throw new ValidationError('visibility: INTERNAL is not supported (Gitea has no internal repositories)', { field: 'visibility' });
      const ownerLogin = agreed('ownerLogin', opt(input.ownerLogin), input.ownerId ? await loginOfOwnerId(ctx, input.ownerId) : undefined);
      const isPrivate = agreed('visibility', opt(input.isPrivate), input.visibility ? input.visibility === 'PRIVATE' : undefined);
      const isTemplate = agreed('template', opt(input.isTemplate), opt(input.template));
      const withoutUnits = [
        ...(input.hasIssuesEnabled === false ? (['ISSUES'] as const) : []),
        ...(input.hasWikiEnabled === false ? (['WIKI'] as const) : []),
      ];
      let owner: createService.RepoOwnerRef = { kind: 'viewer' };
      if (ownerLogin && ownerLogin.toLowerCase() !== viewerLogin) {
        const row = await ctx.cx.db.user.findUnique({ where: { lowerName: ownerLogin.toLowerCase() }, select: { type: true } });
        owner = row?.type === 'ORGANIZATION' ? { kind: 'org', org: ownerLogin } : { kind: 'user', username: ownerLogin };
      }
      const created = await withInputFieldNames(REPO_INPUT_FIELDS, () =>
        createService.createRepo(ctx.cx, owner, {
          name: input.name,
          description: opt(input.description),
          private: isPrivate,
          template: isTemplate,
          website: opt(input.homepageUrl),
          withoutUnits,
          autoInit: opt(input.autoInit),
          gitignores: opt(input.gitignores),
          license: opt(input.license),
          readme: opt(input.readme),
          issueLabels: opt(input.issueLabels),
          defaultBranch: opt(input.defaultBranch),
          objectFormatName: opt(input.objectFormat),
          trustModel: opt(input.trustModel),
        }),
      );
      return { repository: created.repo };
    },
  },
  { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
);

builder.relayMutationField(
  'updateRepository',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({ required: true, description: 'The repository to edit.' }),
      name: t.string({ description: 'A new name (the repository is renamed; the old name redirects).' }),
      description: t.string(),
      homepageUrl: t.field({ type: 'URI', description: 'The website (GitHub homepageUrl; an absolute URL).' }),
      isPrivate: t.boolean(),
      template: t.boolean({ description: 'Whether the repository is a template.' }),
      isTemplate: t.boolean({ description: 'As template.' }),
      isArchived: t.boolean(),
      defaultBranch: t.string(),
      hasIssuesEnabled: t.boolean(),
      hasWikiEnabled: t.boolean(),
      hasProjectsEnabled: t.boolean(),
      hasDiscussionsEnabled: t.boolean({ description: 'Gitea has no discussions: only false is accepted.' }),
      hasSponsorshipsEnabled: t.boolean({ description: 'Gitea has no sponsorships: only false is accepted.' }),
      hasPullRequestsEnabled: t.boolean(),
      hasReleasesEnabled: t.boolean(),
      hasPackagesEnabled: t.boolean(),
      hasActionsEnabled: t.boolean(),
      hasCodeEnabled: t.boolean(),
      mergeCommitAllowed: t.boolean(),
      rebaseMergeAllowed: t.boolean(),
      squashMergeAllowed: t.boolean(),
      fastForwardOnlyAllowed: t.boolean(),
      deleteBranchOnMerge: t.boolean(),
    }),
  },
  {
    description: "Edit a repository's settings (repository admins; as PATCH /api/v1/repos/{owner}/{repo}). Only given fields change.",
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      for (const field of ['hasDiscussionsEnabled', 'hasSponsorshipsEnabled'] as const) {
        if (input[field]) throw new ValidationError(`${field}: not supported (Gitea has no such unit)`, { field });
      }
      const ref = await repoRefOf(ctx, input.repositoryId);
      const pulls: Partial<editService.PullSettings> = {};
      if (input.mergeCommitAllowed != null) pulls.allowMerge = input.mergeCommitAllowed;
      if (input.rebaseMergeAllowed != null) pulls.allowRebase = input.rebaseMergeAllowed;
      if (input.squashMergeAllowed != null) pulls.allowSquash = input.squashMergeAllowed;
      if (input.fastForwardOnlyAllowed != null) pulls.allowFastForwardOnly = input.fastForwardOnlyAllowed;
      if (input.deleteBranchOnMerge != null) pulls.defaultDeleteBranchAfterMerge = input.deleteBranchOnMerge;
      const edited = await withInputFieldNames(REPO_INPUT_FIELDS, () =>
        editService.editRepo(ctx.cx, ref, {
          name: opt(input.name),
          description: opt(input.description),
          website: opt(input.homepageUrl),
          private: opt(input.isPrivate),
          template: agreed('template', opt(input.isTemplate), opt(input.template)),
          archived: opt(input.isArchived),
          defaultBranch: opt(input.defaultBranch),
          hasIssues: opt(input.hasIssuesEnabled),
          hasWiki: opt(input.hasWikiEnabled),
          hasProjects: opt(input.hasProjectsEnabled),
          hasPullRequests: opt(input.hasPullRequestsEnabled),
          hasReleases: opt(input.hasReleasesEnabled),
          hasPackages: opt(input.hasPackagesEnabled),
          hasActions: opt(input.hasActionsEnabled),
          hasCode: opt(input.hasCodeEnabled),
          ...(Object.keys(pulls).length ? { pulls } : {}),
        }),
      );
      return { repository: edited.repo };
    },
  },
  { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
);

builder.relayMutationField(
  'deleteRepository',
  { inputFields: (t) => ({ owner: t.string({ required: true }), name: t.string({ required: true }) }) },
  {
    description: 'Delete a repository and its git directory (as DELETE /api/v1/repos/{owner}/{repo}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      await deleteService.deleteRepo(ctx.cx, input.owner, input.name);
      return { nameWithOwner: `${input.owner}/${input.name}` };
    },
  },
  { outputFields: (t) => ({ deletedNameWithOwner: t.string({ resolve: (p) => p.nameWithOwner }) }) },
);

const RepoPermissionInput = builder.enumType('CollaboratorPermissionInput', {
  description: 'A collaborator permission to grant.',
  values: { READ: { value: 'read' }, WRITE: { value: 'write' }, ADMIN: { value: 'admin' } } as const,
});

builder.relayMutationField(
  'addCollaborator',
  {
    inputFields: (t) => ({
      owner: t.string({ required: true }),
      name: t.string({ required: true }),
      login: t.string({ required: true }),
      permission: t.field({ type: RepoPermissionInput, description: 'Defaults to WRITE.' }),
    }),
  },
  {
    description: 'Add a collaborator or change their permission (as PUT /api/v1/repos/{o}/{r}/collaborators/{user}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const ref = { owner: input.owner, repo: input.name };
      await collaboratorService.addOrUpdateCollaborator(ctx.cx, ref, input.login, opt(input.permission));
      return { ref };
    },
  },
  {
    outputFields: (t) => ({
      repository: t.prismaField({
        type: RepositoryRef,
        nullable: true,
        resolve: async (query, p, _a, ctx) => {
          const { repo } = await requireSignedInRepo(ctx.cx, p.ref);
          return ctx.cx.db.repository.findUnique({ ...query, where: { id: repo.id } });
        },
      }),
    }),
  },
);

builder.relayMutationField(
  'removeCollaborator',
  {
    inputFields: (t) => ({ owner: t.string({ required: true }), name: t.string({ required: true }), login: t.string({ required: true }) }),
  },
  {
    description: 'Remove a collaborator (as DELETE /api/v1/repos/{o}/{r}/collaborators/{user}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      await collaboratorService.deleteCollaborator(ctx.cx, { owner: input.owner, repo: input.name }, input.login);
      return { login: input.login };
    },
  },
  { outputFields: (t) => ({ removedLogin: t.string({ resolve: (p) => p.login }) }) },
);

builder.relayMutationField(
  'createDeployKey',
  {
    inputFields: (t) => ({
      owner: t.string({ required: true }),
      name: t.string({ required: true }),
      title: t.string({ required: true }),
      key: t.string({ required: true, description: 'One OpenSSH public key line.' }),
      readOnly: t.boolean({ description: 'Defaults to false (write access), as Gitea.' }),
    }),
  },
  {
    description: 'Add a deploy key (repository admins; as POST /api/v1/repos/{o}/{r}/keys).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const view = await deployKeyService.createDeployKey(
        ctx.cx,
        { owner: input.owner, repo: input.name },
        { title: input.title, key: input.key, readOnly: opt(input.readOnly) },
      );
      return { deployKey: view.key };
    },
  },
  { outputFields: (t) => ({ deployKey: t.field({ type: DeployKeyRef, resolve: (p) => p.deployKey }) }) },
);

builder.relayMutationField(
  'deleteDeployKey',
  {
    inputFields: (t) => ({
      owner: t.string({ required: true }),
      name: t.string({ required: true }),
      keyId: t.int({ required: true, description: 'The deploy key id (REST id).' }),
    }),
  },
  {
    description: 'Remove a deploy key (as DELETE /api/v1/repos/{o}/{r}/keys/{id}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      await deployKeyService.deleteDeployKey(ctx.cx, { owner: input.owner, repo: input.name }, input.keyId);
      return { id: input.keyId };
    },
  },
  { outputFields: (t) => ({ deletedKeyId: t.int({ resolve: (p) => p.id }) }) },
);
