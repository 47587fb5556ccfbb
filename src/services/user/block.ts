import { scopeAllows } from '../../auth/scope.ts';
import type { DbTx, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { InvalidArgumentError, NotFoundError, ValidationError } from '../../errors.ts';
import { isSiteAdmin, requireTokenScope, requireViewer } from '../access/guards.ts';
import { orgAccess, requireOrg, requireOrgOwner } from '../access/orgAccess.ts';
import { requireNeed } from '../access/writeGate.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findUserByName } from './user.ts';

type User = Models.User;

/** Who blocks: the viewer (`{}`), or an organization by login (its owners and site admins act for it). */
export interface BlockerRef {
  org?: string;
}

/** A page of blocked users together with the blocker they were listed for. */
export interface BlockPage extends Page<User> {
  blocker: User;
}

/** The two accounts of a block. */
export interface BlockPair {
  blocker: User;
  blockee: User;
}

// Gitea's user_model errors (all InvalidArgument: REST 400).
const CANNOT_BLOCK = 'cannot block the user';
const CANNOT_UNBLOCK = 'cannot unblock the user';
const BLOCK_ORGANIZATION = 'cannot block an organization';

/**
 * The blocker, as Gitea gates it: signed in (401), token scope (user or organization), and for an
 * organization: visible (404) and owned by the viewer or the viewer a site admin (403).
 */
async function resolveBlocker(cx: ServiceContext, ref: BlockerRef, level: 'read' | 'write'): Promise<User> {
  const viewer = requireViewer(cx);
  if (ref.org === undefined) {
    requireNeed(cx, `${level}:user`, null);
    return viewer;
  }
  requireTokenScope(cx, 'organization', level);
  const access = await requireOrg(cx, ref.org);
  requireOrgOwner(cx, access, `${level}:organization`);
  return access.org;
}

/** The account to (un)block, by login, without visibility checks (Gitea's GetUserByName). @throws NotFoundError */
async function findBlockee(cx: ServiceContext, username: string): Promise<User> {
  const user = cx.viewer && cx.viewer.lowerName === username.toLowerCase() ? cx.viewer : await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`, { name: username });
  return user;
}

/**
 * The users a blocker blocks (GET /user/blocks, GET /orgs/{org}/blocks), oldest block first.
 * @throws UnauthenticatedError, NotFoundError (invisible organization), PermissionDeniedError (not an owner)
 */
export async function listBlocks(cx: ServiceContext, ref: BlockerRef, opts: ListOptions | ListWindow): Promise<BlockPage> {
  const blocker = await resolveBlocker(cx, ref, 'read');
  const where = { blockerId: blocker.id };
  const [rows, total] = await Promise.all([
    cx.db.block.findMany({ where, orderBy: { id: 'asc' }, include: { blockee: true }, ...skipTake(opts) }),
    cx.db.block.count({ where }),
  ]);
  return { blocker, items: rows.map((r) => r.blockee), total };
}

/** Whether the blocker blocks `username` (GET …/blocks/{username}). @throws UnauthenticatedError, NotFoundError, PermissionDeniedError */
export async function isBlocked(cx: ServiceContext, ref: BlockerRef, username: string): Promise<boolean> {
  const blocker = await resolveBlocker(cx, ref, 'read');
  const blockee = await findBlockee(cx, username);
  const row = await cx.db.block.findUnique({
    where: { blockerId_blockeeId: { blockerId: blocker.id, blockeeId: blockee.id } },
    select: { id: true },
  });
  return row !== null;
}

/**
 * Whether the viewer may list `account`'s blocks (GraphQL `blockedUsers`): the user itself, an owner of the
 * organization, or a site admin — and a token that may read the category. Never throws for lack of rights.
 */
export async function canListBlocks(cx: ServiceContext, account: User): Promise<boolean> {
  if (!cx.viewer) return false;
  const category = account.type === 'ORGANIZATION' ? 'organization' : 'user';
  const scope = cx.auth.method === 'token' ? cx.auth.scope : null;
  if (scope && !scopeAllows(scope, [category], 'read')) return false;
  if (account.type !== 'ORGANIZATION') return isSiteAdmin(cx) || cx.viewer.id === account.id;
  return (await orgAccess(cx, account)).isOwner;
}

/**
 * Blocks `username` for the viewer or an organization (PUT …/blocks/{username}?note=), and in the same
 * transaction severs every tie Gitea's BlockUser severs, both ways: follows, stars and watches on each
 * other's repositories, issue assignments there, collaborations, pending repository transfers.
 * @throws UnauthenticatedError, NotFoundError, PermissionDeniedError, InvalidArgumentError (Gitea's 400s:
 * an organization, oneself, an organization member, an already blocked user), ValidationError (note)
 */
export async function blockUser(cx: ServiceContext, ref: BlockerRef, username: string, note = ''): Promise<BlockPair> {
  const viewer = requireViewer(cx);
  const blocker = await resolveBlocker(cx, ref, 'write');
  const blockee = await findBlockee(cx, username);
  if (blockee.type === 'ORGANIZATION') throw new InvalidArgumentError(BLOCK_ORGANIZATION);
  if (blockee.id === blocker.id || blockee.id === viewer.id) throw new InvalidArgumentError(CANNOT_BLOCK);
  // PostgreSQL text cannot hold NUL: refuse it as input rather than fail in the database.
  if (note.includes('\u0000')) throw new ValidationError('Invalid', { field: 'note', rule: 'Invalid' });
  try {
    await withTx(cx, async (tx, emit) => {
      const existing = await tx.block.findUnique({
        where: { blockerId_blockeeId: { blockerId: blocker.id, blockeeId: blockee.id } },
        select: { id: true },
      });
      if (existing) throw new InvalidArgumentError(CANNOT_BLOCK);
      if (blocker.type === 'ORGANIZATION') {
        const member = await tx.orgUser.findUnique({
          where: { orgId_userId: { orgId: blocker.id, userId: blockee.id } },
          select: { id: true },
        });
        if (member) throw new InvalidArgumentError(CANNOT_BLOCK);
      }
      await severTies(tx, blocker.id, blockee.id);
      await tx.block.create({ data: { blockerId: blocker.id, blockeeId: blockee.id, note } });
      emit({ type: 'user.blocked', blockerId: blocker.id, blockeeId: blockee.id, actorId: viewer.id });
    });
    return { blocker, blockee };
  } catch (err) {
    // A concurrent block of the same pair loses the race here rather than in the check above.
    if (isUniqueViolation(err)) throw new InvalidArgumentError(CANNOT_BLOCK);
    throw err;
  }
}

/**
 * Unblocks `username` (DELETE …/blocks/{username}).
 * @throws UnauthenticatedError, NotFoundError, PermissionDeniedError, InvalidArgumentError (an organization,
 * oneself, or a user who is not blocked)
 */
export async function unblockUser(cx: ServiceContext, ref: BlockerRef, username: string): Promise<BlockPair> {
  const viewer = requireViewer(cx);
  const blocker = await resolveBlocker(cx, ref, 'write');
  const blockee = await findBlockee(cx, username);
  if (blockee.type === 'ORGANIZATION') throw new InvalidArgumentError(BLOCK_ORGANIZATION);
  if (blockee.id === viewer.id) throw new InvalidArgumentError(CANNOT_UNBLOCK);
  await withTx(cx, async (tx, emit) => {
    const { count } = await tx.block.deleteMany({ where: { blockerId: blocker.id, blockeeId: blockee.id } });
    if (count === 0) throw new InvalidArgumentError(CANNOT_UNBLOCK);
    emit({ type: 'user.unblocked', blockerId: blocker.id, blockeeId: blockee.id, actorId: viewer.id });
  });
  return { blocker, blockee };
}

/** Counts rows per key. */
function tally<T>(rows: readonly T[], key: (row: T) => number): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) out.set(key(r), (out.get(key(r)) ?? 0) + 1);
  return out;
}

/** Removes every tie between two accounts, both ways, keeping the denormalized counters right. */
async function severTies(tx: DbTx, a: number, b: number): Promise<void> {
  // Rows of one account on repositories the other owns.
  const onOthersRepos = {
    OR: [
      { userId: a, repo: { ownerId: b } },
      { userId: b, repo: { ownerId: a } },
    ],
  };
  const [follows, stars, watches, transfers] = await Promise.all([
    tx.follow.findMany({
      where: {
        OR: [
          { userId: a, followId: b },
          { userId: b, followId: a },
        ],
      },
      select: { id: true, userId: true, followId: true },
    }),
    tx.star.findMany({ where: onOthersRepos, select: { id: true, userId: true, repoId: true } }),
    // Gitea's GetWatchedRepos: only real watches (normal or automatic) count and are removed.
    tx.watch.findMany({ where: { ...onOthersRepos, mode: { in: ['NORMAL', 'AUTO'] } }, select: { id: true, repoId: true } }),
    tx.repoTransfer.findMany({
      where: {
        OR: [
          { doerId: a, recipientId: b },
          { doerId: b, recipientId: a },
          { recipientId: b, repo: { ownerId: a } },
          { recipientId: a, repo: { ownerId: b } },
        ],
      },
      select: { id: true, repoId: true },
    }),
  ]);
  if (follows.length) {
    await tx.follow.deleteMany({ where: { id: { in: follows.map((f) => f.id) } } });
    for (const [userId, n] of tally(follows, (f) => f.userId))
      await tx.user.update({ where: { id: userId }, data: { numFollowing: { decrement: n } } });
    for (const [userId, n] of tally(follows, (f) => f.followId))
      await tx.user.update({ where: { id: userId }, data: { numFollowers: { decrement: n } } });
  }
  if (stars.length) {
    await tx.star.deleteMany({ where: { id: { in: stars.map((s) => s.id) } } });
    for (const [userId, n] of tally(stars, (s) => s.userId))
      await tx.user.update({ where: { id: userId }, data: { numStars: { decrement: n } } });
    for (const [repoId, n] of tally(stars, (s) => s.repoId))
      await tx.repository.update({ where: { id: repoId }, data: { numStars: { decrement: n } } });
  }
  if (watches.length) {
    await tx.watch.deleteMany({ where: { id: { in: watches.map((w) => w.id) } } });
    for (const [repoId, n] of tally(watches, (w) => w.repoId))
      await tx.repository.update({ where: { id: repoId }, data: { numWatches: { decrement: n } } });
  }
  await tx.issueAssignee.deleteMany({
    where: {
      OR: [
        { assigneeId: a, issue: { repo: { ownerId: b } } },
        { assigneeId: b, issue: { repo: { ownerId: a } } },
      ],
    },
  });
  await tx.collaboration.deleteMany({ where: onOthersRepos });
  if (transfers.length) {
    await tx.repoTransfer.deleteMany({ where: { id: { in: transfers.map((t) => t.id) } } });
    await tx.repository.updateMany({
      where: { id: { in: transfers.map((t) => t.repoId) }, status: 'PENDING_TRANSFER' },
      data: { status: 'READY' },
    });
  }
}
