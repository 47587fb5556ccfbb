import type { Models } from '../../db/client.ts';
import { diffHunkOf } from '../../services/pull/codeCommentPatch.ts';
import type { ReviewComment } from '../../services/pull/review.ts';
import type { ReviewView } from '../../services/pull/reviewView.ts';
import type { PullReview, PullReviewComment, ReviewState } from '../structs/review.ts';
import { toApiTeam } from './team.ts';
import { apiTime } from './time.ts';
import { toApiGhostUser, toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

const STATES: Record<Models.ReviewType, ReviewState> = {
  PENDING: 'PENDING',
  APPROVE: 'APPROVED',
  COMMENT: 'COMMENT',
  REJECT: 'REQUEST_CHANGES',
  REQUEST: 'REQUEST_REVIEW',
};

/** Gitea Issue.HTMLURL of the pull request: `{ROOT}{owner}/{repo}/pulls/{index}`. */
function pullHtmlUrl(v: Pick<ReviewView, 'repo' | 'issue'>, opts: ConvertOptions): string {
  return `${opts.rootUrl}${encodeURIComponent(v.repo.ownerName)}/${encodeURIComponent(v.repo.name)}/pulls/${v.issue.index}`;
}

/**
 * Gitea convert.ToPullReview: `user` null for team requests (and migrated reviews), Ghost once the reviewer is
 * deleted; `team` without its organization; `html_url` the review's timeline comment ('' when it has none);
 * `submitted_at` the creation time.
 */
export function toApiPullReview(v: ReviewView, viewer: Viewer, opts: ConvertOptions): PullReview {
  const r = v.review;
  const pullUrl = pullHtmlUrl(v, opts);
  const orphan = r.reviewerId === null && r.reviewerTeamId === null && !r.originalAuthor;
  return {
    id: r.id,
    user: v.reviewer ? toApiUser(v.reviewer, viewer, opts) : orphan ? toApiGhostUser(opts) : null,
    team: v.team ? toApiTeam(v.team, null, opts) : null,
    state: STATES[r.type],
    body: r.content,
    commit_id: r.commitId,
    stale: r.stale,
    official: r.official,
    dismissed: r.dismissed,
    comments_count: v.commentsCount,
    submitted_at: apiTime(r.createdAt),
    updated_at: apiTime(r.updatedAt),
    html_url: v.timelineCommentId === null ? '' : `${pullUrl}#issuecomment-${v.timelineCommentId}`,
    pull_request_url: pullUrl,
  };
}

/** A list of reviews for one viewer. */
export function toApiPullReviewList(views: readonly ReviewView[], viewer: Viewer, opts: ConvertOptions): PullReview[] {
  return views.map((v) => toApiPullReview(v, viewer, opts));
}

/**
 * Gitea convert.ToPullReviewCommentList entry: `position` is the new-side line, `original_position` the old-side
 * one (the other is 0); `diff_hunk` the stored hunk from its header on; comments of a pending review link to
 * the files view.
 */
export function toApiPullReviewComment(c: ReviewComment, v: ReviewView, viewer: Viewer, opts: ConvertOptions): PullReviewComment {
  const pullUrl = pullHtmlUrl(v, opts);
  return {
    id: c.id,
    body: c.content,
    user: c.poster ? toApiUser(c.poster, viewer, opts) : toApiGhostUser(opts),
    resolver: c.resolveDoer ? toApiUser(c.resolveDoer, viewer, opts) : null,
    pull_request_review_id: v.review.id,
    created_at: apiTime(c.createdAt),
    updated_at: apiTime(c.updatedAt),
    path: c.treePath,
    commit_id: c.commitSha,
    original_commit_id: c.oldRef,
    diff_hunk: diffHunkOf(c.patch),
    position: c.line > 0 ? c.line : 0,
    original_position: c.line < 0 ? -c.line : 0,
    html_url: `${pullUrl}${v.review.type === 'PENDING' ? '/files' : ''}#issuecomment-${c.id}`,
    pull_request_url: pullUrl,
  };
}
