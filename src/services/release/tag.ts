// Tags (Gitea routers/api/v1/repo/tag.go, services/release CreateNewTag/DeleteReleaseByID): list, read, create, delete.
import type { Models } from '../../db/client.ts';
import { countCommits } from '../../git/countCommits.ts';
import { isValidTagName } from '../../git/createTag.ts';
import { forgetGitCache } from '../../git/cache.ts';
import { listTags as listGitTags, type TagInfo } from '../../git/listTags.ts';
import { readRef } from '../../git/readRefs.ts';
import { readTag, type AnnotatedTagObject } from '../../git/readTag.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import { AlreadyExistsError, ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitRead, requireUnitWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { verifyTags, type CommitVerification } from '../gpg/verifyCommits.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { createTagRef, moveRefs } from '../repo/moveRefs.ts';
import { isProtectedTagRefusal } from '../protection/tagGate.ts';
import { gitSignature } from '../user/gitIdentity.ts';

/** Read access to the code, where tags live (Gitea's /tags routes: reqRepoReader(TypeCode)). @throws NotFoundError */
async function requireTagRead(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess & { gitDir: string }> {
  requireTokenScope(cx, 'repository', 'read');
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'CODE');
  return { ...access, gitDir: repoPath(cx.config.repositoriesDir, access.repo.ownerName, access.repo.name) };
}

