// Watching repositories (Gitea models/repo/watch.go, routers/api/v1/repo/subscriber.go, user/watch.go).
import type { DbTx, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireRepoWrite, requireSignedInRepo, requireRepo, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { withRetry } from '../dbErrors.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { listRepoPage } from '../repo/read.ts';
import type { RepoWithPermission } from '../repo/repoRows.ts';
import { repoReadWhere } from '../repo/visibility.ts';
import { getUserByName } from '../user/user.ts';

type WatchMode = Models.WatchMode;

/** Modes that mean "watching" (Gitea IsWatchMode). */
export const WATCHING_MODES: WatchMode[] = ['NORMAL', 'AUTO'];

const isWatching = (mode: WatchMode | undefined): boolean => mode === 'NORMAL' || mode === 'AUTO';

/** The viewer's watch of a repository as Gitea's WatchInfo needs it. */
export interface RepoSubscription {
  repo: Models.Repository;
  /** NORMAL/AUTO: subscribed; DONT: ignored; NONE: neither. */
  mode: WatchMode;
}

/**
 * Sets `userId`'s watch mode on a repository inside `tx` (Gitea watchRepoMode): NONE deletes the row, AUTO never
 * overrides a deliberate choice, and `numWatches` moves by one exactly when watching starts or stops.
 * Returns whether the watching state changed.
 */
export async function setWatchMode(tx: DbTx, userId: number, repoId: number, mode: WatchMode): Promise<boolean> {
  const current = await tx.watch.findUnique({ where: { userId_repoId: { userId, repoId } } });
  const was = current?.mode ?? 'NONE';
  if (was === mode) return false;
  if (mode === 'AUTO' && (was === 'DONT' || isWatching(was))) return false;
  if (mode === 'NONE') await tx.watch.delete({ where: { id: current!.id } });
  else if (current) await tx.watch.update({ where: { id: current.id }, data: { mode } });
  else await tx.watch.create({ data: { userId, repoId, mode } });
  const diff = isWatching(mode) === isWatching(was) ? 0 : isWatching(mode) ? 1 : -1;
  if (diff) await tx.repository.update({ where: { id: repoId }, data: { numWatches: { increment: diff } } });
  return diff !== 0;
}

/** A user blocked by the repository's owner may not star or watch it (Gitea ErrBlockedUser → 403). */
export async function requireNotBlockedByOwner(cx: ServiceContext, repo: Models.Repository, userId: number): Promise<void> {
  const block = await cx.db.block.findFirst({ where: { blockerId: repo.ownerId, blockeeId: userId }, select: { id: true } });
  if (block) throw new PermissionDeniedError('user is blocked', { userId, repoId: repo.id });
}

async function changeWatch(cx: ServiceContext, access: RepoAccess, mode: WatchMode): Promise<RepoSubscription> {
  const viewer = requireViewer(cx);
  requireRepoWrite(cx, access, 'write:repository');
  if (isWatching(mode) || mode === 'DONT') await requireNotBlockedByOwner(cx, access.repo, viewer.id);
  await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const changed = await setWatchMode(tx, viewer.id, access.repo.id, mode);
      const event: DomainEvent = { type: 'repo.watched', repoId: access.repo.id, actorId: viewer.id, watching: isWatching(mode) };
      if (changed) emit(event);
    }),
  );
  return { repo: access.repo, mode };
}

/**
 * GET /repos/{o}/{r}/subscription (Gitea IsWatching): the viewer's watch, NotFound when not watching.
 * @throws NotFoundError, UnauthenticatedError
 */
export async function getRepoSubscription(cx: ServiceContext, ref: RepoRef): Promise<RepoSubscription> {
  const sub = await findRepoSubscription(cx, ref);
  if (!isWatching(sub.mode)) throw new NotFoundError('not watching', { repoId: sub.repo.id });
  return sub;
}

