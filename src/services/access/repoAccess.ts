import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, RepoArchivedError } from '../../errors.ts';
import { canRead, canReadAny, canWrite, isRepoAdmin, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { UnitType } from '../../permissions/units.ts';
import type { ServiceContext } from '../context.ts';

type Repository = Models.Repository;

/** A repository together with the viewer's permission on it. */
export interface RepoAccess {
  repo: Repository;
  perm: RepoPermission;
}

/** Finds a repository by owner and name (case-insensitive) without permission checks. */
export async function findRepoByName(db: DbLike, owner: string, name: string): Promise<Repository | null> {
  // One statement: the owner is matched in a subquery (both sides are unique, indexed lower-case names).
  return db.repository.findFirst({ where: { lowerName: name.toLowerCase(), owner: { lowerName: owner.toLowerCase() } } });
}

/** The viewer's permission on a repository (batched per request through the loader). */
export function repoPermission(cx: ServiceContext, repoId: number): Promise<RepoPermission> {
  return cx.loaders.repoPermission.load(repoId);
}

/**
 * The repository `owner/name` if the viewer can see it (Gitea repoAssignment): private looks like missing.
 * A public-only token reaches public repositories of public owners only (a fact of the permission model).
 * @throws NotFoundError
 */
export async function requireRepo(cx: ServiceContext, owner: string, name: string): Promise<RepoAccess> {
  const repo = await findRepoByName(cx.db, owner, name);
  if (!repo) throw new NotFoundError('repository does not exist', { owner, name });
  return requireRepoAccess(cx, repo);
}

/** Same as requireRepo, for an already-loaded repository row. @throws NotFoundError */
export async function requireRepoAccess(cx: ServiceContext, repo: Repository): Promise<RepoAccess> {
  const perm = await repoPermission(cx, repo.id);
  if (!canReadAny(perm)) {
    throw new NotFoundError('repository does not exist', { repoId: repo.id });
  }
  return { repo, perm };
}

/** A unit must be readable: a disabled or unreadable unit does not exist. @throws NotFoundError */
export function requireUnitRead(access: RepoAccess, unit: UnitType): void {
  if (!canRead(access.perm, unit)) throw new NotFoundError('not found', { unit });
}

/** A unit must be writable, and the repository not archived. @throws RepoArchivedError, PermissionDeniedError */
export function requireUnitWrite(access: RepoAccess, unit: UnitType): void {
  if (access.repo.isArchived) throw new RepoArchivedError();
  if (!canWrite(access.perm, unit)) throw new PermissionDeniedError('user should have a permission to write to a repo', { unit });
}

/** Repository settings need admin (Gitea reqAdmin). @throws PermissionDeniedError */
export function requireRepoAdmin(access: RepoAccess): void {
  if (!isRepoAdmin(access.perm)) {
    throw new PermissionDeniedError('user should be an owner or a collaborator with admin write of a repository');
  }
}
