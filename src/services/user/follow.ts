// Following users (Gitea models/user/follow.go, routers/api/v1/user/follower.go).
import type { DbLike, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { requireTokenScope, requireViewer, requireWriter } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { getUserByName } from './user.ts';
import { userReadWhere } from './visibility.ts';

type User = Models.User;

/** Gitea's ErrBlockedUser (a PermissionDenied kind: 403). */
const BLOCKED = 'user is blocked';

/** The account named `username` as the viewer may see it; the viewer itself without a lookup. @throws NotFoundError */
async function accountOf(cx: ServiceContext, username: string): Promise<User> {
  if (cx.viewer && cx.viewer.lowerName === username.toLowerCase()) return cx.viewer;
  return getUserByName(cx, username);
}

/**
 * The accounts a follower list shows (Gitea GetUserFollowers / GetUserFollowing): individual users only, and only
 * those the viewer may see (the user read policy).
 */
export function listedFollowWhere(cx: ServiceContext): Models.Prisma.UserWhereInput {
  return { type: 'INDIVIDUAL', AND: [userReadWhere(cx)] };
}

/** Whether `userId` follows `followId`. */
export async function isFollowing(db: DbLike, userId: number, followId: number): Promise<boolean> {
  return (await db.follow.findUnique({ where: { userId_followId: { userId, followId } }, select: { id: true } })) !== null;
}

/**
 * GET /users/{username}/followers (the viewer's with no username: GET /user/followers), most recent first.
 * @throws NotFoundError (unknown or invisible user), UnauthenticatedError, PermissionDeniedError (token scope)
 */
export async function listFollowers(cx: ServiceContext, username: string | null, opts: ListOptions | ListWindow): Promise<Page<User>> {
  requireTokenScope(cx, 'user', 'read');
  const user = username === null ? requireViewer(cx) : await accountOf(cx, username);
  const where = { followId: user.id, user: listedFollowWhere(cx) };
  const [rows, total] = await Promise.all([
    cx.db.follow.findMany({ where, orderBy: { id: 'desc' }, include: { user: true }, ...skipTake(opts) }),
    cx.db.follow.count({ where }),
  ]);
  return { items: rows.map((r) => r.user), total };
}

/**
 * GET /users/{username}/following (the viewer's with no username: GET /user/following), most recent first.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listFollowing(cx: ServiceContext, username: string | null, opts: ListOptions | ListWindow): Promise<Page<User>> {
  requireTokenScope(cx, 'user', 'read');
  const user = username === null ? requireViewer(cx) : await accountOf(cx, username);
  const where = { userId: user.id, follow: listedFollowWhere(cx) };
  const [rows, total] = await Promise.all([
    cx.db.follow.findMany({ where, orderBy: { id: 'desc' }, include: { follow: true }, ...skipTake(opts) }),
    cx.db.follow.count({ where }),
  ]);
  return { items: rows.map((r) => r.follow), total };
}

/**
 * Whether `username` follows `target` (GET /users/{username}/following/{target}); with no username, whether the
 * viewer does (GET /user/following/{username}). Both accounts must be visible.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function checkFollowing(cx: ServiceContext, username: string | null, target: string): Promise<boolean> {
  requireTokenScope(cx, 'user', 'read');
  const user = username === null ? requireViewer(cx) : await accountOf(cx, username);
  const followed = await accountOf(cx, target);
  return isFollowing(cx.db, user.id, followed.id);
}

/** Whether either account blocks the other (Gitea IsUserBlockedBy both ways). */
async function blockedEitherWay(db: DbLike, a: number, b: number): Promise<boolean> {
  const row = await db.block.findFirst({
    where: {
      OR: [
        { blockerId: a, blockeeId: b },
        { blockerId: b, blockeeId: a },
      ],
    },
    select: { id: true },
  });
  return row !== null;
}

/**
 * Follows (PUT /user/following/{username}) an account the viewer may see; a no-op for oneself or when already
 * following. Both counters move in the same transaction (Gitea FollowUser).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError (a block either way: "user is blocked"; token scope)
 */
export async function followUser(cx: ServiceContext, username: string): Promise<User> {
  const viewer = requireWriter(cx, 'write:user');
  const target = await accountOf(cx, username);
  return follow(cx, viewer, target);
}

/** followUser for an account given by id (GraphQL followUser). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function followUserById(cx: ServiceContext, userId: number): Promise<User> {
  const viewer = requireWriter(cx, 'write:user');
  return follow(cx, viewer, await visibleUserById(cx, userId));
}

async function follow(cx: ServiceContext, viewer: User, target: User): Promise<User> {
  if (viewer.id === target.id || (await isFollowing(cx.db, viewer.id, target.id))) return target;
  if (await blockedEitherWay(cx.db, viewer.id, target.id)) throw new PermissionDeniedError(BLOCKED, { userId: target.id });
  try {
    await withTx(cx, async (tx) => {
      await tx.follow.create({ data: { userId: viewer.id, followId: target.id } });
      await tx.user.update({ where: { id: target.id }, data: { numFollowers: { increment: 1 } } });
      await tx.user.update({ where: { id: viewer.id }, data: { numFollowing: { increment: 1 } } });
    });
  } catch (err) {
    // A concurrent follow of the same pair got there first: the outcome is the same.
    if (!isUniqueViolation(err)) throw err;
  }
  return target;
}

/**
 * Stops following (DELETE /user/following/{username}); a no-op when not following (Gitea UnfollowUser).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError (token scope)
 */
export async function unfollowUser(cx: ServiceContext, username: string): Promise<User> {
  const viewer = requireWriter(cx, 'write:user');
  const target = await accountOf(cx, username);
  return unfollow(cx, viewer, target);
}

/** unfollowUser for an account given by id (GraphQL unfollowUser). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function unfollowUserById(cx: ServiceContext, userId: number): Promise<User> {
  const viewer = requireWriter(cx, 'write:user');
  return unfollow(cx, viewer, await visibleUserById(cx, userId));
}

async function unfollow(cx: ServiceContext, viewer: User, target: User): Promise<User> {
  await withTx(cx, async (tx) => {
    const { count } = await tx.follow.deleteMany({ where: { userId: viewer.id, followId: target.id } });
    if (!count) return;
    await tx.user.update({ where: { id: target.id }, data: { numFollowers: { decrement: count } } });
    await tx.user.update({ where: { id: viewer.id }, data: { numFollowing: { decrement: count } } });
  });
  return target;
}

/** An account by id under the user read policy. @throws NotFoundError */
async function visibleUserById(cx: ServiceContext, userId: number): Promise<User> {
  const user = await cx.db.user.findFirst({ where: { id: userId, AND: [userReadWhere(cx)] } });
  if (!user) throw new NotFoundError('user does not exist', { userId });
  return user;
}

/** Of `userIds`, those the viewer follows (GraphQL viewerIsFollowing); none for anonymous viewers. */
export async function idsViewerFollows(cx: ServiceContext, userIds: readonly number[]): Promise<Set<number>> {
  if (!cx.viewer || !userIds.length) return new Set();
  const rows = await cx.db.follow.findMany({ where: { userId: cx.viewer.id, followId: { in: [...userIds] } }, select: { followId: true } });
  return new Set(rows.map((r) => r.followId));
}

/** Of `userIds`, those who follow the viewer (GraphQL isFollowingViewer); none for anonymous viewers. */
export async function idsFollowingViewer(cx: ServiceContext, userIds: readonly number[]): Promise<Set<number>> {
  if (!cx.viewer || !userIds.length) return new Set();
  const rows = await cx.db.follow.findMany({ where: { followId: cx.viewer.id, userId: { in: [...userIds] } }, select: { userId: true } });
  return new Set(rows.map((r) => r.userId));
}

/** Of `userIds`, those the viewer may follow (GraphQL viewerCanFollow): signed in, not oneself, no block either way. */
export async function idsViewerCanFollow(cx: ServiceContext, userIds: readonly number[]): Promise<Set<number>> {
  const viewer = cx.viewer;
  if (!viewer || !userIds.length) return new Set();
  const ids = userIds.filter((id) => id !== viewer.id);
  const blocks = await cx.db.block.findMany({
    where: {
      OR: [
        { blockerId: viewer.id, blockeeId: { in: ids } },
        { blockeeId: viewer.id, blockerId: { in: ids } },
      ],
    },
    select: { blockerId: true, blockeeId: true },
  });
  const blocked = new Set(blocks.map((b) => (b.blockerId === viewer.id ? b.blockeeId : b.blockerId)));
  return new Set(ids.filter((id) => !blocked.has(id)));
}