/** The viewer's watch mode on a repository (NONE when there is no row). @throws NotFoundError, UnauthenticatedError */
export async function findRepoSubscription(cx: ServiceContext, ref: RepoRef): Promise<RepoSubscription> {
  requireTokenScope(cx, 'repository', 'read');
  const access = await requireSignedInRepo(cx, ref);
  const viewer = requireViewer(cx);
  const row = await cx.db.watch.findUnique({ where: { userId_repoId: { userId: viewer.id, repoId: access.repo.id } } });
  return { repo: access.repo, mode: row?.mode ?? 'NONE' };
}

/**
 * Sets the viewer's watch (PUT watches, DELETE unwatches, GraphQL updateSubscription also ignores); emits
 * `repo.watched` when the watching state changed. A user blocked by the owner gets PermissionDenied.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function setRepoSubscription(cx: ServiceContext, ref: RepoRef, mode: 'NORMAL' | 'NONE' | 'DONT'): Promise<RepoSubscription> {
  return changeWatch(cx, await requireSignedInRepo(cx, ref), mode);
}

/** Same as setRepoSubscription for a repository given by id (GraphQL). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function setRepoSubscriptionById(
  cx: ServiceContext,
  repoId: number,
  mode: 'NORMAL' | 'NONE' | 'DONT',
): Promise<RepoSubscription> {
  const repo = await cx.db.repository.findUnique({ where: { id: repoId } });
  if (!repo) throw new NotFoundError('repository does not exist', { repoId });
  return setRepoSubscription(cx, { owner: repo.ownerName, repo: repo.name }, mode);
}

/**
 * GET /repos/{o}/{r}/subscribers (Gitea ListSubscribers): users watching the repository, by watch id.
 * @throws NotFoundError
 */
export async function listRepoWatchers(cx: ServiceContext, ref: RepoRef, opts: ListOptions | ListWindow): Promise<Page<Models.User>> {
  requireTokenScope(cx, 'repository', 'read');
  const { repo } = await requireRepo(cx, ref.owner, ref.repo);
  return listWatchersOf(cx, repo.id, opts);
}

/** The watchers of a repository already checked readable. */
export async function listWatchersOf(cx: ServiceContext, repoId: number, opts: ListOptions | ListWindow): Promise<Page<Models.User>> {
  const where = { repoId, mode: { in: WATCHING_MODES } };
  const [rows, total] = await Promise.all([
    cx.db.watch.findMany({ where, orderBy: { id: 'asc' }, include: { user: true }, ...skipTake(opts) }),
    cx.db.watch.count({ where }),
  ]);
  return { items: rows.map((r) => r.user), total };
}

/**
 * GET /user/subscriptions and /users/{u}/subscriptions (Gitea GetWatchedRepos): repositories `username` (the
 * viewer when null) watches, among those the viewer may read.
 * @throws NotFoundError, UnauthenticatedError
 */
export async function listWatchedRepos(
  cx: ServiceContext,
  username: string | null,
  opts: ListOptions | ListWindow,
): Promise<Page<RepoWithPermission>> {
  requireTokenScope(cx, 'user', 'read');
  const user = username === null ? requireViewer(cx) : await getUserByName(cx, username);
  const where = { AND: [repoReadWhere(cx), { watches: { some: { userId: user.id, mode: { in: WATCHING_MODES } } } }] };
  return listRepoPage(cx, where, [{ id: 'asc' }], opts);
}

/** The viewer's watch mode on each of `repoIds` (absent: NONE), in one query; empty for anonymous viewers. */
export async function viewerWatchModes(cx: ServiceContext, repoIds: readonly number[]): Promise<Map<number, WatchMode>> {
  if (!cx.viewer || !repoIds.length) return new Map();
  const rows = await cx.db.watch.findMany({
    where: { userId: cx.viewer.id, repoId: { in: [...repoIds] } },
    select: { repoId: true, mode: true },
  });
  return new Map(rows.map((r) => [r.repoId, r.mode]));
}
