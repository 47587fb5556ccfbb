import DataLoader from 'dataloader';
import type { Db, DbLike, DbTx, Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { repoPermissionLoader } from '../../loaders/permissionLoaders.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import { requireRepoWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { isOfficialReviewerFor } from '../protection/branchGate.ts';
import { findBranchRule } from '../protection/rule.ts';
import type { ServiceContext } from '../context.ts';
import { TEAM_INCLUDE, type TeamRow } from '../access/teamAccess.ts';
import { issueReadWhere } from '../issue/visibility.ts';
import { findPullByIndex, resolvePullRepo } from './pull.ts';
import type { PullRows } from './types.ts';
import { reviewRequestReadWhere } from './visibility.ts';
import { isDbId } from '../dbId.ts';

type Review = Models.Review;

/** A review (or review request) with what its REST and GraphQL forms need, bulk-loaded. */
export interface ReviewView {
  review: Review;
  /** Null for team requests, and once the reviewer's account is deleted. */
  reviewer: Models.User | null;
  team: TeamRow | null;
  issue: Models.Issue;
  repo: Pick<Models.Repository, 'id' | 'name' | 'ownerName'>;
  /** Code comments of the review (Gitea GetCodeCommentsCount). */
  commentsCount: number;
  /** The review's REVIEW timeline comment (its `html_url` anchor); null for pending reviews and requests. */
  timelineCommentId: number | null;
}

/** Gitea's review order: creation time, then id. */
export const REVIEW_ORDER: Models.Prisma.ReviewOrderByWithRelationInput[] = [{ createdAt: 'asc' }, { id: 'asc' }];

/** Loads the relations of many reviews of one pull request in a constant number of queries, keeping the order. */
export async function loadReviewViews(
  db: DbLike,
  reviews: readonly Review[],
  issue: Models.Issue,
  repo: ReviewView['repo'],
): Promise<ReviewView[]> {
  if (!reviews.length) return [];
  const ids = reviews.map((r) => r.id);
  const userIds = [...new Set(reviews.map((r) => r.reviewerId).filter((id): id is number => id !== null))];
  const teamIds = [...new Set(reviews.map((r) => r.reviewerTeamId).filter((id): id is number => id !== null))];
  const [users, teams, counts, timeline] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } } }) : [],
    teamIds.length ? db.team.findMany({ where: { id: { in: teamIds } }, include: TEAM_INCLUDE }) : [],
    db.comment.groupBy({ by: ['reviewId'], where: { reviewId: { in: ids }, type: 'CODE' }, _count: { _all: true } }),
    db.comment.findMany({ where: { reviewId: { in: ids }, type: 'REVIEW' }, select: { id: true, reviewId: true }, orderBy: { id: 'asc' } }),
  ]);
  const userById = new Map(users.map((u) => [u.id, u]));
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const countByReview = new Map(counts.map((c) => [c.reviewId, c._count._all]));
  const timelineByReview = new Map<number, number>();
  for (const c of timeline) if (c.reviewId !== null && !timelineByReview.has(c.reviewId)) timelineByReview.set(c.reviewId, c.id);
  return reviews.map((review) => ({
    review,
    reviewer: review.reviewerId === null ? null : (userById.get(review.reviewerId) ?? null),
    team: review.reviewerTeamId === null ? null : (teamById.get(review.reviewerTeamId) ?? null),
    issue,
    repo,
    commentsCount: countByReview.get(review.id) ?? 0,
    timelineCommentId: timelineByReview.get(review.id) ?? null,
  }));
}

/** One review with its relations. */
export async function loadReviewView(db: DbLike, review: Review, issue: Models.Issue, repo: ReviewView['repo']): Promise<ReviewView> {
  const [view] = await loadReviewViews(db, [review], issue, repo);
  if (!view) throw new NotFoundError(`review does not exist [id: ${review.id}]`, { reviewId: review.id });
  return view;
}

/**
 * The gates of the review routes (Gitea's /pulls group: token scope, repository visible, pull requests readable
 * (404), code readable (403)); writes then pass the write gate and need a signed-in viewer (reqToken, 401).
 * Gitea has no archived check on these routes.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError
 */
export async function resolveReviewRepo(cx: ServiceContext, ref: RepoRef, level: 'read' | 'write'): Promise<RepoAccess> {
  const access = await resolvePullRepo(cx, ref, 'read');
  if (level === 'write') {
    requireRepoWrite(cx, access, 'write:repository');
    requireViewer(cx);
  }
  return access;
}

/** A review of a pull request, with the pull request. */
export interface ReviewTarget extends PullRows {
  review: Review;
}

/**
 * Gitea prepareSingleReview: the pull request (404), the review by id (404), which must belong to that pull
 * request (404); someone else's pending review is 404 too, except for site admins.
 * @throws NotFoundError
 */
export async function findReview(cx: ServiceContext, access: RepoAccess, index: number, id: number): Promise<ReviewTarget> {
  const rows = await findPullByIndex(cx, access, index);
  const review = isDbId(id) ? await cx.db.review.findUnique({ where: { id } }) : null;
  if (!review || review.issueId !== rows.issue.id) throw new NotFoundError(`review does not exist [id: ${id}]`, { reviewId: id });
  if (review.type === 'PENDING' && review.reviewerId !== cx.viewer?.id && !isSiteAdmin(cx))
    throw new NotFoundError(`review does not exist [id: ${id}]`, { reviewId: id });
  return { ...rows, review };
}

