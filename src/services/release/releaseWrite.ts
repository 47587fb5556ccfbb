// Releases written (Gitea services/release CreateRelease, UpdateRelease, DeleteReleaseByID): create, edit, delete,
// with the tag each needs.
import type { Models } from '../../db/client.ts';
import { countCommits } from '../../git/countCommits.ts';
import { forgetGitCache } from '../../git/cache.ts';
import { readRef } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveCommits } from '../../git/resolveCommits.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { AlreadyExistsError, ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { createTagRef } from '../repo/moveRefs.ts';
import { isProtectedTagRefusal } from '../protection/tagGate.ts';
import { gitSignature } from '../user/gitIdentity.ts';
import { removeAttachmentFiles } from '../attachment/store.ts';
import { releaseReadWhere } from './visibility.ts';

import { loadReleaseView, requireReleaseWrite, type ReleaseView } from './release.ts';
import { isDbId } from '../dbId.ts';

type Release = Models.Release;

/** Gitea CreateReleaseOption. */
export interface CreateReleaseInput {
  tagName: string;
  /** Branch, tag or commit the tag is created at; the default branch when empty. */
  target?: string;
  name?: string;
  body?: string;
  draft?: boolean;
  prerelease?: boolean;
  /** A message makes the new tag annotated (tagger: the publisher). */
  tagMessage?: string;
}

/** Gitea EditReleaseOption: empty strings leave a field alone (Gitea cannot clear a title or a note). */
export interface UpdateReleaseInput {
  tagName?: string;
  target?: string;
  name?: string;
  body?: string;
  draft?: boolean;
  prerelease?: boolean;
}

/** The fields createTag (Gitea services/release createTag) settles for a release about to be saved. */
interface Settled {
  sha1: string;
  numCommits: number;
  createdAt?: Date;
  /** The tag it created (ref value), if it did. */
  created: string | null;
  tagName: string;
}

/**
 * Gitea's createTag: a draft is stamped now; a published release whose tag is missing gets it (at `target`,
 * annotated when there is a message), stamped now; then the tag's commit and its history length are recorded,
 * and `save` stores the release. A tag created here is recorded as a push of the viewer once `save` is done
 * (its follow-up then finds the release row).
 * @throws NotFoundError (target), ValidationError (tag name), AlreadyExistsError, PermissionDeniedError
 */
async function settleTag<T>(
  cx: ServiceContext,
  access: RepoAccess & { viewer: Models.User },
  rel: { tagName: string; target: string; isDraft: boolean; sha1: string; numCommits: number },
  message: string,
  save: (settled: Settled) => Promise<T>,
): Promise<T> {
  const now = new Date();
  if (rel.isDraft) return save({ sha1: rel.sha1, numCommits: rel.numCommits, createdAt: now, created: null, tagName: rel.tagName });
  const gitDir = repoPath(cx.config.repositoriesDir, access.repo.ownerName, access.repo.name);
  // Gitea trims a leading `--` so the name cannot read as an option.
  const tagName = rel.tagName.replace(/^--/, '');
  const settledAt = async (created: string | null, createdAt?: Date): Promise<Settled> => {
    const [commit] = await resolveCommits(gitDir, [`refs/tags/${tagName}`]);
    return { sha1: commit!, numCommits: await countCommits(gitDir, commit!), createdAt, created, tagName };
  };
  if ((await readRef(gitDir, `refs/tags/${tagName}`)) !== null) return save(await settledAt(null));
  const target = rel.target || access.repo.defaultBranch;
  const resolved = await resolveRef(gitDir, target);
  if (!resolved) throw new NotFoundError(`target "${target}" not found: object does not exist [id: ${target}, rel_path: ]`, { target });
  let saved!: T;
  await createTagRef(
    cx,
    access.repo,
    { name: tagName, commit: resolved.commit, ...(message ? { message, tagger: gitSignature(cx, access.viewer, now) } : {}) },
    {
      afterMove: async (value) => {
        forgetGitCache(gitDir);
        saved = await save(await settledAt(value, now));
      },
    },
  ).catch((err: unknown) => {
    // Gitea ErrProtectedTagName, answered 422.
    if (isProtectedTagRefusal(err)) throw new ValidationError(`user not allowed to create protected tag: ${tagName}`, { tagName });
    throw err;
  });
  return saved;
}

