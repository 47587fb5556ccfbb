import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { repoPermissionLoader } from '../../loaders/permissionLoaders.ts';
import { canReadAny, isRepoAdmin } from '../../permissions/repoPermission.ts';
import type { AccessMode } from '../../permissions/accessMode.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import { requireAdminRepo, requireSignedInRepo, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';

type User = Models.User;

/** A user's permission on a repository as the access model computes it (Gitea RepoCollaboratorPermission). */
export interface CollaboratorPermission {
  user: User;
  mode: AccessMode;
  /** The repository owner: Gitea renders the user for the context user (the owner), not the viewer. */
  repoOwner: User;
}

const MODES: Record<string, AccessMode> = { read: 'READ', write: 'WRITE', admin: 'ADMIN' };

/** Gitea reqAnyRepoReader (any unit readable, or site admin). @throws PermissionDeniedError */
function requireAnyReader(cx: ServiceContext, access: RepoAccess): void {
  if (!canReadAny(access.perm) && !isSiteAdmin(cx)) {
    throw new PermissionDeniedError('user should have any permission to read repository or permissions of site admin');
  }
}

/** A user named in the path; Gitea answers 422 for an unknown one on these routes. @throws ValidationError */
async function requireNamedUser(cx: ServiceContext, name: string): Promise<User> {
  const user = await findUserByName(cx.db, name);
  if (!user) throw new ValidationError(`user does not exist [uid: 0, name: ${name}]`, { name });
  return user;
}

/**
 * The repository's collaborators, in the order they were added (GET /repos/{o}/{r}/collaborators).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listCollaborators(cx: ServiceContext, ref: RepoRef, opts: ListOptions | ListWindow): Promise<Page<User>> {
  const access = await requireSignedInRepo(cx, ref);
  requireAnyReader(cx, access);
  const where = { repoId: access.repo.id };
  const [rows, total] = await Promise.all([
    cx.db.collaboration.findMany({ where, orderBy: { id: 'asc' }, include: { user: true }, ...skipTake(opts) }),
    cx.db.collaboration.count({ where }),
  ]);
  return { items: rows.map((r) => r.user), total };
}

/**
 * True when `username` is a collaborator (Gitea IsCollaborator: 204 or 404).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError (unknown user)
 */
export async function isCollaborator(cx: ServiceContext, ref: RepoRef, username: string): Promise<boolean> {
  const access = await requireSignedInRepo(cx, ref);
  requireAnyReader(cx, access);
  const user = await requireNamedUser(cx, username);
  const row = await cx.db.collaboration.findUnique({
    where: { repoId_userId: { repoId: access.repo.id, userId: user.id } },
    select: { id: true },
  });
  return row !== null;
}

/**
 * Adds a collaborator or changes their mode (read, write or admin; write by default). Repository admins only.
 * The owner and organizations cannot be collaborators; a user blocked by the owner (or who blocked it) is
 * refused (403 `user is blocked`, as Gitea). The viewer's cached permission is dropped so later reads in the
 * request see the change.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function addOrUpdateCollaborator(cx: ServiceContext, ref: RepoRef, username: string, permission?: string): Promise<void> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  const user = await requireNamedUser(cx, username);
  const mode = permission === undefined ? 'WRITE' : MODES[permission];
  if (!mode) throw new ValidationError('In', { field: 'permission', rule: 'In' });
  if (user.type === 'ORGANIZATION') throw new ValidationError('Organizations cannot be added as a collaborator.', { name: user.name });
  if (user.id === repo.ownerId) throw new ValidationError('Cannot add an owner as a collaborator.', { name: user.name });
  // Gitea answers 500 here; an inactive account is bad input, not a server fault.
  if (!user.isActive) throw new ValidationError("collaborator's account is inactive", { name: user.name });
  const blocked = await cx.db.block.findFirst({
    where: {
      OR: [
        { blockerId: repo.ownerId, blockeeId: user.id },
        { blockerId: user.id, blockeeId: repo.ownerId },
      ],
    },
    select: { id: true },
  });
  if (blocked) throw new PermissionDeniedError('user is blocked');
  await withTx(cx, async (tx, emit) => {
    const existing = await tx.collaboration.findUnique({ where: { repoId_userId: { repoId: repo.id, userId: user.id } } });
    if (existing?.mode === mode) return;
    if (existing) await tx.collaboration.update({ where: { id: existing.id }, data: { mode } });
    else await tx.collaboration.create({ data: { repoId: repo.id, userId: user.id, mode } });
    emit({ type: 'repo.collaboratorAdded', repoId: repo.id, userId: user.id, actorId: cx.viewer?.id ?? null });
  });
  cx.loaders.repoPermission.clear(repo.id);
}

/**
 * Removes a collaborator (a no-op for a non-collaborator, as Gitea); the user's watch goes when they lose
 * access (Gitea reconsiderWatches). Repository admins only.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError (unknown user)
 */
export async function deleteCollaborator(cx: ServiceContext, ref: RepoRef, username: string): Promise<void> {
  const { repo } = await requireAdminRepo(cx, ref, 'write:repository');
  const user = await requireNamedUser(cx, username);
  const removed = await withTx(cx, async (tx, emit) => {
    const { count } = await tx.collaboration.deleteMany({ where: { repoId: repo.id, userId: user.id } });
    if (count > 0) emit({ type: 'repo.collaboratorRemoved', repoId: repo.id, userId: user.id, actorId: cx.viewer?.id ?? null });
    return count > 0;
  });
  cx.loaders.repoPermission.clear(repo.id);
  if (!removed) return;
  const perm = await repoPermissionLoader(cx.db, user).load(repo.id);
  if (!canReadAny(perm)) {
    const { count } = await cx.db.watch.deleteMany({ where: { repoId: repo.id, userId: user.id } });
    if (count > 0)
      await cx.db.repository.update({
        where: { id: repo.id },
        data: { numWatches: await cx.db.watch.count({ where: { repoId: repo.id, mode: { in: ['NORMAL', 'AUTO'] } } }) },
      });
  }
}

/**
 * A user's permission on the repository, computed by the access model for that user (not the viewer).
 * Site admins and repository admins may ask about anyone; others only about themselves (403 otherwise).
 * @throws NotFoundError (repository or user), UnauthenticatedError, PermissionDeniedError
 */
export async function getCollaboratorPermission(cx: ServiceContext, ref: RepoRef, username: string): Promise<CollaboratorPermission> {
  const access = await requireSignedInRepo(cx, ref);
  requireAnyReader(cx, access);
  const viewer = requireViewer(cx);
  if (!isSiteAdmin(cx) && viewer.lowerName !== username.toLowerCase() && !isRepoAdmin(access.perm)) {
    throw new PermissionDeniedError(
      'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
    );
  }
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${username}]`, { name: username });
  const [perm, repoOwner] = await Promise.all([
    repoPermissionLoader(cx.db, user).load(access.repo.id),
    cx.loaders.userById.load(access.repo.ownerId),
  ]);
  if (!repoOwner) throw new NotFoundError('repository does not exist', { repoId: access.repo.id });
  return { user, mode: perm.mode, repoOwner };
}