/**
 * Gitea IsOfficialReviewer: the approvals whitelist of the rule protecting the base branch when it has one,
 * otherwise code write on the base repository (official reviews count towards required approvals).
 */
export async function isOfficialReviewer(
  db: Db,
  pull: Pick<Models.PullRequest, 'baseRepoId' | 'baseBranch'>,
  user: Models.User,
): Promise<boolean> {
  if (user.type === 'ORGANIZATION') return false;
  const rule = await findBranchRule(db, pull.baseRepoId, pull.baseBranch);
  return isOfficialReviewerFor(db, rule, user, await repoPermissionLoader(db, user).load(pull.baseRepoId));
}

/**
 * Gitea restoreLatestOfficialReview: the reviewer's latest approval, rejection or request becomes official
 * again (after the official one was deleted or a request withdrawn).
 */
export async function restoreLatestOfficialReview(tx: DbTx, issueId: number, reviewerId: number): Promise<void> {
  const latest = await tx.review.findFirst({
    where: { issueId, reviewerId, originalAuthorId: 0, type: { in: ['APPROVE', 'REJECT', 'REQUEST'] } },
    orderBy: { id: 'desc' },
    select: { id: true },
  });
  if (latest) await tx.review.update({ where: { id: latest.id }, data: { official: true } });
}

/** The latest approval, rejection or request of a reviewer on a pull request (Gitea GetReviewByIssueIDAndUserID). */
export function latestReviewOf(db: DbLike, issueId: number, reviewerId: number): Promise<Review | null> {
  return db.review.findFirst({
    where: { issueId, reviewerId, originalAuthorId: 0, type: { in: ['APPROVE', 'REJECT', 'REQUEST'] } },
    orderBy: { id: 'desc' },
  });
}

/** Where a review is: its pull request's repository and number, and its id. */
export interface ReviewLocation {
  ref: RepoRef;
  index: number;
  id: number;
}

/**
 * The location of a review (by id, as GraphQL names it) of a pull request the viewer may see; for any other id
 * a location the review services answer NotFound for.
 */
export async function locateReviewById(cx: ServiceContext, id: number): Promise<ReviewLocation> {
  const row = isDbId(id)
    ? await cx.db.review.findFirst({
        where: { id, issue: issueReadWhere(cx) },
        select: { id: true, issue: { select: { index: true, repo: { select: { ownerName: true, name: true } } } } },
      })
    : null;
  return row
    ? { ref: { owner: row.issue.repo.ownerName, repo: row.issue.repo.name }, index: row.issue.index, id: row.id }
    : { ref: { owner: '', repo: '' }, index: 0, id: 0 };
}

/** Per request: the readable pending review requests of many pull requests (by issue id), oldest first, in one query. */
export function reviewRequestsLoader(cx: ServiceContext): DataLoader<number, Review[]> {
  return new DataLoader(async (issueIds: readonly number[]) => {
    const rows = await cx.db.review.findMany({
      where: { AND: [{ issueId: { in: [...issueIds] } }, reviewRequestReadWhere(cx)] },
      orderBy: { id: 'asc' },
    });
    return issueIds.map((id) => rows.filter((r) => r.issueId === id));
  });
}

/** Per request: teams by id, in one query (no visibility check: callers filter what they list). */
export function teamByIdLoader(db: Db): DataLoader<number, Models.Team | null> {
  return new DataLoader(async (ids: readonly number[]) => {
    const rows = await db.team.findMany({ where: { id: { in: [...ids] } } });
    return ids.map((id) => rows.find((t) => t.id === id) ?? null);
  });
}

/** GitHub's PullRequestReviewDecision. */
export type ReviewDecision = 'APPROVED' | 'CHANGES_REQUESTED' | 'REVIEW_REQUIRED';

/**
 * Per request: the review decision of many pull requests (by issue id) in one query, from each reviewer's latest
 * official, undismissed verdict: CHANGES_REQUESTED if any asks for changes, APPROVED if any approves, else
 * REVIEW_REQUIRED.
 */
export function reviewDecisionLoader(db: Db): DataLoader<number, ReviewDecision> {
  return new DataLoader(async (issueIds: readonly number[]) => {
    const rows = await db.review.findMany({
      where: { issueId: { in: [...issueIds] }, official: true, dismissed: false, type: { in: ['APPROVE', 'REJECT'] } },
      select: { issueId: true, reviewerId: true, type: true },
      orderBy: { id: 'desc' },
    });
    return issueIds.map((issueId) => {
      const latest = new Map<number | null, Models.ReviewType>();
      for (const r of rows) if (r.issueId === issueId && !latest.has(r.reviewerId)) latest.set(r.reviewerId, r.type);
      const types = [...latest.values()];
      if (types.includes('REJECT')) return 'CHANGES_REQUESTED';
      return types.includes('APPROVE') ? 'APPROVED' : 'REVIEW_REQUIRED';
    });
  });
}
