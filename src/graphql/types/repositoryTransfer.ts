// Repository transfer in the graph (GitHub has none; named after the REST operations): transferRepository,
// acceptRepositoryTransfer, rejectRepositoryTransfer.
import * as transferService from '../../services/repo/transfer.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { RepositoryRef } from './repository.ts';

builder.relayMutationField(
  'transferRepository',
  {
    inputFields: (t) => ({
      owner: t.string({ required: true }),
      name: t.string({ required: true }),
      newOwnerLogin: t.string({ required: true, description: 'A user or an organization.' }),
      teamIds: t.intList({ description: 'REST ids of teams of the new owning organization to grant the repository.' }),
    }),
  },
  {
    description:
      'Transfer a repository (as POST /api/v1/repos/{owner}/{repo}/transfer): at once when the viewer may create repositories in the target, else pending until the recipient accepts.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const result = await transferService.startTransfer(
        ctx.cx,
        { owner: input.owner, repo: input.name },
        { newOwner: input.newOwnerLogin, teamIds: input.teamIds ?? null },
      );
      return { repository: result.repo.repo, pending: result.pending };
    },
  },
  {
    outputFields: (t) => ({
      repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }),
      pending: t.boolean({ description: 'True while the recipient has to accept.', resolve: (p) => p.pending }),
    }),
  },
);

for (const [name, accept] of [
  ['acceptRepositoryTransfer', true],
  ['rejectRepositoryTransfer', false],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ owner: t.string({ required: true }), name: t.string({ required: true }) }) },
    {
      description: `${accept ? 'Accept' : 'Reject'} a pending transfer as its recipient (as POST /api/v1/repos/{owner}/{repo}/transfer/${accept ? 'accept' : 'reject'}).`,
      ...writeScope('repository'),
      resolve: async (_root, { input }, ctx) => {
        const ref = { owner: input.owner, repo: input.name };
        const result = await (accept ? transferService.acceptTransfer : transferService.rejectTransfer)(ctx.cx, ref);
        return { repository: result.repo };
      },
    },
    { outputFields: (t) => ({ repository: t.field({ type: RepositoryRef, resolve: (p) => p.repository }) }) },
  );
}
