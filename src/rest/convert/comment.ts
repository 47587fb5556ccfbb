import { toApiAttachment } from './attachment.ts';
import type { Models } from '../../db/client.ts';
import type { CommentView } from '../../services/issue/comment.ts';
import type { TimelineView } from '../../services/issue/timeline.ts';
import type { Comment, TimelineComment } from '../structs/comment.ts';
import type { User } from '../structs/user.ts';
import { toApiIssue, toApiMilestone } from './issue.ts';
import { toApiLabel } from './label.ts';
import { toApiTeam } from './team.ts';
import { apiTime } from './time.ts';
import { toApiTrackedTime } from './trackedTime.ts';
import { toApiGhostUser, toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea renders comment users with ToUser(user, nil): as an anonymous viewer would see them. */
const anonUser = (user: Models.User | null, opts: ConvertOptions): User => (user ? toApiUser(user, null, opts) : toApiGhostUser(opts));

/** `{ROOT}{o}/{r}/issues/{n}` (or `/pulls/{n}`): Gitea's Issue.HTMLURL. */
function issueHtmlUrl(v: Pick<CommentView, 'issue' | 'repo'>, opts: ConvertOptions): string {
  const path = `${encodeURIComponent(v.repo.ownerName)}/${encodeURIComponent(v.repo.name)}`;
  return `${opts.rootUrl}${path}/${v.issue.isPull ? 'pulls' : 'issues'}/${v.issue.index}`;
}

/** Gitea Comment.HTMLURL/IssueURL/PRURL: the issue's web URL with `#issuecomment-{id}` (`/files#…` for unreviewed code comments). */
function commentUrls(v: CommentView, opts: ConvertOptions): { html_url: string; pull_request_url: string; issue_url: string } {
  const issueUrl = issueHtmlUrl(v, opts);
  const hash = v.comment.type === 'CODE' && v.comment.reviewId === null ? '/files#' : '#';
  return {
    html_url: `${issueUrl}${hash}issuecomment-${v.comment.id}`,
    pull_request_url: v.issue.isPull ? issueUrl : '',
    issue_url: v.issue.isPull ? '' : issueUrl,
  };
}

/** Gitea convert.ToAPIComment. */
export function toApiComment(v: CommentView, opts: ConvertOptions): Comment {
  const c = v.comment;
  return {
    id: c.id,
    ...commentUrls(v, opts),
    user: anonUser(v.poster, opts),
    original_author: c.originalAuthor,
    original_author_id: c.originalAuthorId,
    body: c.content,
    assets: v.attachments.map((a) => toApiAttachment(a, opts)),
    created_at: apiTime(c.createdAt),
    updated_at: apiTime(c.updatedAt),
  };
}

/** A list of comments. */
export function toApiCommentList(views: readonly CommentView[], opts: ConvertOptions): Comment[] {
  return views.map((v) => toApiComment(v, opts));
}

/** Gitea CommentType.String(): the enum in lower case, except the two auto-merge types. */
function typeName(type: Models.CommentType): string {
  if (type === 'PR_SCHEDULED_TO_AUTO_MERGE') return 'pull_scheduled_merge';
  if (type === 'PR_UNSCHEDULED_TO_AUTO_MERGE') return 'pull_cancel_scheduled_merge';
  return type.toLowerCase();
}

/** Gitea util.SecToHours: "1 hour 5 minutes"; seconds only under a minute. */
export function secToHours(seconds: number): string {
  const part = (value: number, name: string) => (value === 1 ? `1 ${name} ` : value > 1 ? `${value} ${name}s ` : '');
  let out = part(Math.trunc(seconds / 3600), 'hour') + part(Math.trunc(seconds / 60) % 60, 'minute');
  if (out === '' && seconds > 0) out = part(seconds, 'second');
  return out.trimEnd();
}

/** Gitea util.TimeEstimateString: "1h 5m 3s". */
export function timeEstimateString(amount: number): string {
  const parts: string[] = [];
  let rest = amount;
  for (const [name, size] of [
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.trunc(rest / size)}${name}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}

/** Go's ToInt64 of a decimal string: 0 when it does not parse. */
const toInt = (s: string): number => (/^[-+]?\d+$/.test(s.trim()) ? Number(s.trim()) : 0);

/** The body as Gitea's ToTimelineComment shows it: time-tracking seconds rendered as text. */
function timelineBody(c: Models.Comment): string {
  const body = c.content;
  if (body === '') return body;
  if ((c.type === 'ADD_TIME_MANUAL' || c.type === 'STOP_TRACKING' || c.type === 'DELETE_TIME_MANUAL') && body.startsWith('|'))
    return secToHours(toInt(body.slice(1)));
  if (c.type === 'CHANGE_TIME_ESTIMATE') return timeEstimateString(toInt(body));
  return body;
}

/** Gitea convert.ToTimelineComment. Issues inside (ref_issue, dependent_issue, tracked_time.issue) are rendered for the viewer. */
export function toApiTimelineComment(v: TimelineView, viewer: Viewer, opts: ConvertOptions): TimelineComment {
  const c = v.comment;
  const label = v.label;
  return {
    id: c.id,
    type: typeName(c.type),
    ...commentUrls(v, opts),
    user: anonUser(v.poster, opts),
    body: timelineBody(c),
    created_at: apiTime(c.createdAt),
    updated_at: apiTime(c.updatedAt),
    old_project_id: c.oldProjectId ?? 0,
    project_id: c.projectId ?? 0,
    old_milestone: v.oldMilestone ? toApiMilestone(v.oldMilestone) : null,
    milestone: v.milestone ? toApiMilestone(v.milestone) : null,
    tracked_time: v.trackedTime ? toApiTrackedTime(v.trackedTime, viewer, opts) : null,
    old_title: c.oldTitle,
    new_title: c.newTitle,
    old_ref: c.oldRef,
    new_ref: c.newRef,
    ref_issue: v.refIssue ? toApiIssue(v.refIssue, viewer, opts) : null,
    ref_comment: v.refComment ? toApiComment(v.refComment, opts) : null,
    ref_action: c.refAction.toLowerCase(),
    ref_commit_sha: c.commitSha,
    review_id: c.reviewId ?? 0,
    label: label ? toApiLabel(label.org ? { ...label, repo: null } : label, opts.rootUrl) : null,
    assignee: v.assignee ? toApiUser(v.assignee, null, opts) : null,
    assignee_team: v.assigneeTeam ? toApiTeam(v.assigneeTeam, null, opts) : null,
    removed_assignee: c.removedAssignee,
    resolve_doer: v.resolveDoer ? toApiUser(v.resolveDoer, null, opts) : null,
    dependent_issue: v.dependentIssue ? toApiIssue(v.dependentIssue, viewer, opts) : null,
  };
}

/** A timeline page, converted for one viewer. */
export function toApiTimeline(views: readonly TimelineView[], viewer: Viewer, opts: ConvertOptions): TimelineComment[] {
  return views.map((v) => toApiTimelineComment(v, viewer, opts));
}
