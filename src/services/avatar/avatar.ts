// Custom avatars of users, organizations and repositories (Gitea services/user/avatar.go and
// services/repository/avatar.go): upload (validated, cropped, scaled, stored as PNG) and removal.
import type { Models } from '../../db/client.ts';
import { ConflictError, RepoArchivedError } from '../../errors.ts';
import { requireWriter } from '../access/guards.ts';
import { requireOrg, requireOrgOwner } from '../access/orgAccess.ts';
import { requireAdminRepo, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { decodeBase64Image, prepareAvatar } from './prepare.ts';
import { hashAvatar, removeAvatarFile, writeAvatarFile, type AvatarKind } from './store.ts';

/** How often a column change is retried when a concurrent upload changed it first. */
const ATTEMPTS = 3;

/**
 * Sets the signed-in user's avatar from a base64 image (Gitea userUpdateAvatar).
 * @throws UnauthenticatedError, PermissionDeniedError (token scope), InvalidArgumentError (base64), ValidationError (image)
 */
export async function updateUserAvatar(cx: ServiceContext, image: string): Promise<void> {
  const viewer = requireWriter(cx, 'write:user');
  await replaceAvatar(cx, 'user', viewer.id, image);
}

/** Removes the signed-in user's avatar (back to the identicon). @throws UnauthenticatedError, PermissionDeniedError */
export async function deleteUserAvatar(cx: ServiceContext): Promise<void> {
  const viewer = requireWriter(cx, 'write:user');
  await replaceAvatar(cx, 'user', viewer.id, null);
}

/**
 * Sets an organization's avatar (Gitea orgUpdateAvatar: organization owners).
 * @throws NotFoundError, PermissionDeniedError, InvalidArgumentError, ValidationError
 */
export async function updateOrgAvatar(cx: ServiceContext, orgName: string, image: string): Promise<void> {
  const access = await requireOrg(cx, orgName);
  requireOrgOwner(cx, access, 'write:organization');
  await replaceAvatar(cx, 'user', access.org.id, image);
}

/** Removes an organization's avatar (owners). @throws NotFoundError, PermissionDeniedError */
export async function deleteOrgAvatar(cx: ServiceContext, orgName: string): Promise<void> {
  const access = await requireOrg(cx, orgName);
  requireOrgOwner(cx, access, 'write:organization');
  await replaceAvatar(cx, 'user', access.org.id, null);
}

/**
 * Sets a repository's avatar (Gitea repoUpdateAvatar: repository admins; archived repositories refuse writes).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError, InvalidArgumentError, ValidationError
 */
export async function updateRepoAvatar(cx: ServiceContext, ref: RepoRef, image: string): Promise<void> {
  const repo = await requireRepoSettings(cx, ref);
  await replaceAvatar(cx, 'repo', repo.id, image);
}

/** Removes a repository's avatar (admins). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError */
export async function deleteRepoAvatar(cx: ServiceContext, ref: RepoRef): Promise<void> {
  const repo = await requireRepoSettings(cx, ref);
  await replaceAvatar(cx, 'repo', repo.id, null);
}

async function requireRepoSettings(cx: ServiceContext, ref: RepoRef): Promise<Models.Repository> {
  const access = await requireAdminRepo(cx, ref, 'write:repository');
  if (access.repo.isArchived) throw new RepoArchivedError();
  return access.repo;
}

/**
 * Stores the new avatar (or none) of an account or repository: the file is written before the row points at it
 * and the replaced file removed after, so a reader never follows a row to a missing file. The hash carries the
 * owner's id, so no other row shares the file. The row changes only if it still holds the avatar read first; a
 * concurrent upload makes this one retry against the newer value.
 */
async function replaceAvatar(cx: ServiceContext, kind: AvatarKind, id: number, image: string | null): Promise<void> {
  const settings = cx.config.avatars;
  let next = '';
  if (image !== null) {
    const upload = decodeBase64Image(image, settings);
    const prepared = await prepareAvatar(upload, settings);
    next = hashAvatar(id, upload);
    await writeAvatarFile(settings, kind, next, prepared.png);
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await readAvatar(cx, kind, id);
    if (current === next) return;
    const changed =
      kind === 'user'
        ? await cx.db.user.updateMany({ where: { id, avatar: current }, data: { avatar: next } })
        : await cx.db.repository.updateMany({ where: { id, avatar: current }, data: { avatar: next } });
    if (changed.count === 1) {
      await removeAvatarFile(settings, kind, current);
      return;
    }
  }
  if (next) await removeAvatarFile(settings, kind, next);
  throw new ConflictError('the avatar was changed concurrently; try again');
}

async function readAvatar(cx: ServiceContext, kind: AvatarKind, id: number): Promise<string> {
  const row =
    kind === 'user'
      ? await cx.db.user.findUnique({ where: { id }, select: { avatar: true } })
      : await cx.db.repository.findUnique({ where: { id }, select: { avatar: true } });
  return row?.avatar ?? '';
}