/** A unique-index failure on the tag name reads as the tag's release already existing. */
function tagTaken(err: unknown, tagName: string): never {
  if (isUniqueViolation(err)) {
    throw new AlreadyExistsError(`release tag already exist [tag_name: ${tagName}]`, { tagName });
  }
  throw err;
}

/**
 * Creates a release (Gitea CreateRelease): 422 on an empty repository, 409 when the tag already has a release
 * (`Release is has no Tag`, sic); a bare tag's row becomes the release. Published, its tag is created at
 * `target` (default branch) when missing — recorded as a push — and `release.published` is emitted
 * (`release.updated` for a bare tag's row whose tag existed, as Gitea).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError, ValidationError, ConflictError
 */
export async function createRelease(cx: ServiceContext, ref: RepoRef, input: CreateReleaseInput): Promise<ReleaseView> {
  const access = await requireReleaseWrite(cx, ref);
  if (!input.tagName) throw new ValidationError('Required', { field: 'tag_name', rule: 'Required' });
  if (access.repo.isEmpty) throw new ValidationError('repo is empty', { repoId: access.repo.id });
  const existing = await cx.db.release.findUnique({
    where: { repoId_lowerTagName: { repoId: access.repo.id, lowerTagName: input.tagName.toLowerCase() } },
  });
  if (existing && !existing.isTag) throw new ConflictError('Release is has no Tag', { releaseId: existing.id });
  const isDraft = input.draft ?? false;
  const row = await settleTag(
    cx,
    access,
    { tagName: input.tagName, target: input.target ?? '', isDraft, sha1: existing?.sha1 ?? '', numCommits: existing?.numCommits ?? 0 },
    existing ? '' : (input.tagMessage ?? ''),
    (settled) => {
      const data = {
        publisherId: access.viewer.id,
        tagName: settled.tagName,
        lowerTagName: settled.tagName.toLowerCase(),
        target: input.target || (existing ? '' : access.repo.defaultBranch),
        title: input.name ?? '',
        note: input.body ?? '',
        isDraft,
        isPrerelease: input.prerelease ?? false,
        isTag: false,
        sha1: settled.sha1,
        numCommits: settled.numCommits,
        ...(settled.createdAt ? { createdAt: settled.createdAt } : {}),
      };
      return withTx(cx, async (tx, emit) => {
        const saved = existing
          ? await tx.release.update({ where: { id: existing.id }, data })
          : await tx.release.create({ data: { repoId: access.repo.id, ...data } });
        // Gitea: a new release is published; a bare tag's row turned release goes through UpdateRelease, which
        // announces `updated` unless it created the tag.
        if (!isDraft) {
          const base = { releaseId: saved.id, repoId: access.repo.id, actorId: access.viewer.id };
          emit(
            existing && !settled.created
              ? { type: 'release.updated', ...base, action: 'updated' }
              : { type: 'release.published', ...base, action: 'published' },
          );
        }
        return saved;
      }).catch((err: unknown) => tagTaken(err, settled.tagName));
    },
  );
  return loadReleaseView(cx.db, row);
}

/** The release `id` of the repository for a write: a bare tag is 404 as Gitea. @throws NotFoundError */
async function findForWrite(cx: ServiceContext, repoId: number, where: Models.Prisma.ReleaseWhereInput): Promise<Release> {
  const row = await cx.db.release.findFirst({ where: { repoId, isTag: false, ...where } });
  if (!row) throw new NotFoundError('not found', { repoId });
  return row;
}

/**
 * Edits a release (Gitea EditRelease + UpdateRelease): non-empty strings and given flags change; publishing
 * (or any edit of a published release whose tag is missing) creates the tag, emits `release.published` and
 * records the tag as a push; other edits of a published release emit `release.updated`. A changed tag name
 * creates the new tag and keeps the old one.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError, ValidationError, AlreadyExistsError
 */
