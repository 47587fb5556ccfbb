import * as forkService from '../../services/repo/fork.ts';
import { repoReadWhere } from '../../services/repo/visibility.ts';
import { builder } from '../builder.ts';
import { withInputFieldNames } from '../errors.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { opt } from '../ids.ts';
import { filteredBy } from '../policy.ts';
import { RepositoryConnectionRef, RepositoryRef } from './repository.ts';
import { otherRepositoryListArgs, repositoryListOrderBy, repositoryListWhere } from './repositoryListArgs.ts';

// Repository.isFork, forkCount and parent are defined with the Repository type (repository.ts).
builder.prismaObjectFields(RepositoryRef, (t) => ({
  forks: t.relatedConnection(
    'forks',
    {
      cursor: 'id',
      description: 'Direct forks of this repository that the viewer may see, oldest first (as GET /repos/{owner}/{repo}/forks).',
      totalCount: true,
      ...filteredBy('repoReadWhere'),
      args: otherRepositoryListArgs,
      query: (args, ctx) => ({
        where: { AND: [repoReadWhere(ctx.cx), repositoryListWhere(ctx, args, false)] },
        orderBy: repositoryListOrderBy(opt(args.orderBy), [{ id: 'asc' }]),
      }),
    },
    RepositoryConnectionRef,
  ),
}));

builder.relayMutationField(
  'forkRepository',
  {
    inputFields: (t) => ({
      owner: t.string({ required: true, description: "The parent repository's owner." }),
      name: t.string({ required: true, description: "The parent repository's name." }),
      organization: t.string({ description: "Fork into this organization instead of the viewer's account." }),
      forkName: t.string({ description: "The fork's name; the parent's name when omitted." }),
    }),
  },
  {
    description: "Fork a repository into the viewer's account or an organization (as POST /api/v1/repos/{owner}/{repo}/forks).",
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const forked = await withInputFieldNames({ name: 'forkName' }, () =>
        forkService.forkRepo(ctx.cx, input.owner, input.name, { organization: opt(input.organization), name: opt(input.forkName) }),
      );
      return { repository: forked.repo };
    },
  },
  { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
);
