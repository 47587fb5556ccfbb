// Starring repositories (Gitea models/repo/star.go, routers/api/v1/user/star.go, repo/star.go).
import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireRepo, requireRepoWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { withRetry } from '../dbErrors.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { listRepoPage } from '../repo/read.ts';
import type { RepoWithPermission } from '../repo/repoRows.ts';
import { repoReadWhere } from '../repo/visibility.ts';
import { getUserByName } from '../user/user.ts';
import { requireNotBlockedByOwner } from './repoWatch.ts';

/** True when the viewer starred the repository (GET /user/starred/{o}/{r}: 204 or 404). @throws NotFoundError, UnauthenticatedError */
export async function isStarring(cx: ServiceContext, ref: RepoRef): Promise<boolean> {
  requireTokenScope(cx, 'repository', 'read');
  const viewer = requireViewer(cx);
  const { repo } = await requireRepo(cx, ref.owner, ref.repo);
  const row = await cx.db.star.findUnique({ where: { userId_repoId: { userId: viewer.id, repoId: repo.id } }, select: { id: true } });
  return row !== null;
}

async function changeStar(cx: ServiceContext, access: RepoAccess, star: boolean): Promise<Models.Repository> {
  const viewer = requireViewer(cx);
  // Gitea's /user/starred routes sit in the user group and add the repository category: both are needed.
  requireRepoWrite(cx, access, ['write:user', 'write:repository']);
  if (star) await requireNotBlockedByOwner(cx, access.repo, viewer.id);
  const repoId = access.repo.id;
  return withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const key = { userId_repoId: { userId: viewer.id, repoId } };
      const existing = await tx.star.findUnique({ where: key, select: { id: true } });
      if (star === (existing !== null)) return tx.repository.findUniqueOrThrow({ where: { id: repoId } });
      if (star) await tx.star.create({ data: { userId: viewer.id, repoId } });
      else await tx.star.delete({ where: key });
      const by = star ? { increment: 1 } : { decrement: 1 };
      await tx.user.update({ where: { id: viewer.id }, data: { numStars: by } });
      emit({ type: 'repo.starred', repoId, actorId: viewer.id, starred: star });
      return tx.repository.update({ where: { id: repoId }, data: { numStars: by } });
    }),
  );
}

/**
 * Stars (PUT /user/starred/{o}/{r}) or unstars (DELETE) a repository for the viewer; a no-op when already so.
 * `numStars` of the repository and of the user move in the same transaction; `repo.starred` is emitted on change.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError (blocked by the owner, token scope)
 */
export async function setStar(cx: ServiceContext, ref: RepoRef, star: boolean): Promise<Models.Repository> {
  requireViewer(cx);
  return changeStar(cx, await requireRepo(cx, ref.owner, ref.repo), star);
}

/** Same as setStar for a repository given by id (GraphQL addStar/removeStar). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function setStarById(cx: ServiceContext, repoId: number, star: boolean): Promise<Models.Repository> {
  const repo = await cx.db.repository.findUnique({ where: { id: repoId } });
  if (!repo) throw new NotFoundError('repository does not exist', { repoId });
  return setStar(cx, { owner: repo.ownerName, repo: repo.name }, star);
}

/** GET /repos/{o}/{r}/stargazers (Gitea ListStargazers): users who starred it, in the order they did. @throws NotFoundError */
export async function listStargazers(cx: ServiceContext, ref: RepoRef, opts: ListOptions | ListWindow): Promise<Page<Models.User>> {
  requireTokenScope(cx, 'repository', 'read');
  const { repo } = await requireRepo(cx, ref.owner, ref.repo);
  return listStargazersOf(cx, repo.id, opts);
}

/** The stargazers of a repository already checked readable. */
export async function listStargazersOf(cx: ServiceContext, repoId: number, opts: ListOptions | ListWindow): Promise<Page<Models.User>> {
  const where = { repoId };
  const [rows, total] = await Promise.all([
    cx.db.star.findMany({ where, orderBy: { id: 'asc' }, include: { user: true }, ...skipTake(opts) }),
    cx.db.star.count({ where }),
  ]);
  return { items: rows.map((r) => r.user), total };
}

/**
 * GET /user/starred and /users/{u}/starred (Gitea GetStarredRepos): repositories `username` (the viewer when
 * null) starred, among those the viewer may read.
 * @throws NotFoundError, UnauthenticatedError
 */
export async function listStarredRepos(
  cx: ServiceContext,
  username: string | null,
  opts: ListOptions | ListWindow,
): Promise<Page<RepoWithPermission>> {
  const user = username === null ? requireViewer(cx) : await getUserByName(cx, username);
  requireTokenScope(cx, username === null ? 'repository' : 'user', 'read');
  const where = { AND: [repoReadWhere(cx), { stars: { some: { userId: user.id } } }] };
  return listRepoPage(cx, where, [{ id: 'asc' }], opts);
}

/** Which of `repoIds` the viewer starred (one query for a whole list; none for anonymous viewers). */
export async function viewerStarredRepoIds(cx: ServiceContext, repoIds: readonly number[]): Promise<Set<number>> {
  if (!cx.viewer || !repoIds.length) return new Set();
  const rows = await cx.db.star.findMany({ where: { userId: cx.viewer.id, repoId: { in: [...repoIds] } }, select: { repoId: true } });
  return new Set(rows.map((r) => r.repoId));
}
