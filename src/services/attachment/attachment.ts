// Attachments: storing an upload (type and size rules), and issue and comment attachments (Gitea issue_attachment.go, issue_comment_attachment.go).
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { mimeTypes } from '../../lazyPackage.ts';
import { findCommentInRepo } from '../issue/comment.ts';
import { canWriteIssue, findIssueByIndex } from '../issue/issue.ts';
import { isAttachmentUuid, openAttachmentFile, removeAttachmentFiles, writeAttachmentFile } from './store.ts';
import { attachmentReadWhere } from './visibility.ts';

type Attachment = Models.Attachment;

/** An upload: the file's name (from the multipart part or `?name=`) and its bytes, streamed. */
export interface UploadInput {
  name: string;
  content: Readable;
}

/** Where a new attachment belongs. */
export interface AttachmentOwner {
  repoId: number;
  issueId?: number;
  commentId?: number;
  releaseId?: number;
}

/**
 * Gitea upload.Verify: the file's extension or its mime type (from the name) must be allowed; a pattern ending
 * in a slash and a star allows a mime family; an empty list allows all. @throws InvalidArgumentError (Gitea's ErrFileTypeForbidden, 400)
 */
export function verifyType(name: string, allowed: readonly string[]): void {
  if (!allowed.length) return;
  const ext = path.extname(name).toLowerCase();
  const type = mimeTypes().lookup(name) || 'application/octet-stream';
  const ok = allowed.some((a) => (a.startsWith('.') ? a === ext : a.endsWith('/*') ? type.startsWith(a.slice(0, -1)) : a === type));
  if (!ok) throw new InvalidArgumentError(`This file extension or type is not allowed to be uploaded. Type: ${type}`, { name, type });
}

/**
 * Stores an upload and its row (Gitea attachment_service.UploadAttachment): a name is required, its type must be
 * allowed, the bytes are streamed to the store under the size limit; the row is written once the file is in place.
 * @throws InvalidArgumentError, ValidationError (TOO_LARGE)
 */
export async function storeAttachment(
  cx: ServiceContext,
  owner: AttachmentOwner,
  input: UploadInput,
  allowedTypes: readonly string[],
): Promise<Attachment> {
  const name = input.name.trim() ? path.basename(input.name) : '';
  if (!name) {
    input.content.resume();
    throw new InvalidArgumentError('Could not determine name of attachment.');
  }
  if (name.includes('\0')) throw new ValidationError('Invalid', { field: 'name', rule: 'Invalid' });
  try {
    verifyType(name, allowedTypes);
  } catch (err) {
    input.content.resume();
    throw err;
  }
  const { uuid, size } = await writeAttachmentFile(cx.config.attachments, input.content);
  try {
    return await withTx(cx, (tx) =>
      tx.attachment.create({
        data: {
          uuid,
          name,
          size: BigInt(size),
          repoId: owner.repoId,
          issueId: owner.issueId ?? null,
          commentId: owner.commentId ?? null,
          releaseId: owner.releaseId ?? null,
          uploaderId: cx.viewer?.id ?? null,
        },
      }),
    );
  } catch (err) {
    await removeAttachmentFiles(cx.config.attachments, [uuid]);
    throw err;
  }
}

/** Renames an attachment (Gitea EditAttachmentOptions: an empty name changes nothing). @throws ValidationError */
export async function renameAttachment(cx: ServiceContext, attachment: Attachment, name: string | undefined): Promise<Attachment> {
  if (name === undefined || name === '') return attachment;
  if (name.includes('\0')) throw new ValidationError('Invalid', { field: 'name', rule: 'Invalid' });
  return withTx(cx, (tx) => tx.attachment.update({ where: { id: attachment.id }, data: { name } }));
}

/** Deletes attachment rows, then their files. */
export async function deleteAttachments(cx: ServiceContext, attachments: readonly Pick<Attachment, 'id' | 'uuid'>[]): Promise<void> {
  if (!attachments.length) return;
  await withTx(cx, (tx) => tx.attachment.deleteMany({ where: { id: { in: attachments.map((a) => a.id) } } }));
  await removeAttachmentFiles(
    cx.config.attachments,
    attachments.map((a) => a.uuid),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Issue and comment attachments

/** The gates of an issue attachment write: repository writable for issues (423/401), poster or writer (403). */
async function issueForWrite(cx: ServiceContext, ref: RepoRef, index: number): Promise<{ access: RepoAccess; issue: Models.Issue }> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  const issue = await findIssueByIndex(cx, access, index);
  const viewer = requireViewer(cx);
  if (viewer.id !== issue.posterId && !canWriteIssue(access, issue)) {
    throw new PermissionDeniedError('user should have permission to write issue', { issueId: issue.id });
  }
  return { access, issue };
}

function findIn(list: readonly Attachment[], id: number): Attachment {
  const found = list.find((a) => a.id === id);
  if (!found) throw new NotFoundError('attachment does not exist', { attachmentId: id });
  return found;
}

async function issueAttachments(cx: ServiceContext, issueId: number): Promise<Attachment[]> {
  return cx.db.attachment.findMany({ where: { issueId, commentId: null, AND: [attachmentReadWhere(cx)] }, orderBy: { id: 'asc' } });
}

/** The attachments of an issue itself (not of its comments). @throws NotFoundError */
export async function listIssueAttachments(cx: ServiceContext, ref: RepoRef, index: number): Promise<Attachment[]> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const issue = await findIssueByIndex(cx, access, index);
  return issueAttachments(cx, issue.id);
}

