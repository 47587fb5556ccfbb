import type { Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoAccess } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { moveRefs } from '../repo/moveRefs.ts';
import { loadPullSettings } from './mergeSettings.ts';
import type { PullRows } from './types.ts';

/**
 * Gitea DeleteBranchAfterMerge, best effort (a refusal leaves the branch and is not an error): the head branch
 * goes when the merger has code write on the head repository (the base, or a writable fork), it is not that
 * repository's default branch nor protected, no other open pull request uses it as its head, and it has no commit beyond the
 * merged head (the deletion is a compare-and-swap on that commit). The deletion is recorded as a push (Branch
 * row marked deleted, `repo.pushed`) and a DELETE_BRANCH comment is added to the pull request. Returns whether
 * the branch was deleted.
 */
export async function deleteHeadBranchAfterMerge(
  cx: ServiceContext,
  access: RepoAccess,
  rows: PullRows,
  headRepo: Models.Repository,
  headSha: string,
): Promise<boolean> {
  const viewer = requireViewer(cx);
  const branch = rows.pull.headBranch;
  if (branch === headRepo.defaultBranch || headRepo.isArchived) return false;
  const perm = headRepo.id === access.repo.id ? access.perm : await cx.loaders.repoPermission.load(headRepo.id);
  if (!canWrite(perm, 'CODE') || perm.blocked) return false;
  if ((await loadPullSettings(cx.db, headRepo.id)).defaultTargetBranch === branch) return false;
  const others = await cx.db.pullRequest.findFirst({
    where: { headRepoId: headRepo.id, headBranch: branch, hasMerged: false, id: { not: rows.pull.id }, issue: { isClosed: false } },
    select: { id: true },
  });
  if (others) return false;
  const ref = `refs/heads/${branch}`;
  let deleted: boolean;
  try {
    deleted = (await moveRefs(cx, headRepo, [{ ref, oldSha: headSha, newSha: '0'.repeat(headSha.length) }], { kind: 'delete' })).moved;
  } catch (err) {
    // A protected head branch stays (Gitea DeleteBranch: ErrBranchIsProtected).
    if (err instanceof PermissionDeniedError) return false;
    throw err;
  }
  if (!deleted) return false;
  await cx.db.comment.create({ data: { type: 'DELETE_BRANCH', posterId: viewer.id, issueId: rows.issue.id, oldRef: branch } });
  return true;
}
