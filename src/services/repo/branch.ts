// Branch writes through the API (Gitea routers/api/v1/repo/branch.go CreateBranch, UpdateBranch, DeleteBranch, RenameBranch),
// through moveRefs (the protection gate of each door), recorded as pushes.
import { AlreadyExistsError, ConflictError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { isAncestor } from '../../git/compare.ts';
import { readRef, readRefs } from '../../git/readRefs.ts';
import { repoPath } from '../../git/repoPath.ts';
import { isSafeRefName, resolveRef } from '../../git/resolveRef.ts';
import { requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { getBranch, type BranchView } from './gitRead.ts';
import { moveRefs, setDefaultHead } from './moveRefs.ts';
import type { Models } from '../../db/client.ts';

/** Gitea CreateBranchRepoOption: the new name and where it starts (a branch, or any ref or commit). */
export interface CreateBranchInput {
  name: string;
  oldBranchName?: string;
  oldRefName?: string;
}

async function writableRepo(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess & { gitDir: string }> {
  requireViewer(cx);
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitWrite(cx, access, 'CODE', 'write:repository');
  if (access.repo.isMirror) throw new PermissionDeniedError('Git Repository is a mirror.');
  return { ...access, gitDir: repoPath(cx.config.repositoriesDir, access.repo.ownerName, access.repo.name) };
}

/**
 * Creates a branch at the head of `oldBranchName` (the default branch when both are empty) or at `oldRefName`
 * (a branch, tag or commit). 409 when the branch or a tag of that name exists.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, AlreadyExistsError
 */
export async function createBranch(
  cx: ServiceContext,
  ref: RepoRef,
  input: CreateBranchInput,
): Promise<{ repo: Models.Repository; branch: BranchView }> {
  const access = await writableRepo(cx, ref);
  const { repo, gitDir } = access;
  if (repo.isEmpty) throw new NotFoundError('Git Repository is empty.');
  let start: string | null;
  if (input.oldRefName) {
    start = (await resolveRef(gitDir, input.oldRefName))?.commit ?? null;
    if (!start) throw new NotFoundError('The old ref does not exist', { ref: input.oldRefName });
  } else {
    const old = input.oldBranchName || repo.defaultBranch;
    start = (await resolveRef(gitDir, old))?.kind === 'branch' ? await readRef(gitDir, `refs/heads/${old}`) : null;
    if (!start) throw new NotFoundError('The old branch does not exist', { branch: old });
  }
  const target = `refs/heads/${input.name}`;
  const existing = await readRefs(gitDir, [target, `refs/tags/${input.name}`]);
  if (existing.has(`refs/tags/${input.name}`))
    throw new AlreadyExistsError('The branch with the same tag already exists.', { name: input.name });
  if (existing.has(target)) throw new AlreadyExistsError('The branch already exists.', { name: input.name });
  const created = await moveRefs(cx, repo, [{ ref: target, oldSha: '0'.repeat(start.length), newSha: start }], { kind: 'push' });
  if (!created.moved) throw new AlreadyExistsError('The branch already exists.', { name: input.name });
  return getBranch(cx, ref.owner, ref.repo, input.name);
}

/** Gitea UpdateBranchRepoOption: where the branch moves, the tip the caller expects it at now, and whether it may rewind. */
export interface UpdateBranchInput {
  newCommitId: string;
  oldCommitId?: string;
  force?: boolean;
}

/**
 * PUT /branches/{branch} (Gitea UpdateBranch): moves an existing branch to `newCommitId` (a commit id or any
 * ref), as a push by the viewer: the branch protection of a push applies (force pushes, push whitelist,
 * protected files, signed commits). 404 when the branch does not exist, 422 for an unknown commit, 409 when
 * `oldCommitId` is not the tip, when the move is not a fast-forward and `force` is not set, or when another
 * writer moved the branch meanwhile.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError, ConflictError
 */
export async function updateBranch(cx: ServiceContext, ref: RepoRef, name: string, input: UpdateBranchInput): Promise<void> {
  const { repo, gitDir } = await writableRepo(cx, ref);
  if (repo.isEmpty) throw new NotFoundError('Git Repository is empty.');
  const target = `refs/heads/${name}`;
  const current = await readRef(gitDir, target);
  if (!current) throw new NotFoundError(`branch does not exist [name: ${name}]`, { branch: name });
  const next = (await resolveRef(gitDir, input.newCommitId))?.commit;
  if (!next) throw new ValidationError(`invalid new commit id: ${input.newCommitId}`, { field: 'new_commit_id' });
  if (input.oldCommitId && input.oldCommitId.toLowerCase() !== current)
    throw new ConflictError(`branch ${name} is at ${current}, not at ${input.oldCommitId}`, { branch: name, current });
  if (next === current) return;
  if (!input.force && !(await isAncestor(gitDir, current, next)))
    throw new ConflictError(`the update of ${name} is not a fast-forward (force it to rewrite the branch)`, { branch: name });
  const moved = await moveRefs(cx, repo, [{ ref: target, oldSha: current, newSha: next }], { kind: 'push' });
  if (!moved.moved) throw new ConflictError(`branch ${name} was changed by someone else meanwhile; retry`, { branch: name });
}

/**
 * Deletes a branch (not the default one: 403), as a push deleting it; 404 when it does not exist.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError
 */
export async function deleteBranch(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const { repo, gitDir } = await writableRepo(cx, ref);
  if (repo.isEmpty) throw new PermissionDeniedError('Git Repository is empty.');
  const target = `refs/heads/${name}`;
  const sha = await readRef(gitDir, target);
  if (!sha) throw new NotFoundError(`branch does not exist [name: ${name}]`, { branch: name });
  if (name === repo.defaultBranch) throw new PermissionDeniedError('can not delete default branch', { branch: name });
  const deleted = await moveRefs(cx, repo, [{ ref: target, oldSha: sha, newSha: '0'.repeat(sha.length) }], { kind: 'delete' });
  if (!deleted.moved) throw new NotFoundError(`branch does not exist [name: ${name}]`, { branch: name });
}

/**
 * Gitea RenameBranch (PATCH /branches/{branch}): the branch moves to `to` (git: create then delete, both
 * compare-and-swaps), open pull requests, the default branch and a rule named after it follow, and the change
 * is recorded as a push creating `to` and deleting `from`. The default branch and a branch with a rule of its
 * own need repository admin; a branch a pattern rule protects is not renamed (moveRefs' rename gate).
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError, ConflictError
 */
export async function renameBranch(cx: ServiceContext, ref: RepoRef, from: string, to: string): Promise<void> {
  const access = await writableRepo(cx, ref);
  const { repo, gitDir } = access;
  if (repo.isEmpty) throw new NotFoundError('Git Repository is empty.');
  if (!isSafeRefName(to)) throw new ValidationError(`branch name is invalid [name: ${to}]`, { name: to });
  const sha = await readRef(gitDir, `refs/heads/${from}`);
  if (!sha) throw new ValidationError("Branch doesn't exist.", { branch: from });
  const taken = () =>
    new ValidationError('Cannot rename a branch using the same name or rename to a branch that already exists.', { name: to });
  if (from === to || (await readRef(gitDir, `refs/heads/${to}`))) throw taken();
  const zero = '0'.repeat(sha.length);
  const updates = [
    { ref: `refs/heads/${to}`, oldSha: zero, newSha: sha },
    { ref: `refs/heads/${from}`, oldSha: sha, newSha: zero },
  ];
  // Rows follow before the push job runs, so its follow-ups do not see pull requests losing their branches.
  const followRows = async () => {
    if (from === repo.defaultBranch) {
      await setDefaultHead(gitDir, to);
      await cx.db.repository.update({ where: { id: repo.id }, data: { defaultBranch: to } });
    }
    await cx.db.pullRequest.updateMany({ where: { baseRepoId: repo.id, baseBranch: from, hasMerged: false }, data: { baseBranch: to } });
    await cx.db.pullRequest.updateMany({ where: { headRepoId: repo.id, headBranch: from, hasMerged: false }, data: { headBranch: to } });
  };
  const outcome = await moveRefs(cx, repo, updates, { kind: 'rename', from, to }, { afterMove: followRows });
  if (outcome.moved) return;
  if (outcome.ref === `refs/heads/${to}`) throw taken();
  throw new ConflictError(`branch ${from} was changed by someone else meanwhile; retry`, { branch: from });
}
