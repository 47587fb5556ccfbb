import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import * as blockService from '../../services/user/block.ts';
import { builder } from '../builder.ts';
import { writeScopeBy } from '../tokenWriteScopes.ts';
import { opt } from '../ids.ts';
import { checkedBy } from '../policy.ts';
import { bothNodePaths, withUserScalars } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { OrganizationRef } from './organization.ts';
import { RepositoryOwnerRef } from './repositoryOwner.ts';
import { UserRef } from './user.ts';

/** Block rows of one blocker, oldest first, each resolving to the blocked user (one query under any list). */
const blockedConnection = prismaConnectionHelpers(builder, 'Block', {
  cursor: 'id',
  // Every user scalar: a `nodes { … }`-only selection (or interface fields) would otherwise select no column.
  select: (nodeSelection) => ({ note: true, createdAt: true, blockee: withUserScalars(nodeSelection(true)) }),
  query: () => ({ orderBy: { id: 'asc' as const } }),
  resolveNode: (row) => row.blockee,
});

const DESCRIPTION =
  'Users this account blocks: visible to the user itself, to organization owners and to site admins; null for everyone else.';

// The same field on both account types (one Prisma model, two GraphQL types).
for (const ref of [UserRef, OrganizationRef] as const) {
  builder.prismaObjectFields(ref, (t) => ({
    blockedUsers: t.connection(
      {
        type: UserRef,
        nullable: true,
        description: DESCRIPTION,
        ...checkedBy('canListBlocks'),
        select: (args, ctx, nestedSelection) => ({
          blocking: blockedConnection.getQuery(args, ctx, bothNodePaths(nestedSelection)),
          _count: { select: { blocking: true } },
        }),
        resolve: async (owner, args, ctx) =>
          (await blockService.canListBlocks(ctx.cx, owner))
            ? withTotal(blockedConnection.resolve(owner.blocking, args, ctx), owner._count.blocking)
            : null,
      },
      { fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
      {
        fields: (e) => ({
          note: e.string({ description: 'The note given when blocking.', resolve: (edge) => edge.note }),
          blockedAt: e.field({ type: 'DateTime', resolve: (edge) => edge.createdAt }),
        }),
      },
    ),
  }));
}

builder.relayMutationField(
  'blockUser',
  {
    inputFields: (t) => ({
      login: t.string({ required: true, description: 'The user to block.' }),
      organizationLogin: t.string({ description: 'Block for this organization (owners and site admins) instead of the viewer.' }),
      note: t.string({ description: 'A private note kept with the block.' }),
    }),
  },
  {
    description:
      'Block a user for the viewer or an organization (as PUT /api/v1/user/blocks/{username} and /orgs/{org}/blocks/{username}).',
    ...writeScopeBy((input: { organizationLogin?: string | null }) => (input.organizationLogin ? 'organization' : 'user')),
    resolve: (_root, { input }, ctx) => blockService.blockUser(ctx.cx, { org: opt(input.organizationLogin) }, input.login, opt(input.note)),
  },
  {
    outputFields: (t) => ({
      blockedUser: t.field({ type: UserRef, resolve: (p) => p.blockee }),
      blocker: t.field({ type: RepositoryOwnerRef, resolve: (p) => p.blocker }),
    }),
  },
);

builder.relayMutationField(
  'unblockUser',
  {
    inputFields: (t) => ({
      login: t.string({ required: true, description: 'The user to unblock.' }),
      organizationLogin: t.string({ description: 'Unblock for this organization (owners and site admins) instead of the viewer.' }),
    }),
  },
  {
    description:
      'Unblock a user for the viewer or an organization (as DELETE /api/v1/user/blocks/{username} and /orgs/{org}/blocks/{username}).',
    ...writeScopeBy((input: { organizationLogin?: string | null }) => (input.organizationLogin ? 'organization' : 'user')),
    resolve: (_root, { input }, ctx) => blockService.unblockUser(ctx.cx, { org: opt(input.organizationLogin) }, input.login),
  },
  {
    outputFields: (t) => ({
      unblockedUser: t.field({ type: UserRef, resolve: (p) => p.blockee }),
      blocker: t.field({ type: RepositoryOwnerRef, resolve: (p) => p.blocker }),
    }),
  },
);
