import { z } from 'zod';
import { qTime } from '../params.ts';
import { Attachment } from './attachment.ts';
import { Issue, Milestone } from './issue.ts';
import { Label } from './label.ts';
import { Team } from './team.ts';
import { TrackedTime } from './trackedTime.ts';
import { User } from './user.ts';

/** Gitea `Comment` (modules/structs/issue_comment.go), fields in Gitea's order; `assets` always an array. */
export const Comment = z.object({
  id: z.number().int(),
  html_url: z.string(),
  pull_request_url: z.string(),
  issue_url: z.string(),
  user: User,
  original_author: z.string(),
  original_author_id: z.number().int(),
  body: z.string(),
  assets: z.array(Attachment),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Comment = z.infer<typeof Comment>;

/** Gitea `TimelineComment`, fields in Gitea's order; relations null when absent. */
export const TimelineComment = z.object({
  id: z.number().int(),
  type: z.string(),
  html_url: z.string(),
  pull_request_url: z.string(),
  issue_url: z.string(),
  user: User,
  body: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  old_project_id: z.number().int(),
  project_id: z.number().int(),
  old_milestone: Milestone.nullable(),
  milestone: Milestone.nullable(),
  tracked_time: TrackedTime.nullable(),
  old_title: z.string(),
  new_title: z.string(),
  old_ref: z.string(),
  new_ref: z.string(),
  ref_issue: Issue.nullable(),
  ref_comment: Comment.nullable(),
  ref_action: z.string(),
  ref_commit_sha: z.string(),
  review_id: z.number().int(),
  label: Label.nullable(),
  assignee: User.nullable(),
  assignee_team: Team.nullable(),
  removed_assignee: z.boolean(),
  resolve_doer: User.nullable(),
  dependent_issue: Issue.nullable(),
});
export type TimelineComment = z.infer<typeof TimelineComment>;

/** Gitea `CreateIssueCommentOption`; `body` is Required, checked by the service after the archived and auth gates. */
export const CreateIssueCommentOption = z.object({ body: z.string().optional() });

/** Gitea `EditIssueCommentOption`; `body` is Required, checked by the service (same order as Gitea's bind). */
export const EditIssueCommentOption = z.object({ body: z.string().optional() });

/** Query of the comment lists and the timeline. */
export const CommentListQuery = z.object({
  since: qTime('if provided, only comments updated since the specified time are returned (RFC 3339)'),
  before: qTime('if provided, only comments updated before the provided time are returned (RFC 3339)'),
});
