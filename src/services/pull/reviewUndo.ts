import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { requireText } from '../issue/create.ts';
import { withRetry } from '../dbErrors.ts';
import { isVerdict } from './review.ts';
import { findReview, loadReviewView, resolveReviewRepo, restoreLatestOfficialReview, type ReviewView } from './reviewView.ts';

/**
 * Deletes a review with its code comments and timeline comments (Gitea DeletePullReview): only its reviewer or
 * a site admin (403 otherwise, with Gitea's message for a nil error); review requests cannot be deleted this way.
 * The reviewer's previous verdict becomes official again when the deleted one was.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function deleteReview(cx: ServiceContext, ref: RepoRef, index: number, id: number): Promise<void> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const { review, issue } = await findReview(cx, access, index, id);
  if (!viewer.isAdmin && viewer.id !== review.reviewerId) throw new PermissionDeniedError('%!s(<nil>)', { reviewId: review.id });
  if (review.type === 'REQUEST') throw new ValidationError('review request can not be deleted using this method', { reviewId: review.id });
  await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const comments = await tx.comment.findMany({
        where: { reviewId: review.id, type: { in: ['CODE', 'REVIEW', 'DISMISS_REVIEW'] } },
        select: { id: true, type: true },
      });
      const ids = comments.map((c) => c.id);
      if (ids.length) {
        await tx.reaction.deleteMany({ where: { issueId: issue.id, commentId: { in: ids } } });
        await tx.comment.deleteMany({ where: { id: { in: ids } } });
      }
      const counted = comments.filter((c) => c.type === 'REVIEW').length;
      if (counted) await tx.issue.update({ where: { id: issue.id }, data: { numComments: { decrement: counted } } });
      const { count } = await tx.review.deleteMany({ where: { id: review.id } });
      if (count === 0) throw new NotFoundError(`review does not exist [id: ${review.id}]`, { reviewId: review.id });
      if (review.official && review.reviewerId !== null) await restoreLatestOfficialReview(tx, issue.id, review.reviewerId);
      emit({
        type: 'pull.reviewDeleted',
        reviewId: review.id,
        issueId: issue.id,
        repoId: issue.repoId,
        index: issue.index,
        reviewerId: review.reviewerId,
        actorId: viewer.id,
      });
    }),
  );
}

/** POST …/reviews/{id}/dismissals (Gitea DismissPullReviewOptions). */
export interface DismissReviewInput {
  message?: string;
  /** Also dismiss the reviewer's other verdicts on the pull request. */
  priors?: boolean;
}

/**
 * Dismisses a review, or undoes a dismissal (Gitea DismissPullReview / UnDismissPullReview): repository admins
 * only (checked before the review is looked up); only approvals and rejections; not on a closed or merged pull
 * request. A dismissal records a DISMISS_REVIEW timeline comment with the message; `priors` dismisses the
 * reviewer's other verdicts too.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError
 */
export async function setReviewDismissed(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  id: number,
  dismiss: boolean,
  input: DismissReviewInput = {},
): Promise<ReviewView> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  if (!isRepoAdmin(access.perm)) throw new PermissionDeniedError('Must be repo admin');
  const { review, issue, pull } = await findReview(cx, access, index, id);
  if (!isVerdict(review.type))
    throw new PermissionDeniedError("not need to dismiss this review because it's type is not Approve or change request", {
      reviewId: review.id,
    });
  if (issue.isClosed || pull.hasMerged)
    throw new PermissionDeniedError("can't dismiss a review associated to a closed or merged PR", { reviewId: review.id });
  const message = input.message ?? '';
  requireText(message, 'message');
  const updated = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      await tx.review.updateMany({ where: { id: review.id, dismissed: !dismiss }, data: { dismissed: dismiss } });
      if (dismiss && input.priors && review.reviewerId !== null) {
        await tx.review.updateMany({
          where: { issueId: issue.id, reviewerId: review.reviewerId, dismissed: false, type: { in: ['APPROVE', 'REJECT'] } },
          data: { dismissed: true },
        });
      }
      const comment = dismiss
        ? await tx.comment.create({
            data: { type: 'DISMISS_REVIEW', posterId: viewer.id, issueId: issue.id, reviewId: review.id, content: message },
          })
        : null;
      emit({
        type: 'pull.reviewDismissed',
        reviewId: review.id,
        issueId: issue.id,
        repoId: issue.repoId,
        index: issue.index,
        dismissed: dismiss,
        commentId: comment?.id ?? null,
        actorId: viewer.id,
      });
      return tx.review.findUniqueOrThrow({ where: { id: review.id } });
    }),
  );
  return loadReviewView(cx.db, updated, issue, access.repo);
}
