// Updating a pull request's head branch with its base (Gitea routers/api/v1/repo/pull.go UpdatePullRequest,
// services/pull/update.go Update and IsUserAllowedToUpdate).
import type { Models } from '../../db/client.ts';
import { ConflictError, PermissionDeniedError, RepoArchivedError, ValidationError } from '../../errors.ts';
import { isAncestor } from '../../git/compare.ts';
import { createMerge } from '../../git/createMerge.ts';
import { readRef } from '../../git/readRefs.ts';
import { requireViewer } from '../access/guards.ts';
import { repoPermission, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { canUserPush } from '../protection/branchGate.ts';
import { findBranchRule } from '../protection/rule.ts';
import { deleteHiddenRef, fetchIntoHiddenRef, moveRefs } from '../repo/moveRefs.ts';
import { gitSignature } from '../user/gitIdentity.ts';
import { loadPullSettings } from './mergeSettings.ts';
import { findPullByIndex, gitDirOf } from './pull.ts';
import { isUserAllowedToMerge } from './protectionCheck.ts';
import { resolveReviewRepo } from './reviewView.ts';
import type { PullRows } from './types.ts';

/** How the head branch takes the base's new commits: a merge commit, or its commits replayed onto the base. */
export type UpdateStyle = 'merge' | 'rebase';

/**
 * Gitea IsUserAllowedToUpdate, for `style`: the pull request is the other way round (the head branch is the one
 * that moves): a rule on the head branch must let the viewer push (Gitea asks with the base repository's
 * permission), then the viewer must be allowed to merge into the head branch (with the head repository's
 * permission, or the base repository's when maintainers may edit); rebasing also needs the head repository's
 * allow_rebase_update. AGit pull requests are never updated. @throws PermissionDeniedError
 */
async function requireAllowedToUpdate(cx: ServiceContext, rows: PullRows, headRepo: Models.Repository, style: UpdateStyle): Promise<void> {
  const viewer = requireViewer(cx);
  const denied = () => new PermissionDeniedError('user is not allowed to update this pull request', { pullId: rows.pull.id, style });
  if (rows.pull.flow === 'AGIT') throw denied();
  const [rule, headPerm, basePerm, headUnit] = await Promise.all([
    findBranchRule(cx.db, headRepo.id, rows.pull.headBranch),
    repoPermission(cx, headRepo.id),
    repoPermission(cx, rows.pull.baseRepoId),
    cx.db.repoUnit.findUnique({ where: { repoId_type: { repoId: headRepo.id, type: 'PULL_REQUESTS' } }, select: { id: true } }),
  ]);
  if (!headUnit) throw denied();
  if (rule && !(await canUserPush(cx.db, rule, viewer, basePerm))) throw denied();
  const mayMerge =
    (await isUserAllowedToMerge(cx.db, rule, viewer, headPerm)) ||
    (rows.pull.allowMaintainerEdit && (await isUserAllowedToMerge(cx.db, rule, viewer, basePerm)));
  if (!mayMerge) throw denied();
  if (style === 'rebase' && (await loadPullSettings(cx.db, headRepo.id)).allowRebaseUpdate !== true) throw denied();
}

/**
 * POST /repos/{o}/{r}/pulls/{index}/update (Gitea UpdatePullRequest): brings the head branch up to date with
 * the base, by merging the base into it ("Merge branch '<base>' into <head>", the viewer's commit) or by
 * rebasing its commits onto the base; the head branch moves as a push by the viewer (its protection applies:
 * a rebase is a force push). 422 for a merged or closed pull request, a missing branch or head repository, or a
 * head that is not behind (Gitea answers that one with a 500); 403 when the viewer may not update; 409 on
 * conflicts or when the head branch moved meanwhile.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError, ConflictError, RepoArchivedError
 */
export async function updatePullHead(cx: ServiceContext, ref: RepoRef, index: number, style: UpdateStyle): Promise<void> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const rows = await findPullByIndex(cx, access, index);
  if (rows.pull.hasMerged) throw new ValidationError('the pull request is already merged', { pullId: rows.pull.id });
  if (rows.issue.isClosed) throw new ValidationError('the pull request is closed', { pullId: rows.pull.id });
  const headRepo =
    rows.pull.headRepoId === access.repo.id
      ? access.repo
      : rows.pull.headRepoId === null
        ? null
        : await cx.db.repository.findUnique({ where: { id: rows.pull.headRepoId } });
  if (!headRepo) throw new ValidationError('the head repository of this pull request has been deleted', { pullId: rows.pull.id });
  await requireAllowedToUpdate(cx, rows, headRepo, style);
  if (headRepo.isArchived) throw new RepoArchivedError();

  const baseGitDir = gitDirOf(cx, access.repo);
  const headGitDir = gitDirOf(cx, headRepo);
  const headRef = `refs/heads/${rows.pull.headBranch}`;
  const [baseSha, headSha] = await Promise.all([readRef(baseGitDir, `refs/heads/${rows.pull.baseBranch}`), readRef(headGitDir, headRef)]);
  if (!baseSha) throw new ValidationError(`the base branch '${rows.pull.baseBranch}' does not exist`, { pullId: rows.pull.id });
  if (!headSha) throw new ValidationError(`the head branch '${rows.pull.headBranch}' does not exist`, { pullId: rows.pull.id });
  // The base's commits must be in the head repository to merge or rebase onto them there.
  const hidden = headRepo.id === access.repo.id ? null : `refs/forgegraph/update/${rows.pull.id}`;
  if (hidden) await fetchIntoHiddenRef(headGitDir, baseGitDir, baseSha, hidden);
  try {
    if (await isAncestor(headGitDir, baseSha, headSha))
      throw new ValidationError(`HeadBranch of PR ${rows.pull.index} is up to date`, { pullId: rows.pull.id });
    const me = gitSignature(cx, viewer, new Date());
    const outcome =
      style === 'merge'
        ? await createMerge(headGitDir, {
            style: 'merge',
            base: headSha,
            head: baseSha,
            author: me,
            committer: me,
            message: `Merge branch '${rows.pull.baseBranch}' into ${rows.pull.headBranch}`,
          })
        : await createMerge(headGitDir, { style: 'rebase', base: baseSha, head: headSha, author: me, committer: me, message: '' });
    let newSha: string;
    if (outcome.status === 'merged') newSha = outcome.sha;
    else if (outcome.status === 'already-merged') newSha = baseSha;
    else throw new ConflictError(`${style} failed because of conflict`, { pullId: rows.pull.id, outcome: outcome.status });
    const moved = await moveRefs(cx, headRepo, [{ ref: headRef, oldSha: headSha, newSha }], { kind: 'push' });
    if (!moved.moved) throw new ConflictError('the head branch was changed by someone else meanwhile; retry', { pullId: rows.pull.id });
  } finally {
    if (hidden) await deleteHiddenRef(headGitDir, hidden);
  }
}
