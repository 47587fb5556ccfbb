import { z } from 'zod';
import { Team } from './team.ts';
import { User } from './user.ts';
import { zBool, zInt } from '../validation.ts';

/** Gitea `ReviewStateType` as a review shows it. */
export const ReviewState = z.enum(['APPROVED', 'PENDING', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW']);
export type ReviewState = z.infer<typeof ReviewState>;

/** Gitea `PullReview` (modules/structs/pull_review.go), fields in Gitea's order; `user` null for team requests, `team` null otherwise. */
export const PullReview = z.object({
  id: z.number().int(),
  user: User.nullable(),
  team: Team.nullable(),
  state: ReviewState,
  body: z.string(),
  commit_id: z.string(),
  stale: z.boolean(),
  official: z.boolean(),
  dismissed: z.boolean(),
  comments_count: z.number().int(),
  submitted_at: z.string(),
  updated_at: z.string(),
  html_url: z.string(),
  pull_request_url: z.string(),
});
export type PullReview = z.infer<typeof PullReview>;

/** Gitea `PullReviewComment`, fields in Gitea's order; `position` is the new-side line, `original_position` the old-side one. */
export const PullReviewComment = z.object({
  id: z.number().int(),
  body: z.string(),
  user: User.nullable(),
  resolver: User.nullable(),
  pull_request_review_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  path: z.string(),
  commit_id: z.string(),
  original_commit_id: z.string(),
  diff_hunk: z.string(),
  position: z.number().int(),
  original_position: z.number().int(),
  html_url: z.string(),
  pull_request_url: z.string(),
});
export type PullReviewComment = z.infer<typeof PullReviewComment>;

// Go's JSON binding reads `null` as the zero value; so do these.
const str = z.string().nullish();
const int = zInt.nullish();

/** Gitea `CreatePullReviewComment`: `old_position > 0` comments the old side at that line, else `new_position` the new side. */
export const CreatePullReviewComment = z.object({ path: str, body: str, old_position: int, new_position: int });

/** Gitea `CreatePullReviewOptions`; an unknown or empty `event` makes a pending review (the service decides). */
export const CreatePullReviewOptions = z.object({
  event: str,
  body: str,
  commit_id: str,
  comments: z.array(CreatePullReviewComment).nullish(),
});

/** Gitea `SubmitPullReviewOptions`. */
export const SubmitPullReviewOptions = z.object({ event: str, body: str });

/** Gitea `DismissPullReviewOptions`: `priors` also dismisses the reviewer's earlier reviews. */
export const DismissPullReviewOptions = z.object({ message: str, priors: zBool.nullish() });

/** Gitea `PullReviewRequestOptions`: user names (or e-mail addresses, when they contain `@`) and team names. */
export const PullReviewRequestOptions = z.object({
  reviewers: z.array(z.string()).nullish(),
  team_reviewers: z.array(z.string()).nullish(),
});

/** Gitea `CreatePullReviewCommentReplyOptions`: the reply's text. */
export const CreatePullReviewCommentReplyOptions = z.object({ body: str });
