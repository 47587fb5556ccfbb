// Release assets (Gitea routers/api/v1/repo/release_attachment.go) and the release download route.
import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { requireTokenScope } from '../access/guards.ts';
import { requireRepo, requireUnitRead, type RepoRef } from '../access/repoAccess.ts';
import * as attachmentService from '../attachment/attachment.ts';
import { attachmentReadWhere, releaseAssetReadWhere } from '../attachment/visibility.ts';
import type { ServiceContext } from '../context.ts';
import { requireReleaseWrite } from './release.ts';
import { releaseReadWhere } from './visibility.ts';
import { isDbId } from '../dbId.ts';

type Attachment = Models.Attachment;

/** The release `id` of the repository as the viewer reads it (drafts to writers). @throws NotFoundError */
async function readableRelease(cx: ServiceContext, ref: RepoRef, id: number): Promise<Models.Release> {
  requireTokenScope(cx, 'repository', 'read');
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'RELEASES');
  const row = isDbId(id) ? await cx.db.release.findFirst({ where: { AND: [releaseReadWhere(cx), { id, repoId: access.repo.id }] } }) : null;
  if (!row) throw new NotFoundError('not found', { id });
  return row;
}

/** The release `id` for an asset write (releases writable). @throws NotFoundError and the release write errors */
async function writableRelease(cx: ServiceContext, ref: RepoRef, id: number): Promise<Models.Release> {
  const access = await requireReleaseWrite(cx, ref);
  const row = isDbId(id) ? await cx.db.release.findFirst({ where: { id, repoId: access.repo.id, isTag: false } }) : null;
  if (!row) throw new NotFoundError('not found', { id });
  return row;
}

/** Asset `id` of the release, as the attachment read policy lets the viewer see it. */
async function assetOf(cx: ServiceContext, releaseId: number, id: number): Promise<Attachment> {
  const row = isDbId(id) ? await cx.db.attachment.findFirst({ where: { id, releaseId, AND: [attachmentReadWhere(cx)] } }) : null;
  if (!row) throw new NotFoundError('attachment does not exist', { attachmentId: id });
  return row;
}

/** A release's assets, oldest first. @throws NotFoundError */
export async function listReleaseAssets(cx: ServiceContext, ref: RepoRef, releaseId: number): Promise<Attachment[]> {
  const release = await readableRelease(cx, ref, releaseId);
  return cx.db.attachment.findMany({ where: { releaseId: release.id, AND: [attachmentReadWhere(cx)] }, orderBy: { id: 'asc' } });
}

/** One asset of a release. @throws NotFoundError */
export async function getReleaseAsset(cx: ServiceContext, ref: RepoRef, releaseId: number, id: number): Promise<Attachment> {
  const release = await readableRelease(cx, ref, releaseId);
  return assetOf(cx, release.id, id);
}

/**
 * Uploads an asset to a release (Gitea CreateReleaseAttachment): releases writable; RELEASE_ALLOWED_TYPES;
 * ATTACHMENT_MAX_SIZE (413).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError, InvalidArgumentError, ValidationError
 */
export async function createReleaseAsset(
  cx: ServiceContext,
  ref: RepoRef,
  releaseId: number,
  input: attachmentService.UploadInput,
): Promise<Attachment> {
  let release: Models.Release;
  try {
    release = await writableRelease(cx, ref, releaseId);
  } catch (err) {
    input.content.resume();
    throw err;
  }
  return attachmentService.storeAttachment(
    cx,
    { repoId: release.repoId, releaseId: release.id },
    input,
    cx.config.attachments.releaseAllowedTypes,
  );
}

/** Renames a release asset (Gitea EditReleaseAttachment). @throws as createReleaseAsset */
export async function editReleaseAsset(
  cx: ServiceContext,
  ref: RepoRef,
  releaseId: number,
  id: number,
  name: string | undefined,
): Promise<Attachment> {
  const release = await writableRelease(cx, ref, releaseId);
  return attachmentService.renameAttachment(cx, await assetOf(cx, release.id, id), name);
}

