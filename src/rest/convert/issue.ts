import { toApiAttachment } from './attachment.ts';
import type { Models } from '../../db/client.ts';
import type { IssueView } from '../../services/issue/issue.ts';
import { isWorkInProgress } from '../../services/issue/wip.ts';
import type { Issue, Milestone } from '../structs/issue.ts';
import { toApiLabel } from './label.ts';
import { toApiProject } from './project.ts';
import { apiTime } from './time.ts';
import { toApiGhostUser, toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea convert.ToAPIMilestone. */
export function toApiMilestone(m: Models.Milestone): Milestone {
  return {
    id: m.id,
    title: m.name,
    description: m.content,
    state: m.isClosed ? 'closed' : 'open',
    open_issues: m.numIssues - m.numClosedIssues,
    closed_issues: m.numClosedIssues,
    created_at: apiTime(m.createdAt),
    updated_at: apiTime(m.updatedAt),
    closed_at: m.closedAt ? apiTime(m.closedAt) : null,
    due_on: m.deadlineAt ? apiTime(m.deadlineAt) : null,
  };
}

/**
 * Gitea convert.ToAPIIssue: url `{ROOT}api/v1/repos/{o}/{r}/issues/{n}`, html_url `…/issues/{n}` or
 * `…/pulls/{n}`; labels always an array; assignees null when empty; pull_request null for issues.
 */
export function toApiIssue(v: IssueView, viewer: Viewer, opts: ConvertOptions): Issue {
  const { issue, repo } = v;
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  const htmlUrl = `${opts.rootUrl}${path}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`;
  const assignees = v.assignees.map((u) => toApiUser(u, viewer, opts));
  return {
    id: issue.id,
    url: `${opts.rootUrl}api/v1/repos/${path}/issues/${issue.index}`,
    html_url: htmlUrl,
    number: issue.index,
    user: v.poster ? toApiUser(v.poster, viewer, opts) : toApiGhostUser(opts),
    original_author: issue.originalAuthor,
    original_author_id: issue.originalAuthorId,
    title: issue.title,
    body: issue.content,
    ref: issue.ref,
    assets: v.attachments.map((a) => toApiAttachment(a, opts)),
    labels: v.labels.map((l) => toApiLabel(l.org ? { ...l, repo: null } : l, opts.rootUrl)),
    milestone: v.milestone ? toApiMilestone(v.milestone) : null,
    assignee: assignees[0] ?? null,
    assignees: assignees.length ? assignees : null,
    state: issue.isClosed ? 'closed' : 'open',
    is_locked: issue.isLocked,
    comments: issue.numComments,
    created_at: apiTime(issue.createdAt),
    updated_at: apiTime(issue.updatedAt),
    closed_at: issue.isClosed && issue.closedAt ? apiTime(issue.closedAt) : null,
    due_date: issue.deadlineAt ? apiTime(issue.deadlineAt) : null,
    time_estimate: issue.timeEstimate,
    pull_request: v.pull
      ? {
          merged: v.pull.hasMerged,
          merged_at: v.pull.mergedAt ? apiTime(v.pull.mergedAt) : null,
          draft: isWorkInProgress(issue.title),
          html_url: htmlUrl,
        }
      : null,
    repository: { id: repo.id, name: repo.name, owner: repo.ownerName, full_name: `${repo.ownerName}/${repo.name}` },
    pin_order: issue.pinOrder,
    content_version: issue.contentVersion,
    projects: v.projects.length ? v.projects.map(toApiProject) : null,
  };
}

/** A list of issues, converted for one viewer. */
export function toApiIssueList(views: readonly IssueView[], viewer: Viewer, opts: ConvertOptions): Issue[] {
  return views.map((v) => toApiIssue(v, viewer, opts));
}
