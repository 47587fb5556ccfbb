import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import * as followService from '../../services/user/follow.ts';
import { builder } from '../builder.ts';
import { dbIdOf } from '../ids.ts';
import { filteredBy } from '../policy.ts';
import { bothNodePaths, withUserScalars } from '../selection.ts';
import { sharedConnection } from '../sharedConnection.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { UserEdgeRef, UserRef } from './user.ts';
import { withTotal } from '../totalCount.ts';

const FollowerConnectionRef = sharedConnection(UserRef, 'FollowerConnection', UserEdgeRef);
const FollowingConnectionRef = sharedConnection(UserRef, 'FollowingConnection', UserEdgeRef);

// Most recent first, as the REST lists.
const followerRows = prismaConnectionHelpers(builder, 'Follow', {
  cursor: 'id',
  select: (nodeSelection) => ({ user: withUserScalars(nodeSelection(true)) }),
  query: (_args, ctx) => ({ where: { user: followService.listedFollowWhere(ctx.cx) }, orderBy: { id: 'desc' as const } }),
  resolveNode: (row) => row.user,
});

const followingRows = prismaConnectionHelpers(builder, 'Follow', {
  cursor: 'id',
  select: (nodeSelection) => ({ follow: withUserScalars(nodeSelection(true)) }),
  query: (_args, ctx) => ({ where: { follow: followService.listedFollowWhere(ctx.cx) }, orderBy: { id: 'desc' as const } }),
  resolveNode: (row) => row.follow,
});

builder.prismaObjectFields(UserRef, (t) => ({
  followers: t.connection(
    {
      type: UserRef,
      description: 'Users following this user that the viewer may see, most recent first (as GET /api/v1/users/{username}/followers).',
      ...filteredBy('userReadWhere'),
      select: (args, ctx, nested) => ({
        followers: followerRows.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { followers: { where: { user: followService.listedFollowWhere(ctx.cx) } } } },
      }),
      resolve: (u, args, ctx) => withTotal(followerRows.resolve(u.followers, args, ctx), u._count.followers),
    },
    FollowerConnectionRef,
  ),
  following: t.connection(
    {
      type: UserRef,
      description: 'Users this user follows that the viewer may see, most recent first (as GET /api/v1/users/{username}/following).',
      ...filteredBy('userReadWhere'),
      select: (args, ctx, nested) => ({
        following: followingRows.getQuery(args, ctx, bothNodePaths(nested)),
        _count: { select: { following: { where: { follow: followService.listedFollowWhere(ctx.cx) } } } },
      }),
      resolve: (u, args, ctx) => withTotal(followingRows.resolve(u.following, args, ctx), u._count.following),
    },
    FollowingConnectionRef,
  ),
  viewerIsFollowing: t.loadable({
    type: 'Boolean',
    description: 'Whether the viewer follows this user. Inverse of isFollowingViewer.',
    load: async (ids: number[], ctx) => {
      const followed = await followService.idsViewerFollows(ctx.cx, ids);
      return ids.map((id) => followed.has(id));
    },
    resolve: (u) => u.id,
  }),
  isFollowingViewer: t.loadable({
    type: 'Boolean',
    description: 'Whether this user follows the viewer. Inverse of viewerIsFollowing.',
    load: async (ids: number[], ctx) => {
      const following = await followService.idsFollowingViewer(ctx.cx, ids);
      return ids.map((id) => following.has(id));
    },
    resolve: (u) => u.id,
  }),
  viewerCanFollow: t.loadable({
    type: 'Boolean',
    description: 'Whether the viewer may follow this user: signed in, not the user, and no block either way.',
    load: async (ids: number[], ctx) => {
      const allowed = await followService.idsViewerCanFollow(ctx.cx, ids);
      return ids.map((id) => allowed.has(id));
    },
    resolve: (u) => u.id,
  }),
}));

for (const [name, follow] of [
  ['followUser', true],
  ['unfollowUser', false],
] as const) {
  builder.relayMutationField(
    name,
    {
      inputFields: (t) => ({
        userId: t.globalID({ required: true, description: follow ? 'ID of the user to follow.' : 'ID of the user to unfollow.' }),
      }),
    },
    {
      description: follow
        ? 'Follow a user (as PUT /api/v1/user/following/{username}).'
        : 'Stop following a user (as DELETE /api/v1/user/following/{username}).',
      ...writeScope('user'),
      resolve: async (_root, { input }, ctx) => {
        const id = dbIdOf(input.userId, 'User');
        return { user: follow ? await followService.followUserById(ctx.cx, id) : await followService.unfollowUserById(ctx.cx, id) };
      },
    },
    {
      outputFields: (t) => ({
        user: t.field({
          type: UserRef,
          nullable: true,
          description: follow ? 'The user that was followed.' : 'The user that was unfollowed.',
          resolve: (p) => p.user,
        }),
      }),
    },
  );
}
