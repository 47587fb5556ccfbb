import { recheckAutoMerge } from './autoMerge.ts';
import type { DbTx, Models } from '../../db/client.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { isAncestor } from '../../git/compare.ts';
import { readCommit } from '../../git/readCommit.ts';
import { readRefs } from '../../git/readRefs.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { requireText } from '../issue/create.ts';
import { withRetry } from '../dbErrors.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { commentPatches, placedByDiffPosition, reviewedFileDiffs, type ReviewCommentInput } from './reviewCommentPlacement.ts';
import { findPullByIndex, gitDirOf, pullHeadRef } from './pull.ts';
import {
  findReview,
  isOfficialReviewer,
  loadReviewView,
  loadReviewViews,
  resolveReviewRepo,
  REVIEW_ORDER,
  type ReviewView,
} from './reviewView.ts';
import type { PullRows } from './types.ts';
import { insertRows } from '../../db/insertRows.ts';
import { countNewComment } from '../../db/counters.ts';

type ReviewType = Models.ReviewType;

/** POST /repos/{o}/{r}/pulls/{index}/reviews (Gitea CreatePullReviewOptions). */
export interface CreateReviewInput {
  /** APPROVED, REQUEST_CHANGES or COMMENT; anything else (also "", PENDING) makes a pending review. */
  event?: string;
  body?: string;
  /** The reviewed commit; the pull request's head by default. */
  commitId?: string;
  comments?: ReviewCommentInput[];
}

/** POST /repos/{o}/{r}/pulls/{index}/reviews/{id} (Gitea SubmitPullReviewOptions). */
export interface SubmitReviewInput {
  event?: string;
  body?: string;
}

/** A code comment of a review with its author and resolver. */
export type ReviewComment = Models.Comment & { poster: Models.User | null; resolveDoer: Models.User | null };

const CLOSED = "can't submit review for a closed or merged PR";

/**
 * Gitea preparePullReviewType: the review type of an event, with its checks in Gitea's order (the poster may
 * not approve or reject; COMMENT needs a body or a comment; REQUEST_CHANGES and pending reviews need a body).
 * @throws ValidationError
 */
function reviewTypeOf(issue: Models.Issue, viewer: Models.User, event: string, body: string, hasComments: boolean): ReviewType {
  const hasBody = body.trim().length > 0;
  let type: ReviewType = 'PENDING';
  let needsBody = true;
  if (event === 'APPROVED') {
    if (issue.posterId === viewer.id) throw new ValidationError('approve your own pull is not allowed');
    type = 'APPROVE';
    needsBody = false;
  } else if (event === 'REQUEST_CHANGES') {
    if (issue.posterId === viewer.id) throw new ValidationError('reject your own pull is not allowed');
    type = 'REJECT';
  } else if (event === 'COMMENT') {
    type = 'COMMENT';
    needsBody = false;
    if (!hasBody && !hasComments) throw new ValidationError(`review event ${event} requires a body or a comment`);
  }
  if (needsBody && !hasBody) throw new ValidationError(`review event ${event} requires a body`);
  return type;
}

export const isVerdict = (type: ReviewType): boolean => type === 'APPROVE' || type === 'REJECT';

/** The pull request's head commit (`refs/pull/{index}/head` in the base repository); '' when it is gone. */
async function headOf(cx: ServiceContext, access: RepoAccess, pull: Models.PullRequest): Promise<string> {
  const ref = pullHeadRef(pull.index);
  return (await readRefs(gitDirOf(cx, access.repo), [ref]).catch(() => new Map<string, string>())).get(ref) ?? '';
}

/** A given `commit_id` must name a commit of the pull request (the head or one of its ancestors). @throws ValidationError */
async function requirePullCommit(gitDir: string, commitId: string, head: string): Promise<void> {
  if (!head || commitId === head) return;
  const ok = /^[0-9a-f]{4,64}$/i.test(commitId) && (await isAncestor(gitDir, commitId, head).catch(() => false));
  if (!ok) throw new ValidationError(`commit_id ${commitId} is not a commit of the pull request`, { commitId });
}

/** Gitea checkIfPRContentChanged, by trees: a verdict on an older commit is stale when the code changed since. */
async function isStale(gitDir: string, commitId: string, head: string): Promise<boolean> {
  if (!head || commitId === head) return false;
  try {
    const [a, b] = await Promise.all([readCommit(gitDir, commitId), readCommit(gitDir, head)]);
    return a.tree !== b.tree;
  } catch {
    return true;
  }
}

/** What finishing a review needs, computed before the transaction. */
interface Finish {
  viewer: Models.User;
  access: RepoAccess;
  rows: PullRows;
  type: ReviewType;
  body: string;
  commitId: string;
  stale: boolean;
  official: boolean;
}

