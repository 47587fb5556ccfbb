// GitHub's Repository.collaborators (affiliation, login, query) over Gitea's collaborators (GET …/collaborators).
import { createContextCache } from '@pothos/core';
import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import { resolveArrayConnection } from '@pothos/plugin-relay';
import {
  collaboratorFilterWhere,
  outsideCollaboratorsLoader,
  type CollaboratorAffiliation,
} from '../../services/repo/collaboratorFilter.ts';
import { collaborationReadWhere } from '../../services/repo/visibility.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { opt } from '../ids.ts';
import { filteredBy } from '../policy.ts';
import { bothNodePaths, withUserScalars } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { permissionName, RepositoryPermissionEnum, RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';

const CollaboratorAffiliationEnum = builder.enumType('CollaboratorAffiliation', {
  description: "Which collaborators to list, mapped onto Gitea's collaborators (see services/repo/collaboratorFilter.ts).",
  values: {
    OUTSIDE: {
      value: 'OUTSIDE',
      description: 'Collaborators who are not members of the owning organization (every one on a user-owned repository).',
    },
    DIRECT: { value: 'DIRECT', description: 'Every collaborator added to the repository, member of the organization or not.' },
    ALL: {
      value: 'ALL',
      description: "Every collaborator the viewer can see (Gitea's collaborator list; team access is not collaboration).",
    },
  } as const,
});

interface CollaboratorArgs {
  affiliation?: CollaboratorAffiliation | null | undefined;
  login?: string | null | undefined;
  query?: string | null | undefined;
}

const filterOf = (args: CollaboratorArgs) => ({ login: opt(args.login), query: opt(args.query) });

/** The read policy of collaborator lists and GitHub's login and query filters, in SQL. */
const collaboratorsWhere = (args: CollaboratorArgs, ctx: GraphQLContext) => ({
  AND: [collaborationReadWhere(ctx.cx), collaboratorFilterWhere(ctx.cx, filterOf(args))],
});

/** Per request and filter: outside collaborators of many repositories, one query (see outsideCollaboratorsLoader). */
const outsideCollaborators = createContextCache((ctx: GraphQLContext) => {
  const byFilter = new Map<string, ReturnType<typeof outsideCollaboratorsLoader>>();
  return (args: CollaboratorArgs) => {
    const filter = filterOf(args);
    const key = JSON.stringify(filter);
    let loader = byFilter.get(key);
    if (!loader) byFilter.set(key, (loader = outsideCollaboratorsLoader(ctx.cx, filter)));
    return loader;
  };
});

const collaboratorsConnection = prismaConnectionHelpers(builder, 'Collaboration', {
  cursor: 'id',
  select: (nodeSelection) => ({ mode: true, user: withUserScalars(nodeSelection(true)) }),
  query: () => ({ orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.user,
});

builder.prismaObjectFields(RepositoryRef, (t) => ({
  collaborators: t.connection(
    {
      type: UserRef,
      description:
        'Collaborators, with their permission on the edge; signed-in viewers only (as GET …/collaborators). `login`: exactly that user; `query`: a substring of the login or full name.',
      args: {
        affiliation: t.arg({ type: CollaboratorAffiliationEnum, description: 'Default ALL.' }),
        login: t.arg.string(),
        query: t.arg.string(),
      },
      ...filteredBy('collaborationReadWhere'),
      select: (args, ctx, nestedSelection) =>
        args.affiliation === 'OUTSIDE'
          ? { id: true, ownerId: true }
          : {
              collaborations: {
                ...collaboratorsConnection.getQuery(args, ctx, bothNodePaths(nestedSelection)),
                where: collaboratorsWhere(args, ctx),
              },
              _count: { select: { collaborations: { where: collaboratorsWhere(args, ctx) } } },
            },
      resolve: async (r, args, ctx) => {
        if ('_count' in r) {
          const rows = r.collaborations as Parameters<typeof collaboratorsConnection.resolve>[0];
          return withTotal(collaboratorsConnection.resolve(rows, args, ctx), r._count.collaborations);
        }
        const rows = await outsideCollaborators(ctx)(args).load(r);
        const page = resolveArrayConnection({ args }, rows);
        // The same edge shape as collaboratorsConnection's: the collaboration's fields (its mode) beside cursor and node.
        const edges = page.edges.map((e) => e && { ...e.node, cursor: e.cursor, node: e.node.user });
        return { ...page, edges, total: rows.length } as unknown as ReturnType<typeof collaboratorsConnection.resolve>;
      },
    },
    { name: 'RepositoryCollaboratorConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    {
      name: 'RepositoryCollaboratorEdge',
      fields: (e) => ({
        // A collaboration grants at least read.
        permission: e.field({ type: RepositoryPermissionEnum, resolve: (edge) => permissionName(edge.mode) ?? 'READ' }),
      }),
    },
  ),
}));
