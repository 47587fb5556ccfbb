import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import { projectCardReadWhere, projectReadWhere } from '../../services/project/visibility.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { dbId } from '../ids.ts';
import { bothNodePaths, scalars, withIssueScalars, withScalars, withUserScalars } from '../selection.ts';
import { filteredBy, inherits } from '../policy.ts';
import type { GraphQLContext } from '../context.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { IssueRef } from './issue.ts';
import { PullRequestRef } from './pullRequest.ts';
import { ActorRef } from './repositoryOwner.ts';
import { ClosableRef, ProjectOwnerRef as ProjectOwnerInterface } from './githubInterfaces.ts';

export const ProjectStateEnum = builder.enumType('ProjectState', {
  description: 'State of a project: open or closed.',
  values: { OPEN: { value: 'OPEN' }, CLOSED: { value: 'CLOSED' } } as const,
});

const ProjectColumnRef = builder.prismaNode('ProjectColumn', {
  description: 'A column of a project; the default one receives issues added without a column.',
  id: { field: 'id' },
  // node(id:): a column is readable with its project.
  ...filteredBy('projectReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), project: projectReadWhere(ctx.cx) }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('title'),
    isDefault: t.exposeBoolean('isDefault'),
    color: t.string({ nullable: true, description: 'Hex colour with `#`.', resolve: (c) => c.color || null }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const PROJECT_SCALARS = scalars(Models.Prisma.ProjectScalarFieldEnum);

const projectIssues = prismaConnectionHelpers(builder, 'ProjectIssue', {
  cursor: 'id',
  select: (nodeSelection) => ({ issue: withIssueScalars(nodeSelection(true)) }),
  query: (_args, ctx: GraphQLContext) => ({ where: { issue: issueReadWhere(ctx.cx) }, orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.issue,
});

/** Gitea's web path of a project: `/{owner}/{repo}/projects/{id}`, or `/{owner}/-/projects/{id}` for an owner's. */
function projectPath(p: { id: number; repo: { ownerName: string; name: string } | null; owner: { name: string } | null }): string {
  if (p.repo) return `/${encodeURIComponent(p.repo.ownerName)}/${encodeURIComponent(p.repo.name)}/projects/${p.id}`;
  return `/${encodeURIComponent(p.owner?.name ?? '')}/-/projects/${p.id}`;
}

/**
 * A project (GitHub's classic Project names over Gitea's project boards). node(id:) and every list answer only
 * projects the viewer may see (projectReadWhere).
 */
export const ProjectRef = builder.prismaNode('Project', {
  description: "A project board of a repository or of an organization (Gitea's projects).",
  interfaces: [ClosableRef],
  id: { field: 'id' },
  ...filteredBy('projectReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [projectReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
    number: t.exposeInt('id', { description: 'Gitea projects have no per-owner number: the database id.' }),
    name: t.exposeString('title'),
    body: t.string({ nullable: true, resolve: (p) => p.description || null }),
    state: t.field({ type: ProjectStateEnum, resolve: (p) => (p.isClosed ? 'CLOSED' : 'OPEN') }),
    closed: t.exposeBoolean('isClosed'),
    closedAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => (p.isClosed ? p.closedAt : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    url: t.field({
      type: 'URI',
      description: 'The web URL.',
      select: { repo: { select: { ownerName: true, name: true } }, owner: { select: { name: true } } },
      resolve: (p, _a, ctx) => `${ctx.cx.config.rootUrl}${projectPath(p).slice(1)}`,
    }),
    resourcePath: t.field({
      type: 'URI',
      description: 'The web path.',
      select: { repo: { select: { ownerName: true, name: true } }, owner: { select: { name: true } } },
      resolve: (p) => projectPath(p),
    }),
    creator: t.field({
      type: ActorRef,
      nullable: true,
      description: 'Null once the creator is deleted.',
      ...inherits('REST shows the creator with the project'),
      select: (_a, _c, nested) => ({ creator: withUserScalars(nested(true)) }),
      resolve: (p) => p.creator,
    }),
    owner: t.field({
      type: ProjectOwnerInterface,
      ...inherits('a readable project implies a visible owner (projectReadWhere checks the repository or the account)'),
      select: { repo: true, owner: true },
      resolve: (p) => {
        const owner = p.repo ?? p.owner;
        if (!owner) throw new NotFoundError('project owner does not exist', { projectId: p.id });
        return owner;
      },
    }),
    columns: t.relatedConnection(
      'columns',
      {
        cursor: 'id',
        description: 'Columns, in board order.',
        totalCount: true,
        ...inherits('the columns of a readable project'),
        query: () => ({ orderBy: [{ sorting: 'asc' as const }, { id: 'asc' as const }] }),
      },
      { name: 'ProjectColumnConnection' },
      { name: 'ProjectColumnEdge' },
    ),
    issues: t.connection(
      {
        type: IssueRef,
        description: 'Issues and pull requests on the board that the viewer may see, in the order they joined it.',
        ...filteredBy('issueReadWhere'),
        select: (args, ctx, nested) => ({
          projectIssues: projectIssues.getQuery(args, ctx, bothNodePaths(nested)),
          _count: { select: { projectIssues: { where: { issue: issueReadWhere(ctx.cx) } } } },
        }),
        resolve: (p, args, ctx) => withTotal(projectIssues.resolve(p.projectIssues, args, ctx), p._count.projectIssues),
      },
      { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    ),
  }),
});
tokenReadScope(ProjectRef, (p) => (p.repoId !== null ? 'repository' : 'organization'));

const ProjectCardArchivedStateEnum = builder.enumType('ProjectCardArchivedState', {
  description: 'The possible archived states of a project card.',
  values: {
    ARCHIVED: { value: 'ARCHIVED', description: 'A project card that is archived (Gitea archives no cards: none are).' },
    NOT_ARCHIVED: { value: 'NOT_ARCHIVED', description: 'A project card that is not archived (every card).' },
  } as const,
});

/**
 * What a card's `column` reads: its own column, and the project's default column for a card whose column was
 * deleted (Gitea shows such issues in the default column).
 */
const CARD_COLUMN_SELECT = {
  projectColumn: true,
  project: { select: { columns: { where: { isDefault: true }, orderBy: { id: 'asc' as const }, take: 1 } } },
} as const;

/**
 * An issue's place on a project board (Gitea's project_issue rows, as GitHub's classic ProjectCard). node(id:)
 * answers only cards of readable issues on readable projects (projectCardReadWhere).
 */
const ProjectCardRef = builder.prismaNode('ProjectIssue', {
  name: 'ProjectCard',
  description: "An issue or pull request on a project board (GitHub's classic ProjectCard; Gitea boards hold no notes).",
  id: { field: 'id' },
  ...filteredBy('projectCardReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [projectCardReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    project: t.relation('project', {
      type: ProjectRef,
      description: 'The project the card is on.',
      ...inherits('a readable card is on a readable project (projectCardReadWhere)'),
    }),
    column: t.field({
      type: ProjectColumnRef,
      nullable: true,
      description:
        "The column the card sits in: its own, or the project's default column when its column was deleted (where Gitea shows it); null when the project has no default column either.",
      ...inherits('the columns of a readable project (projectCardReadWhere)'),
      select: CARD_COLUMN_SELECT,
      resolve: (c) => c.projectColumn ?? c.project.columns[0] ?? null,
    }),
    isArchived: t.boolean({ description: 'Always false: Gitea does not archive cards.', resolve: () => false }),
  }),
});
tokenReadScope(ProjectCardRef, 'issue');

const ProjectCardConnectionRef = builder.connectionObject(
  {
    type: ProjectCardRef,
    name: 'ProjectCardConnection',
    fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }),
  },
  { name: 'ProjectCardEdge' },
);

/** Page sizes of the card lists paged in memory: the graph's. */
const CARD_PAGE = { defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE };

type Selection = Parameters<typeof withScalars>[0];
/** A connection's planned selection of its nodes (bothNodePaths). */
const nodeSelection = (nested: unknown): Selection => (bothNodePaths(nested) as (selection: true) => Selection)(true);

/**
 * The `projectIssues` an issue row's project fields select: every card the viewer may read (projectCardReadWhere),
 * in the order the issue joined the projects, with what the fields below read. The arguments are the same for
 * Issue.projects and Issue.projectCards whatever their page arguments, so the fields (and aliases of them) share
 * one planned relation: plugin-prisma loads a relation selected with other arguments again for every row. The
 * fields page in memory, as Prisma pages a nested relation of a list anyway; an issue is on a handful of projects.
 */
function readableCards(ctx: GraphQLContext, selection: Selection) {
  return {
    projectIssues: {
      where: projectCardReadWhere(ctx.cx),
      orderBy: { id: 'asc' as const },
      ...(selection === true ? {} : (selection as { select?: Record<string, unknown> })),
    },
  };
}

/** GitHub's arguments of projectCards besides the page: `archivedStates`. */
const CARD_ARGS = builder.args((t) => ({
  archivedStates: t.field({
    type: [ProjectCardArchivedStateEnum],
    required: { list: false, items: false },
    defaultValue: ['ARCHIVED', 'NOT_ARCHIVED'],
    description: 'Only cards in these states (every card is NOT_ARCHIVED).',
  }),
}));

/** The cards `projectCards(archivedStates:)` lists: none when only archived ones are asked for (no card is). */
const unarchived = <T>(cards: readonly T[], states: readonly (string | null | undefined)[] | null | undefined): readonly T[] =>
  states && !states.includes('NOT_ARCHIVED') ? [] : cards;

builder.prismaObjectFields(IssueRef, (t) => ({
  projects: t.connection(
    {
      type: ProjectRef,
      description: 'Projects the issue is in that the viewer may see, by id.',
      ...filteredBy('projectCardReadWhere'),
      select: (_args, ctx, nested) =>
        readableCards(ctx, { select: { projectId: true, project: withScalars(nodeSelection(nested), PROJECT_SCALARS) } }),
      resolve: (i, args) => {
        const cards = [...(i.projectIssues as (Models.ProjectIssue & { project: Models.Project })[])];
        cards.sort((a, b) => a.projectId - b.projectId);
        return arrayConnection(
          args,
          cards.map((c) => c.project),
          CARD_PAGE,
        );
      },
    },
    { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
  ),
  projectCards: t.connection(
    {
      type: ProjectCardRef,
      description: 'The cards of the projects the issue is on that the viewer may see, in the order the issue joined them.',
      args: CARD_ARGS,
      ...filteredBy('projectCardReadWhere'),
      select: (_args, ctx, nested) => readableCards(ctx, nodeSelection(nested)),
      resolve: (i, args) => arrayConnection(args, unarchived(i.projectIssues, args.archivedStates), CARD_PAGE),
    },
    ProjectCardConnectionRef,
  ),
}));

builder.prismaObjectFields(PullRequestRef, (t) => ({
  projectCards: t.connection(
    {
      type: ProjectCardRef,
      description: 'The cards of the projects the pull request is on that the viewer may see, in the order it joined them.',
      args: CARD_ARGS,
      ...filteredBy('projectCardReadWhere'),
      select: (_args, ctx, nested) => ({ issue: { select: readableCards(ctx, nodeSelection(nested)) } }),
      resolve: (p, args) => arrayConnection(args, unarchived(p.issue.projectIssues, args.archivedStates), CARD_PAGE),
    },
    ProjectCardConnectionRef,
  ),
}));