/** Tag writes: reqToken, reqRepoWriter(TypeCode), mustNotBeArchived. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError */
async function requireTagWrite(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess & { gitDir: string; viewer: Models.User }> {
  const access = await requireTagRead(cx, ref);
  const viewer = requireViewer(cx);
  requireUnitWrite(cx, access, 'CODE', 'write:repository');
  return { ...access, viewer };
}

/** A repository's tags, newest first, paged. @throws NotFoundError */
export async function listTags(cx: ServiceContext, ref: RepoRef, page: ListOptions): Promise<Page<TagInfo>> {
  const access = await requireTagRead(cx, ref);
  const { skip, take } = skipTake(page);
  return listGitTags(access.gitDir, { skip, take });
}

/** One tag by name. @throws NotFoundError `tag doesn't exist: <name>` */
export async function getTag(cx: ServiceContext, ref: RepoRef, name: string): Promise<TagInfo> {
  const access = await requireTagRead(cx, ref);
  const [tag] = isValidTagName(name) ? (await listGitTags(access.gitDir, { names: [name] })).items : [];
  if (!tag) throw new NotFoundError(`tag doesn't exist: ${name}`, { name });
  return tag;
}

/** Gitea CreateTagOption: a message makes an annotated tag (tagger: the viewer); the target defaults to the default branch. */
export interface CreateTagInput {
  tagName: string;
  target?: string;
  message?: string;
}

/**
 * Creates a tag (Gitea CreateTag/CreateNewTag): 404 `target not found`, 409 when the tag (or a release of it)
 * exists, 422 for a name git refuses. Its bare-tag release row is written and the new ref is recorded as a push
 * of the viewer (push_tag feed rows, create webhooks).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError, AlreadyExistsError, ValidationError
 */
export async function createTag(cx: ServiceContext, ref: RepoRef, input: CreateTagInput): Promise<TagInfo> {
  const access = await requireTagWrite(cx, ref);
  if (!input.tagName) throw new ValidationError('Required', { field: 'tag_name', rule: 'Required' });
  if (!isValidTagName(input.tagName) || input.tagName.length > 100) {
    throw new ValidationError('GitRefName', { field: 'tag_name', rule: 'GitRefName' });
  }
  const target = input.target || access.repo.defaultBranch;
  const resolved = await resolveRef(access.gitDir, target);
  if (!resolved) throw new NotFoundError(`target not found: object does not exist [id: ${target}, rel_path: ]`, { target });
  const lowerTagName = input.tagName.toLowerCase();
  const taken = await cx.db.release.findUnique({
    where: { repoId_lowerTagName: { repoId: access.repo.id, lowerTagName } },
    select: { id: true },
  });
  if (taken) throw new AlreadyExistsError(`tag already exists [name: ${input.tagName}]`, { tagName: input.tagName });
  const now = new Date();
  // The bare-tag row is written before the push is recorded (its follow-up then finds it).
  const saveRow = async () => {
    forgetGitCache(access.gitDir);
    const numCommits = await countCommits(access.gitDir, resolved.commit);
    await withTx(cx, (tx) =>
      tx.release.upsert({
        where: { repoId_lowerTagName: { repoId: access.repo.id, lowerTagName } },
        create: {
          repoId: access.repo.id,
          publisherId: access.viewer.id,
          tagName: input.tagName,
          lowerTagName,
          target: resolved.commit,
          sha1: resolved.commit,
          numCommits,
          isTag: true,
          createdAt: now,
        },
        update: {},
      }),
    );
  };
  await createTagRef(
    cx,
    access.repo,
    {
      name: input.tagName,
      commit: resolved.commit,
      ...(input.message ? { message: input.message, tagger: gitSignature(cx, access.viewer, now) } : {}),
    },
    { afterMove: saveRow },
  ).catch(protectedTagAs('user not allowed to create protected tag'));
  const [tag] = (await listGitTags(access.gitDir, { names: [input.tagName] })).items;
  if (!tag) throw new NotFoundError(`tag doesn't exist: ${input.tagName}`, { name: input.tagName });
  return tag;
}

/** Gitea's API answers a protected tag with 422 and its own text instead of the gate's. */
function protectedTagAs(message: string): (err: unknown) => never {
  return (err) => {
    if (isProtectedTagRefusal(err)) throw new ValidationError(message, { tagName: err.data.protectedTag });
    throw err;
  };
}

/**
 * Deletes a tag (Gitea DeleteTag): 409 `a tag attached to a release cannot be deleted directly` when a release
 * uses it, 404 when there is no such tag; its bare-tag row goes with it and the deletion is recorded as a push.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError, ConflictError
 */
export async function deleteTag(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const access = await requireTagWrite(cx, ref);
  const row = await cx.db.release.findUnique({
    where: { repoId_lowerTagName: { repoId: access.repo.id, lowerTagName: name.toLowerCase() } },
  });
  if (row && !row.isTag) throw new ConflictError('a tag attached to a release cannot be deleted directly', { releaseId: row.id });
  const value = isValidTagName(name) ? await readRef(access.gitDir, `refs/tags/${name}`) : null;
  if (!value && !row) throw new NotFoundError('not found', { name });
  const dropRow = async () => {
    forgetGitCache(access.gitDir);
    if (row) await withTx(cx, (tx) => tx.release.deleteMany({ where: { id: row.id, isTag: true } }));
  };
  if (!value) return dropRow();
  const deleted = await moveRefs(
    cx,
    access.repo,
    [{ ref: `refs/tags/${name}`, oldSha: value, newSha: '0'.repeat(value.length) }],
    { kind: 'push' },
    { afterMove: dropRow },
  ).catch(protectedTagAs('user not allowed to delete protected tag'));
  if (!deleted.moved) throw new ConflictError(`tag ${name} changed meanwhile`, { name });
}

/** An annotated tag object, the repository it belongs to (for its URLs) and its signature's verification. */
export interface AnnotatedTagView {
  repo: Models.Repository;
  tag: AnnotatedTagObject;
  verification: CommitVerification | null;
}

/**
 * The annotated tag object `sha` (Gitea GetAnnotatedTag): an unknown sha or one that is not a tag object is 400.
 * Its `verification` is the tag's own signature checked against the tagger's keys (Forgejo ParseTagWithSignature;
 * Gitea shows the tagged commit's there instead).
 * @throws NotFoundError, InvalidArgumentError
 */
export async function getAnnotatedTag(cx: ServiceContext, ref: RepoRef, sha: string): Promise<AnnotatedTagView> {
  const access = await requireTagRead(cx, ref);
  const tag = await readTag(access.gitDir, sha);
  const verification = (await verifyTags(cx, access.gitDir, [tag.sha])).get(tag.sha) ?? null;
  return { repo: access.repo, tag, verification };
}
