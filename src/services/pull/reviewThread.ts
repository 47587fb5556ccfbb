// Conversations of code comments: resolving them and replying to them (Gitea routers/api/v1/repo/pull_review.go
// ResolvePullReviewComment, UnresolvePullReviewComment, CreatePullReviewCommentReply; models/issues
// CanMarkConversation, MarkConversation; services/pull CreateCodeComment with a reply review).
import type { Models } from '../../db/client.ts';
import { countNewComment } from '../../db/counters.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { requireText } from '../issue/create.ts';
import { withRetry } from '../dbErrors.ts';
import { requireNotBlocked } from '../issue/comment.ts';
import { findPullByIndex, gitDirOf, pullHeadRef } from './pull.ts';
import type { ReviewComment } from './review.ts';
import { commentPatches, reviewedFileDiffs } from './reviewCommentPlacement.ts';
import { isOfficialReviewer, loadReviewView, resolveReviewRepo, type ReviewView } from './reviewView.ts';
import { readRefs } from '../../git/readRefs.ts';
import { isDbId } from '../dbId.ts';

/** A code comment with the review it belongs to and its pull request's issue. */
interface CodeComment {
  comment: Models.Comment;
  review: Models.Review;
  issue: Models.Issue;
}

/**
 * A comment of the repository's pull requests by id: 404 when it is not one (or in someone else's pending
 * review, which only its reviewer and site admins see); 400 when it is not a code comment of a review.
 * @throws NotFoundError, InvalidArgumentError
 */
async function findCodeComment(cx: ServiceContext, access: RepoAccess, id: number, issueId?: number): Promise<CodeComment> {
  const notFound = () => new NotFoundError(`comment does not exist [id: ${id}]`, { commentId: id });
  const found = isDbId(id) ? await cx.db.comment.findUnique({ where: { id }, include: { issue: true, review: true } }) : null;
  if (!found || found.issue.repoId !== access.repo.id || !found.issue.isPull) throw notFound();
  if (issueId !== undefined && found.issueId !== issueId) throw notFound();
  const { issue, review, ...comment } = found;
  if (review?.type === 'PENDING' && review.reviewerId !== cx.viewer?.id && !isSiteAdmin(cx)) throw notFound();
  if (comment.type !== 'CODE' || !review) throw new InvalidArgumentError('comment is not a review comment', { commentId: id });
  return { comment, review, issue };
}

/**
 * Gitea CanMarkConversation: the pull request's poster, a writer of its pull requests or an official reviewer
 * may resolve its conversations, never in an archived repository. @throws PermissionDeniedError
 */
async function requireCanMarkConversation(access: RepoAccess, issue: Models.Issue, cx: ServiceContext): Promise<void> {
  const viewer = requireViewer(cx);
  const denied = () => new PermissionDeniedError('user should be the poster, a writer or an official reviewer', { issueId: issue.id });
  if (access.repo.isArchived) throw denied();
  if (viewer.id === issue.posterId || canWrite(access.perm, 'PULL_REQUESTS')) return;
  const pull = await cx.db.pullRequest.findUnique({ where: { issueId: issue.id }, select: { baseRepoId: true, baseBranch: true } });
  if (!pull || !(await isOfficialReviewer(cx.db, pull, viewer))) throw denied();
}

/**
 * POST /repos/{o}/{r}/pulls/comments/{id}/resolve and …/unresolve (Gitea MarkConversation): marks the
 * conversation of a code comment resolved by the viewer, or unresolved; marking it as it already is changes
 * nothing (the first resolver stays).
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, InvalidArgumentError
 */
export async function markConversation(cx: ServiceContext, ref: RepoRef, id: number, resolved: boolean): Promise<void> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const { comment, issue } = await findCodeComment(cx, access, id);
  await requireCanMarkConversation(access, issue, cx);
  if (resolved) {
    await cx.db.comment.updateMany({ where: { id: comment.id, resolveDoerId: null }, data: { resolveDoerId: viewer.id } });
  } else {
    await cx.db.comment.updateMany({ where: { id: comment.id, resolveDoerId: { not: null } }, data: { resolveDoerId: null } });
  }
}

/** What a reply answers with: the new comment and the review it joined. */
export interface ReviewReply {
  comment: ReviewComment;
  view: ReviewView;
}

/**
 * POST /repos/{o}/{r}/pulls/{index}/comments/{id}/replies (Gitea CreateCodeComment replying to a review): a
 * code comment of the viewer in the same review, on the same file and line, on the pull request's current
 * head with the diff hunk there; counted in the pull request's comments and announced as a new comment.
 * Any signed-in reader who may review may reply; blocked users may not.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, InvalidArgumentError, ValidationError
 */
export async function replyToReviewComment(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  id: number,
  body: string | undefined,
): Promise<ReviewReply> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const rows = await findPullByIndex(cx, access, index);
  const { comment, review } = await findCodeComment(cx, access, id, rows.issue.id);
  const content = body ?? '';
  if (!content.trim()) throw new ValidationError('Required', { field: 'body', rule: 'Required' });
  requireText(content, 'body');
  await requireNotBlocked(cx, access, rows.issue);
  const gitDir = gitDirOf(cx, access.repo);
  const headRef = pullHeadRef(rows.pull.index);
  const head = (await readRefs(gitDir, [headRef]).catch(() => new Map<string, string>())).get(headRef) ?? comment.commitSha;
  const old = comment.line < 0;
  const files = head ? await reviewedFileDiffs(gitDir, rows.pull, head) : new Map<string, string>();
  const [patch = ''] = commentPatches(files, [
    { path: comment.treePath, ...(old ? { oldPosition: -comment.line } : { newPosition: comment.line }) },
  ]);
  const created = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const reply = await tx.comment.create({
        data: {
          type: 'CODE',
          posterId: viewer.id,
          issueId: rows.issue.id,
          reviewId: review.id,
          treePath: comment.treePath,
          line: comment.line,
          content,
          commitSha: head,
          patch: patch || comment.patch,
        },
        include: { poster: true, resolveDoer: true },
      });
      if (review.type !== 'PENDING') {
        await countNewComment(tx, rows.issue.id);
        emit({
          type: 'comment.created',
          commentId: reply.id,
          issueId: rows.issue.id,
          repoId: rows.issue.repoId,
          index: rows.issue.index,
          isPull: true,
          actorId: viewer.id,
        });
      }
      return reply;
    }),
  );
  return { comment: created, view: await loadReviewView(cx.db, review, rows.issue, access.repo) };
}
