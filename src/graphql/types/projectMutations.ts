// Project boards' mutations (GitHub's classic projects; Gitea's project boards): create, update, delete, and cards.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { ValidationError } from '../../errors.ts';
import { locateIssueById, type IssueLocation } from '../../services/issue/issue.ts';
import * as issueProjectService from '../../services/issue/issueProject.ts';
import * as projectService from '../../services/project/project.ts';
import { projectReadWhere } from '../../services/project/visibility.ts';
import type { ProjectOwnerRef } from '../../services/project/projectScope.ts';
import { builder } from '../builder.ts';
import { opt, requireDbIdOf } from '../ids.ts';
import { writeScope, writeScopeBy } from '../tokenWriteScopes.ts';
import { loginOfOwnerId, repoRefOf } from '../idInputs.ts';
import type { GraphQLContext } from '../context.ts';
import { IssueRef } from './issue.ts';
import { ProjectRef, ProjectStateEnum } from './project.ts';

/** The database id of a global id of `typename`. @throws NotFoundError for another type's id */
function idOf(id: { typename: string; id: string }, typename: 'Project' | 'Issue'): number {
  return requireDbIdOf(id, typename, 'not found');
}

/** Where a project mutation's project lives: a repository (owner and name) or an organization. @throws ValidationError */
function ownerRef(input: {
  organizationLogin?: string | null;
  repositoryOwner?: string | null;
  repositoryName?: string | null;
}): ProjectOwnerRef {
  if (input.repositoryOwner && input.repositoryName) return { owner: input.repositoryOwner, repo: input.repositoryName };
  if (input.organizationLogin) return { org: input.organizationLogin };
  throw new ValidationError('Required', { field: 'organizationLogin', rule: 'Required' });
}

/** A project known by its id is a repository's (`repository`) or an organization's (`organization`). */
const PROJECT_OWNERS = [['repository'], ['organization']] as const;

/** GitHub's project templates: Gitea has the basic kanban and bug triage boards, without automation. */
const ProjectTemplateEnum = builder.enumType('ProjectTemplate', {
  description: "The columns a new project starts with besides its default one (Gitea's project templates).",
  values: {
    BASIC_KANBAN: { value: 'BASIC_KANBAN', description: 'To Do, In Progress and Done.' },
    BUG_TRIAGE: { value: 'BUG_TRIAGE', description: 'Needs Triage, High Priority, Low Priority and Closed.' },
    AUTOMATED_KANBAN_V2: { value: 'AUTOMATED_KANBAN_V2', description: 'Refused: Gitea projects have no automation.' },
    AUTOMATED_REVIEWS_KANBAN: { value: 'AUTOMATED_REVIEWS_KANBAN', description: 'Refused: Gitea projects have no automation.' },
  } as const,
});

/** The owner a createProject input names: GitHub's ownerId (an Organization or Repository id) or our login fields. */
async function createProjectOwner(
  ctx: GraphQLContext,
  input: Parameters<typeof ownerRef>[0] & { ownerId?: { typename: string; id: string } | null },
): Promise<ProjectOwnerRef> {
  if (!input.ownerId) return ownerRef(input);
  if (input.ownerId.typename === 'Repository') return repoRefOf(ctx, input.ownerId);
  if (input.ownerId.typename === 'User')
    throw new ValidationError('ownerId: user projects are not supported (an Organization or Repository id)', { field: 'ownerId' });
  return { org: await loginOfOwnerId(ctx, input.ownerId, ['Organization']) };
}