/**
 * Gitea models SubmitReview inside `tx`: the viewer's pending review takes the type, body, commit and flags.
 * A verdict (approval or rejection) makes the viewer's earlier reviews unofficial and dismissed (only the
 * latest one counts) and withdraws review requests of teams the viewer belongs to; any submitted review
 * replaces the viewer's own review request, and gets a REVIEW timeline comment (counted in the issue's comments).
 */
async function finishReview(tx: DbTx, emit: (e: DomainEvent) => void, pending: Models.Review, f: Finish): Promise<Models.Review> {
  const { issue } = f.rows;
  const mine = { issueId: issue.id, reviewerId: f.viewer.id };
  if (isVerdict(f.type)) {
    await tx.review.updateMany({ where: mine, data: { official: false } });
    await tx.review.updateMany({
      where: { ...mine, type: { in: ['APPROVE', 'REJECT'] }, id: { not: pending.id } },
      data: { dismissed: true },
    });
  }
  if (f.type !== 'PENDING') await tx.review.deleteMany({ where: { ...mine, type: 'REQUEST' } });
  const review = await tx.review.update({
    where: { id: pending.id },
    data: { type: f.type, content: f.body, official: f.official, commitId: f.commitId, stale: f.stale },
  });
  if (f.type === 'PENDING') return review;
  const comment = await tx.comment.create({
    data: { type: 'REVIEW', posterId: f.viewer.id, issueId: issue.id, reviewId: review.id, content: f.body },
  });
  await countNewComment(tx, issue.id);
  if (isVerdict(f.type)) {
    await tx.review.deleteMany({
      where: { issueId: issue.id, type: 'REQUEST', reviewerTeam: { members: { some: { userId: f.viewer.id } } } },
    });
  }
  const state = f.type === 'APPROVE' ? 'APPROVE' : f.type === 'REJECT' ? 'REJECT' : 'COMMENT';
  if (isVerdict(f.type)) await recheckAutoMerge(tx, f.rows.pull);
  emit({
    type: 'pull.reviewed',
    reviewId: review.id,
    issueId: issue.id,
    repoId: issue.repoId,
    index: issue.index,
    state,
    commentId: comment.id,
    actorId: f.viewer.id,
  });
  return review;
}

/** The viewer's pending review of the pull request, created (empty, on `commitId`) when there is none. */
async function currentPending(tx: DbTx, issueId: number, viewerId: number, commitId: string): Promise<Models.Review> {
  const pending = await tx.review.findFirst({ where: { issueId, reviewerId: viewerId, type: 'PENDING' }, orderBy: { id: 'asc' } });
  return pending ?? tx.review.create({ data: { type: 'PENDING', reviewerId: viewerId, issueId, commitId } });
}