export async function updateRelease(cx: ServiceContext, ref: RepoRef, id: number, input: UpdateReleaseInput): Promise<ReleaseView> {
  const access = await requireReleaseWrite(cx, ref);
  if (!isDbId(id)) throw new NotFoundError('not found', { id });
  const current = await findForWrite(cx, access.repo.id, { id });
  const next = {
    tagName: input.tagName || current.tagName,
    target: input.target || current.target,
    title: input.name || current.title,
    note: input.body || current.note,
    isDraft: input.draft ?? current.isDraft,
    isPrerelease: input.prerelease ?? current.isPrerelease,
  };
  const row = await settleTag(cx, access, { ...next, sha1: current.sha1, numCommits: current.numCommits }, '', (settled) =>
    withTx(cx, async (tx, emit) => {
      const saved = await tx.release.update({
        where: { id: current.id },
        data: {
          ...next,
          tagName: settled.tagName,
          lowerTagName: settled.tagName.toLowerCase(),
          sha1: settled.sha1,
          numCommits: settled.numCommits,
          ...(settled.createdAt ? { createdAt: settled.createdAt } : {}),
        },
      });
      if (!saved.isDraft) {
        const base = { releaseId: saved.id, repoId: access.repo.id, actorId: access.viewer.id };
        emit(
          settled.created
            ? { type: 'release.published', ...base, action: 'published' }
            : { type: 'release.updated', ...base, action: 'updated' },
        );
      }
      return saved;
    }).catch((err: unknown) => tagTaken(err, settled.tagName)),
  );
  return loadReleaseView(cx.db, row);
}

/**
 * Gitea DeleteReleaseByID without deleting the tag: the release becomes a bare tag (its row kept with `is_tag`,
 * or removed when its tag does not exist, as for a draft), its assets and their files are deleted, and a
 * published release emits `release.deleted`.
 */
async function removeRelease(cx: ServiceContext, access: RepoAccess & { viewer: Models.User }, rel: Release): Promise<void> {
  const gitDir = repoPath(cx.config.repositoriesDir, access.repo.ownerName, access.repo.name);
  const tagExists = (await readRef(gitDir, `refs/tags/${rel.tagName}`)) !== null;
  const files = await withTx(cx, async (tx, emit) => {
    const attachments = await tx.attachment.findMany({ where: { releaseId: rel.id }, select: { uuid: true } });
    await tx.attachment.deleteMany({ where: { releaseId: rel.id } });
    if (tagExists) await tx.release.update({ where: { id: rel.id }, data: { isTag: true } });
    else await tx.release.delete({ where: { id: rel.id } });
    if (!rel.isDraft) {
      emit({
        type: 'release.deleted',
        releaseId: rel.id,
        repoId: access.repo.id,
        actorId: access.viewer.id,
        action: 'deleted',
        tagName: rel.tagName,
        title: rel.title,
        release: {
          target: rel.target,
          note: rel.note,
          isPrerelease: rel.isPrerelease,
          publisherId: rel.publisherId,
          createdAt: rel.createdAt.toISOString(),
        },
      });
    }
    return attachments.map((a) => a.uuid);
  });
  await removeAttachmentFiles(cx.config.attachments, files);
}

/** Deletes a release, keeping its tag (Gitea DeleteRelease). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError */
export async function deleteRelease(cx: ServiceContext, ref: RepoRef, id: number): Promise<void> {
  const access = await requireReleaseWrite(cx, ref);
  if (!isDbId(id)) throw new NotFoundError('not found', { id });
  await removeRelease(cx, access, await findForWrite(cx, access.repo.id, { id }));
}

/** Deletes the release of a tag, keeping the tag (Gitea DeleteReleaseByTag). @throws as deleteRelease */
export async function deleteReleaseByTag(cx: ServiceContext, ref: RepoRef, tag: string): Promise<void> {
  const access = await requireReleaseWrite(cx, ref);
  await removeRelease(cx, access, await findForWrite(cx, access.repo.id, { lowerTagName: tag.toLowerCase() }));
}

/** The repository of a release the viewer may read, for callers holding a release id (GraphQL). @throws NotFoundError */
async function locateRelease(cx: ServiceContext, id: number): Promise<RepoRef & { id: number }> {
  const row = isDbId(id)
    ? await cx.db.release.findFirst({
        where: { id, ...releaseReadWhere(cx) },
        select: { id: true, repo: { select: { ownerName: true, name: true } } },
      })
    : null;
  if (!row) throw new NotFoundError('not found', { id });
  return { owner: row.repo.ownerName, repo: row.repo.name, id: row.id };
}

/** updateRelease for a release known by its database id (GraphQL). @throws as updateRelease */
export async function updateReleaseById(cx: ServiceContext, id: number, input: UpdateReleaseInput): Promise<ReleaseView> {
  const at = await locateRelease(cx, id);
  return updateRelease(cx, at, at.id, input);
}

/** deleteRelease for a release known by its database id (GraphQL). @throws as deleteRelease */
export async function deleteReleaseById(cx: ServiceContext, id: number): Promise<void> {
  const at = await locateRelease(cx, id);
  await deleteRelease(cx, at, at.id);
}
