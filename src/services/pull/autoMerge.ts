import type { DbTx, Models } from '../../db/client.ts';
import { countNewComment } from '../../db/counters.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { defineHandler, type JobHandler } from '../../jobs/jobKind.ts';
import { isDomainError, NotFoundError, PermissionDeniedError, ConflictError } from '../../errors.ts';
import { isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { createServiceContext, withTx, type AppDeps, type ServiceContext } from '../context.ts';
import { PULL_CHECKS_CHANGED } from '../status/checkJob.ts';
import { findPullByIndex, resolvePullRepo } from './pull.ts';
import type { MergeDo, PullRows } from './types.ts';

/** What a scheduled merge will do. */
export interface AutoMergePlan {
  style: MergeDo;
  message: string;
  deleteBranchAfterMerge: boolean;
  /** The doer's e-mail address for the merge commit; empty: their git signature's. */
  authorEmail: string;
}

/**
 * Gitea ScheduleAutoMerge, in `tx`: the pull request is merged by `doer` once its required checks and approvals
 * pass (409 when already scheduled), with a PR_SCHEDULED_TO_AUTO_MERGE timeline comment and a re-check job
 * (which merges at once when everything already passes).
 * @throws ConflictError
 */
export async function scheduleAutoMerge(cx: ServiceContext, rows: PullRows, doer: Models.User, plan: AutoMergePlan): Promise<void> {
  await withTx(cx, async (tx) => {
    const existing = await tx.pullAutoMerge.findUnique({ where: { pullId: rows.pull.id } });
    if (existing)
      throw new ConflictError(`pull request is already scheduled to auto merge when checks succeed [pull_id: ${rows.pull.id}]`, {
        pullId: rows.pull.id,
      });
    await tx.pullAutoMerge.create({
      data: {
        pullId: rows.pull.id,
        doerId: doer.id,
        mergeStyle: plan.style,
        message: plan.message,
        deleteBranchAfterMerge: plan.deleteBranchAfterMerge,
        authorEmail: plan.authorEmail,
      },
    });
    await tx.comment.create({ data: { type: 'PR_SCHEDULED_TO_AUTO_MERGE', posterId: doer.id, issueId: rows.issue.id } });
    await countNewComment(tx, rows.issue.id);
    await enqueue(tx, PULL_CHECKS_CHANGED, { repoId: rows.pull.baseRepoId, pullId: rows.pull.id });
  });
}

/**
 * DELETE /repos/{o}/{r}/pulls/{index}/merge (Gitea CancelScheduledAutoMerge): the scheduler or a repository admin
 * cancels the scheduled merge (404 when none; 403 for others), with a PR_UNSCHEDULED_TO_AUTO_MERGE comment.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError
 */
export async function cancelAutoMerge(cx: ServiceContext, ref: RepoRef, index: number): Promise<void> {
  const access = await resolvePullRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const rows = await findPullByIndex(cx, access, index);
  const scheduled = await cx.db.pullAutoMerge.findUnique({ where: { pullId: rows.pull.id } });
  if (!scheduled) throw new NotFoundError('not found', { pullId: rows.pull.id });
  if (scheduled.doerId !== viewer.id && !isRepoAdmin(access.perm))
    throw new PermissionDeniedError('user has no permission to cancel the scheduled auto merge', { pullId: rows.pull.id });
  await withTx(cx, async (tx) => {
    const gone = await tx.pullAutoMerge.deleteMany({ where: { id: scheduled.id } });
    if (!gone.count) return;
    await tx.comment.create({ data: { type: 'PR_UNSCHEDULED_TO_AUTO_MERGE', posterId: viewer.id, issueId: rows.issue.id } });
    await countNewComment(tx, rows.issue.id);
  });
}

/** Re-checks the scheduled merges of a pull request after a review (in the review's transaction). */
export function recheckAutoMerge(tx: DbTx, pull: Pick<Models.PullRequest, 'id' | 'baseRepoId'>): Promise<void> {
  return enqueue(tx, PULL_CHECKS_CHANGED, { repoId: pull.baseRepoId, pullId: pull.id });
}

/** The merge function the handler calls (merge.ts; passed in to keep the import one-way). */
export type AutoMergeRunner = (cx: ServiceContext, ref: RepoRef, index: number, plan: AutoMergePlan) => Promise<unknown>;

/**
 * The re-check job (Gitea services/automerge handlePullRequestAutoMerge): every scheduled merge of the
 * repository (or of the one pull request) is tried as its scheduler; a refusal (checks or approvals missing,
 * conflicts) leaves it scheduled, a merge removes it.
 */
export function autoMergeHandler(deps: AppDeps, run: AutoMergeRunner): JobHandler<{ repoId: number; sha?: string; pullId?: number }> {
  return defineHandler(PULL_CHECKS_CHANGED, async (payload) => {
    const scheduled = await deps.db.pullAutoMerge.findMany({
      where: {
        pull: {
          baseRepoId: payload.repoId,
          hasMerged: false,
          issue: { isClosed: false },
          ...(payload.pullId ? { id: payload.pullId } : {}),
        },
      },
      include: { doer: true, pull: { include: { baseRepo: { select: { ownerName: true, name: true } } } } },
      orderBy: { id: 'asc' },
    });
    for (const s of scheduled) {
      if (!s.doer) continue;
      const cx = createServiceContext(deps, s.doer, { method: 'password', scope: null, tokenId: null, sudoerId: null });
      const ref = { owner: s.pull.baseRepo.ownerName, repo: s.pull.baseRepo.name };
      try {
        await run(cx, ref, s.pull.index, {
          style: s.mergeStyle as MergeDo,
          message: s.message,
          deleteBranchAfterMerge: s.deleteBranchAfterMerge,
          authorEmail: s.authorEmail,
        });
      } catch (err) {
        if (!isDomainError(err)) throw err;
      }
    }
  });
}