/** One attachment of an issue. @throws NotFoundError */
export async function getIssueAttachment(cx: ServiceContext, ref: RepoRef, index: number, id: number): Promise<Attachment> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const issue = await findIssueByIndex(cx, access, index);
  return findIn(await issueAttachments(cx, issue.id), id);
}

/**
 * Attaches an upload to an issue (Gitea CreateIssueAttachment): its poster or a writer; ATTACHMENT_ALLOWED_TYPES.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError, ValidationError
 */
export async function createIssueAttachment(cx: ServiceContext, ref: RepoRef, index: number, input: UploadInput): Promise<Attachment> {
  const { access, issue } = await issueForWrite(cx, ref, index);
  return storeAttachment(cx, { repoId: access.repo.id, issueId: issue.id }, input, cx.config.attachments.allowedTypes);
}

/** Renames an issue attachment. @throws as createIssueAttachment */
export async function editIssueAttachment(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  id: number,
  name: string | undefined,
): Promise<Attachment> {
  const { issue } = await issueForWrite(cx, ref, index);
  return renameAttachment(cx, findIn(await issueAttachments(cx, issue.id), id), name);
}

/** Deletes an issue attachment and its file. @throws as createIssueAttachment */
export async function deleteIssueAttachment(cx: ServiceContext, ref: RepoRef, index: number, id: number): Promise<void> {
  const { issue } = await issueForWrite(cx, ref, index);
  await deleteAttachments(cx, [findIn(await issueAttachments(cx, issue.id), id)]);
}

async function commentForWrite(
  cx: ServiceContext,
  ref: RepoRef,
  commentId: number,
): Promise<{ access: RepoAccess; comment: Models.Comment }> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  const { comment, issue } = await findCommentInRepo(cx, access, commentId);
  const viewer = requireViewer(cx);
  if (viewer.id !== comment.posterId && !canWriteIssue(access, issue)) {
    throw new PermissionDeniedError('user should have permission to edit comment', { commentId });
  }
  return { access, comment };
}

async function commentAttachments(cx: ServiceContext, commentId: number): Promise<Attachment[]> {
  return cx.db.attachment.findMany({ where: { commentId, AND: [attachmentReadWhere(cx)] }, orderBy: { id: 'asc' } });
}

/** The attachments of a comment. @throws NotFoundError */
export async function listCommentAttachments(cx: ServiceContext, ref: RepoRef, commentId: number): Promise<Attachment[]> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const { comment } = await findCommentInRepo(cx, access, commentId);
  return commentAttachments(cx, comment.id);
}

/** One attachment of a comment. @throws NotFoundError */
export async function getCommentAttachment(cx: ServiceContext, ref: RepoRef, commentId: number, id: number): Promise<Attachment> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  const { comment } = await findCommentInRepo(cx, access, commentId);
  return findIn(await commentAttachments(cx, comment.id), id);
}

/**
 * Attaches an upload to a comment (Gitea CreateIssueCommentAttachment): its poster or a writer.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, InvalidArgumentError, ValidationError
 */
export async function createCommentAttachment(
  cx: ServiceContext,
  ref: RepoRef,
  commentId: number,
  input: UploadInput,
): Promise<Attachment> {
  const { access, comment } = await commentForWrite(cx, ref, commentId);
  return storeAttachment(
    cx,
    { repoId: access.repo.id, issueId: comment.issueId, commentId: comment.id },
    input,
    cx.config.attachments.allowedTypes,
  );
}

/** Renames a comment attachment. @throws as createCommentAttachment */
export async function editCommentAttachment(
  cx: ServiceContext,
  ref: RepoRef,
  commentId: number,
  id: number,
  name: string | undefined,
): Promise<Attachment> {
  const { comment } = await commentForWrite(cx, ref, commentId);
  return renameAttachment(cx, findIn(await commentAttachments(cx, comment.id), id), name);
}

/** Deletes a comment attachment and its file. @throws as createCommentAttachment */
export async function deleteCommentAttachment(cx: ServiceContext, ref: RepoRef, commentId: number, id: number): Promise<void> {
  const { comment } = await commentForWrite(cx, ref, commentId);
  await deleteAttachments(cx, [findIn(await commentAttachments(cx, comment.id), id)]);
}

// ---------------------------------------------------------------------------------------------------------------
// Downloads

/** A file to send: its name, size, content type and bytes. */
export interface AttachmentDownload {
  attachment: Attachment;
  contentType: string;
  size: number;
  stream: Readable;
}

/** The content type an attachment is served with (from its name). */
export function attachmentContentType(name: string): string {
  return mimeTypes().lookup(name) || 'application/octet-stream';
}

/** Opens an attachment's file for sending and counts the download (Gitea IncreaseDownloadCount). */
export async function openDownload(cx: ServiceContext, a: Attachment): Promise<AttachmentDownload> {
  const file = await openAttachmentFile(cx.config.attachments, a.uuid);
  await cx.db.attachment.update({ where: { id: a.id }, data: { downloadCount: { increment: 1 } } });
  return { attachment: a, contentType: attachmentContentType(a.name), size: file.size, stream: file.stream };
}

/** GET /attachments/{uuid}: the file, when the viewer may read what it is attached to (attachmentReadWhere). @throws NotFoundError */
export async function downloadAttachment(cx: ServiceContext, uuid: string): Promise<AttachmentDownload> {
  const a = isAttachmentUuid(uuid) ? await cx.db.attachment.findFirst({ where: { uuid, AND: [attachmentReadWhere(cx)] } }) : null;
  if (!a) throw new NotFoundError('attachment does not exist', { uuid });
  return openDownload(cx, a);
}