/**
 * Creates a review (Gitea CreatePullReview): any signed-in reader of code and pull requests may review; the
 * viewer's pending review is reused (line comments are added to it and it is submitted when an event is given).
 * APPROVED and REQUEST_CHANGES on a closed or merged pull request are refused; a verdict by a writer of the
 * base repository's code is official. Line comments are CODE comments at +new_position / −old_position with
 * the diff hunk around the line (a comment given by GitHub's diff position is placed on the line there first).
 * Validated before anything is written, so a refused review changes nothing.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function createReview(cx: ServiceContext, ref: RepoRef, index: number, input: CreateReviewInput): Promise<ReviewView> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const rows = await findPullByIndex(cx, access, index);
  const asked = input.comments ?? [];
  const body = input.body ?? '';
  const type = reviewTypeOf(rows.issue, viewer, input.event ?? '', body, asked.length > 0);
  requireText(body, 'body');
  for (const c of asked) {
    if (!c.path) throw new ValidationError('Required', { field: 'path', rule: 'Required' });
    requireText(c.path, 'path');
    requireText(c.body, 'body');
  }
  if (isVerdict(type) && rows.issue.isClosed) throw new ValidationError(CLOSED);
  const gitDir = gitDirOf(cx, access.repo);
  const head = await headOf(cx, access, rows.pull);
  const commitId = input.commitId || head;
  if (input.commitId) await requirePullCommit(gitDir, input.commitId, head);
  const [stale, official, files] = await Promise.all([
    isVerdict(type) ? isStale(gitDir, commitId, head) : false,
    isVerdict(type) ? isOfficialReviewer(cx.db, rows.pull, viewer) : false,
    asked.length && commitId ? reviewedFileDiffs(gitDir, rows.pull, commitId) : new Map<string, string>(),
  ]);
  const comments = placedByDiffPosition(asked, files);
  const patches = commentPatches(files, comments);
  const review = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const pending = await currentPending(tx, rows.issue.id, viewer.id, commitId);
      if (comments.length) {
        await insertRows(
          tx,
          'Comment',
          comments.map((c, i) => ({
            type: 'CODE' as const,
            posterId: viewer.id,
            issueId: rows.issue.id,
            reviewId: pending.id,
            treePath: c.path ?? '',
            line: (c.oldPosition ?? 0) > 0 ? -(c.oldPosition ?? 0) : (c.newPosition ?? 0),
            content: c.body ?? '',
            commitSha: commitId,
            patch: patches[i] ?? '',
          })),
        );
      }
      return finishReview(tx, emit, pending, { viewer, access, rows, type, body, commitId, stale, official });
    }),
  );
  return loadReviewView(cx.db, review, rows.issue, access.repo);
}

/**
 * Submits the viewer's pending review (Gitea SubmitPullReview): `id` must be a pending review; the event must
 * not leave it pending; it is submitted on the current head. A site admin naming someone else's pending review
 * submits their own, as in Gitea.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function submitReview(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  id: number,
  input: SubmitReviewInput,
): Promise<ReviewView> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const target = await findReview(cx, access, index, id);
  if (target.review.type !== 'PENDING') throw new ValidationError('only a pending review can be submitted');
  const hasComments = (await cx.db.comment.count({ where: { reviewId: target.review.id, type: 'CODE' } })) > 0;
  const body = input.body ?? '';
  const type = reviewTypeOf(target.issue, viewer, input.event ?? '', body, hasComments);
  if (type === 'PENDING') throw new ValidationError('review stay pending');
  requireText(body, 'body');
  if (isVerdict(type) && target.issue.isClosed) throw new ValidationError(CLOSED);
  const head = await headOf(cx, access, target.pull);
  const official = isVerdict(type) ? await isOfficialReviewer(cx.db, target.pull, viewer) : false;
  const review = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const pending = await currentPending(tx, target.issue.id, viewer.id, head);
      return finishReview(tx, emit, pending, { viewer, access, rows: target, type, body, commitId: head, stale: false, official });
    }),
  );
  return loadReviewView(cx.db, review, target.issue, access.repo);
}

/**
 * Submits the viewer's pending review of a pull request, whichever it is (GitHub's submitPullRequestReview by
 * pull request id); NotFound when the viewer has none.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, ValidationError
 */
export async function submitViewerPendingReview(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  input: SubmitReviewInput,
): Promise<ReviewView> {
  const access = await resolveReviewRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const { issue } = await findPullByIndex(cx, access, index);
  const pending = await cx.db.review.findFirst({
    where: { issueId: issue.id, reviewerId: viewer.id, type: 'PENDING' },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  if (!pending) throw new NotFoundError('review does not exist [id: 0]', { issueId: issue.id });
  return submitReview(cx, ref, index, pending.id, input);
}

/**
 * The reviews of a pull request, oldest first (Gitea ListPullReviews): requests included; pending reviews only
 * for their reviewer and site admins (dropped after paging, so `total` counts them, as Gitea's does).
 * @throws NotFoundError, PermissionDeniedError
 */
export async function listReviews(cx: ServiceContext, ref: RepoRef, index: number, page: ListOptions): Promise<Page<ReviewView>> {
  const access = await resolveReviewRepo(cx, ref, 'read');
  const rows = await findPullByIndex(cx, access, index);
  const where = { issueId: rows.issue.id };
  const [total, reviews] = await Promise.all([
    cx.db.review.count({ where }),
    cx.db.review.findMany({ where, orderBy: REVIEW_ORDER, ...skipTake(page) }),
  ]);
  const shown = reviews.filter((r) => r.type !== 'PENDING' || r.reviewerId === cx.viewer?.id || isSiteAdmin(cx));
  return { items: await loadReviewViews(cx.db, shown, rows.issue, access.repo), total };
}

/** One review of a pull request (Gitea GetPullReview). @throws NotFoundError, PermissionDeniedError */
export async function getReview(cx: ServiceContext, ref: RepoRef, index: number, id: number): Promise<ReviewView> {
  const access = await resolveReviewRepo(cx, ref, 'read');
  const target = await findReview(cx, access, index, id);
  return loadReviewView(cx.db, target.review, target.issue, access.repo);
}

/** The code comments of a review, oldest first (Gitea GetPullReviewComments). @throws NotFoundError, PermissionDeniedError */
export async function listReviewComments(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  id: number,
): Promise<{ view: ReviewView; comments: ReviewComment[] }> {
  const access = await resolveReviewRepo(cx, ref, 'read');
  const target = await findReview(cx, access, index, id);
  const [view, comments] = await Promise.all([
    loadReviewView(cx.db, target.review, target.issue, access.repo),
    cx.db.comment.findMany({
      where: { reviewId: target.review.id, type: 'CODE' },
      include: { poster: true, resolveDoer: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  return { view, comments };
}
