// A repository's and an organization's projects (GitHub's Repository.projects and Organization.projects, with its
// arguments: states, search by name, orderBy), through the projects' read policy.
import type { Models } from '../../db/client.ts';
import { projectListWhere } from '../../services/project/listFilter.ts';
import { projectReadWhere } from '../../services/project/visibility.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { dbId, opt } from '../ids.ts';
import { filteredBy } from '../policy.ts';
import { sharedConnection } from '../sharedConnection.ts';
import { orderInput } from './orderInput.ts';
import { OrganizationRef } from './organization.ts';
import { ProjectRef, ProjectStateEnum } from './project.ts';
import { RepositoryRef } from './repository.ts';

/** GitHub's ProjectConnection: a repository's or an organization's projects. */
const ProjectConnectionRef = sharedConnection(ProjectRef, 'ProjectConnection');

const ProjectOrderInput = orderInput('ProjectOrder', ['CREATED_AT', 'NAME', 'UPDATED_AT'] as const, 'project connections');

const PROJECT_LIST_ARGS = builder.args((t) => ({
  states: t.field({ type: [ProjectStateEnum], required: false }),
  search: t.string({ description: 'Only projects whose name contains this.' }),
  orderBy: t.field({ type: ProjectOrderInput, description: 'Newest first when absent.' }),
}));

interface ProjectListArgs {
  states?: readonly ('OPEN' | 'CLOSED')[] | null;
  search?: string | null;
  orderBy?: { field: 'CREATED_AT' | 'NAME' | 'UPDATED_AT'; direction: 'ASC' | 'DESC' } | null;
}

const ORDER_COLUMN = { CREATED_AT: 'createdAt', NAME: 'title', UPDATED_AT: 'updatedAt' } as const;

/** The list's query: `type`'s projects the viewer may see, filtered and ordered by the arguments. */
function projectListQuery(type: Models.ProjectType, args: ProjectListArgs, ctx: GraphQLContext) {
  const direction = args.orderBy?.direction === 'ASC' ? ('asc' as const) : ('desc' as const);
  return {
    where: {
      AND: [{ type }, projectReadWhere(ctx.cx), projectListWhere(ctx.cx, { states: opt(args.states), search: opt(args.search) })],
    },
    orderBy: args.orderBy
      ? [{ [ORDER_COLUMN[args.orderBy.field]]: direction }, { id: direction }]
      : [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
  };
}

builder.prismaObjectFields(RepositoryRef, (t) => ({
  projects: t.relatedConnection(
    'projects',
    {
      cursor: 'id',
      description:
        "The repository's projects, newest first unless `orderBy` says otherwise; empty when the viewer cannot read the projects unit or it shows only owner projects.",
      totalCount: true,
      ...filteredBy('projectReadWhere'),
      args: PROJECT_LIST_ARGS,
      query: (args, ctx) => projectListQuery('REPOSITORY', args, ctx),
    },
    ProjectConnectionRef,
  ),
  project: t.field({
    type: ProjectRef,
    nullable: true,
    description: 'A project of the repository by number (its database id).',
    ...filteredBy('projectReadWhere'),
    args: { number: t.arg.int({ required: true }) },
    select: (args, ctx, nested) => ({
      projects: {
        where: { AND: [{ id: dbId(String(args.number)), type: 'REPOSITORY' }, projectReadWhere(ctx.cx)] },
        take: 1,
        ...nested(true),
      },
    }),
    resolve: (r) => r.projects[0] ?? null,
  }),
}));

builder.prismaObjectFields(OrganizationRef, (t) => ({
  projects: t.relatedConnection(
    'ownedProjects',
    {
      cursor: 'id',
      description:
        "The organization's projects the viewer may see (as GET /api/v1/orgs/{org}/projects), newest first unless `orderBy` says otherwise.",
      totalCount: true,
      ...filteredBy('projectReadWhere'),
      args: PROJECT_LIST_ARGS,
      query: (args, ctx) => projectListQuery('ORGANIZATION', args, ctx),
    },
    ProjectConnectionRef,
  ),
}));