/** Deletes a release asset and its file. @throws as createReleaseAsset */
export async function deleteReleaseAsset(cx: ServiceContext, ref: RepoRef, releaseId: number, id: number): Promise<void> {
  const release = await writableRelease(cx, ref, releaseId);
  await attachmentService.deleteAttachments(cx, [await assetOf(cx, release.id, id)]);
}

/**
 * GET /{owner}/{repo}/releases/download/{tag}/{filename} (Gitea RedirectDownload): the asset named `filename`
 * of the release of `tag`, as the viewer reads releases. @throws NotFoundError
 */
export async function downloadReleaseAsset(
  cx: ServiceContext,
  ref: RepoRef,
  tag: string,
  filename: string,
): Promise<attachmentService.AttachmentDownload> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'RELEASES');
  const asset = await cx.db.attachment.findFirst({
    where: { name: filename, release: { repoId: access.repo.id, lowerTagName: tag.toLowerCase() }, AND: [attachmentReadWhere(cx)] },
    orderBy: { id: 'asc' },
  });
  if (!asset) throw new NotFoundError('attachment does not exist', { tag, filename });
  return attachmentService.openDownload(cx, asset);
}

/** Where a release asset the viewer may read lives, for callers holding its id (GraphQL). @throws NotFoundError */
async function locateAsset(cx: ServiceContext, id: number): Promise<RepoRef & { releaseId: number }> {
  const row = isDbId(id)
    ? await cx.db.attachment.findFirst({
        where: { id, ...releaseAssetReadWhere(cx) },
        select: { releaseId: true, repo: { select: { ownerName: true, name: true } } },
      })
    : null;
  if (!row?.releaseId || !row.repo) throw new NotFoundError('attachment does not exist', { attachmentId: id });
  return { owner: row.repo.ownerName, repo: row.repo.name, releaseId: row.releaseId };
}

/** editReleaseAsset for an asset known by its database id (GraphQL). @throws as editReleaseAsset */
export async function editReleaseAssetById(cx: ServiceContext, id: number, name: string | undefined): Promise<Attachment> {
  const at = await locateAsset(cx, id);
  return editReleaseAsset(cx, at, at.releaseId, id, name);
}

/** deleteReleaseAsset for an asset known by its database id (GraphQL). @throws as deleteReleaseAsset */
export async function deleteReleaseAssetById(cx: ServiceContext, id: number): Promise<void> {
  const at = await locateAsset(cx, id);
  await deleteReleaseAsset(cx, at, at.releaseId, id);
}

/** The release of a repository's asset known by its id (GitHub's `/releases/assets/{id}`), as the viewer reads releases. */
async function releaseIdOfAsset(cx: ServiceContext, ref: RepoRef, id: number): Promise<number> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'RELEASES');
  const row = isDbId(id)
    ? await cx.db.attachment.findFirst({
        where: { id, release: { repoId: access.repo.id }, AND: [attachmentReadWhere(cx)] },
        select: { releaseId: true },
      })
    : null;
  if (!row?.releaseId) throw new NotFoundError('attachment does not exist', { attachmentId: id });
  return row.releaseId;
}

/** getReleaseAsset for an asset of the repository known by its id alone. @throws NotFoundError */
export async function getRepoReleaseAsset(cx: ServiceContext, ref: RepoRef, id: number): Promise<Attachment> {
  return getReleaseAsset(cx, ref, await releaseIdOfAsset(cx, ref, id), id);
}

/** The content of a repository's release asset known by its id. @throws NotFoundError */
export async function openRepoReleaseAsset(cx: ServiceContext, ref: RepoRef, id: number): Promise<attachmentService.AttachmentDownload> {
  return attachmentService.openDownload(cx, await getRepoReleaseAsset(cx, ref, id));
}

/** deleteReleaseAsset for an asset of the repository known by its id alone. @throws as deleteReleaseAsset */
export async function deleteRepoReleaseAsset(cx: ServiceContext, ref: RepoRef, id: number): Promise<void> {
  await deleteReleaseAsset(cx, ref, await releaseIdOfAsset(cx, ref, id), id);
}