builder.relayMutationField(
  'createProject',
  {
    inputFields: (t) => ({
      ownerId: t.globalID({ description: 'The Organization or Repository that owns the project (or give its login fields).' }),
      template: t.field({ type: ProjectTemplateEnum }),
      repositoryIds: t.globalIDList({ description: 'Refused when not empty: Gitea projects are not linked to repositories.' }),
      organizationLogin: t.string({ description: 'The organization that owns the project (or give repositoryOwner and repositoryName).' }),
      repositoryOwner: t.string({ description: 'With repositoryName: the repository that owns the project.' }),
      repositoryName: t.string(),
      name: t.string({ required: true, description: 'At most 100 characters.' }),
      body: t.string(),
    }),
  },
  {
    description:
      'Create a project with its default column (repository project writers, as POST /api/v1/repos/{o}/{r}/projects; organization project writers, as POST /api/v1/orgs/{org}/projects).',
    ...writeScopeBy((input: { ownerId?: { typename: string } | null; repositoryOwner?: string | null; repositoryName?: string | null }) =>
      input.ownerId?.typename === 'Repository' || (input.repositoryOwner && input.repositoryName) ? 'repository' : 'organization',
    ),
    resolve: async (_root, { input }, ctx) => {
      if (input.repositoryIds?.length)
        throw new ValidationError('repositoryIds: not supported (Gitea projects are not linked to repositories)', {
          field: 'repositoryIds',
        });
      if (input.template === 'AUTOMATED_KANBAN_V2' || input.template === 'AUTOMATED_REVIEWS_KANBAN')
        throw new ValidationError(`template: ${input.template} is not supported (Gitea projects have no automation)`, {
          field: 'template',
        });
      const owner = await createProjectOwner(ctx, input);
      return {
        project: await projectService.createProject(ctx.cx, owner, {
          title: input.name,
          description: opt(input.body),
          template: input.template ?? undefined,
        }),
      };
    },
  },
  { outputFields: (t) => ({ project: t.field({ type: ProjectRef, resolve: (p) => p.project }) }) },
);

builder.relayMutationField(
  'updateProject',
  {
    inputFields: (t) => ({
      projectId: t.globalID({ required: true }),
      name: t.string(),
      body: t.string(),
      state: t.field({ type: ProjectStateEnum }),
      public: t.boolean({ description: 'Refused when given: a Gitea project is as visible as its repository or organization.' }),
    }),
  },
  {
    description: 'Edit a project; only given fields change (as PATCH …/projects/{id}).',
    ...writeScopeBy(() => PROJECT_OWNERS),
    resolve: async (_root, { input }, ctx) => {
      if (input.public != null)
        throw new ValidationError('public: not supported (a project is as visible as its repository or organization)', { field: 'public' });
      return {
        project: await projectService.updateProjectById(ctx.cx, idOf(input.projectId, 'Project'), {
          title: opt(input.name),
          description: opt(input.body),
          state: input.state ? input.state.toLowerCase() : undefined,
        }),
      };
    },
  },
  { outputFields: (t) => ({ project: t.field({ type: ProjectRef, resolve: (p) => p.project }) }) },
);

builder.relayMutationField(
  'deleteProject',
  { inputFields: (t) => ({ projectId: t.globalID({ required: true }) }) },
  {
    description: 'Delete a project with its columns; its issues leave it (as DELETE …/projects/{id}).',
    ...writeScopeBy(() => PROJECT_OWNERS),
    resolve: async (_root, { input }, ctx) => {
      await projectService.deleteProjectById(ctx.cx, idOf(input.projectId, 'Project'));
      return { id: encodeGlobalID('Project', input.projectId.id) };
    },
  },
  { outputFields: (t) => ({ deletedProjectId: t.id({ description: 'The global id of the deleted project.', resolve: (p) => p.id }) }) },
);

/** The repository and number of an issue known by its global id; unknown or invisible ids fall through to NotFound. */
async function issueRef(ctx: GraphQLContext, id: { typename: string; id: string }): Promise<IssueLocation> {
  return locateIssueById(ctx.cx, idOf(id, 'Issue'));
}

for (const [name, member] of [
  ['addIssueToProject', true],
  ['removeIssueFromProject', false],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ issueId: t.globalID({ required: true }), projectId: t.globalID({ required: true }) }) },
    {
      description: member
        ? "Put an issue in a project's default column (writers of the issue; the project must be one its repository may use, as the issue's `projects` field)."
        : 'Take an issue out of a project (writers of the issue).',
      ...writeScope('issue'),
      resolve: async (_root, { input }, ctx) => {
        const { ref, index } = await issueRef(ctx, input.issueId);
        const projectId = idOf(input.projectId, 'Project');
        const view = member
          ? await issueProjectService.addIssueToProject(ctx.cx, ref, index, projectId)
          : await issueProjectService.removeIssueFromProject(ctx.cx, ref, index, projectId);
        return { issue: view.issue, projectId };
      },
    },
    {
      outputFields: (t) => ({
        issue: t.field({ type: IssueRef, resolve: (p) => p.issue }),
        project: t.prismaField({
          type: ProjectRef,
          nullable: true,
          resolve: (query, p, _a, ctx) =>
            ctx.cx.db.project.findFirst({ ...query, where: { id: p.projectId, AND: [projectReadWhere(ctx.cx)] } }),
        }),
      }),
    },
  );
}
