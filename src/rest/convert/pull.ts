import type { Models } from '../../db/client.ts';
import type { PullView } from '../../services/pull/pull.ts';
import type { PRBranchInfo, PullRequest } from '../structs/pull.ts';
import { toApiIssue } from './issue.ts';
import { toApiRepository } from './repo.ts';
import { toApiTeam } from './team.ts';
import { apiTime } from './time.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea's default WIP prefixes (pull_request.work_in_progress_prefixes). */
const WIP_PREFIXES = ['WIP:', '[WIP]'];

/** Gitea PullRequest.IsWorkInProgress: the title starts with a WIP prefix (case-insensitive). */
export function isWorkInProgress(title: string): boolean {
  const t = title.toUpperCase();
  return WIP_PREFIXES.some((p) => t.startsWith(p));
}

/**
 * Gitea PullRequest.Mergeable: not while being checked, not with conflicts or a failed check, not a work in
 * progress (an empty or already-contained pull request is mergeable).
 */
export function isMergeable(pull: Pick<Models.PullRequest, 'status'>, title: string): boolean {
  return pull.status !== 'CHECKING' && pull.status !== 'CONFLICT' && pull.status !== 'ERROR' && !isWorkInProgress(title);
}

/** The base side: the branch name, its tip, the base repository with the viewer's permission. */
function baseInfo(v: PullView, opts: ConvertOptions): PRBranchInfo {
  const { repo, perm } = v.baseRepo;
  return { label: v.pull.baseBranch, ref: v.pull.baseBranch, sha: v.baseSha, repo_id: repo.id, repo: toApiRepository(repo, repo.owner, perm, opts) };
}

/**
 * The head side (Gitea ToAPIPullRequest): the branch when it still exists, else `refs/pull/N/head` with the
 * commit the base repository kept; `repo_id` -1 and no repository once the head repository is gone (or hidden).
 */
function headInfo(v: PullView, opts: ConvertOptions): PRBranchInfo {
  const ref = v.headBranchExists ? v.pull.headBranch : `refs/pull/${v.pull.index}/head`;
  if (!v.headRepo) return { label: v.pull.headBranch, ref: `refs/pull/${v.pull.index}/head`, sha: v.pullRefSha, repo_id: -1, repo: null };
  const { repo, perm } = v.headRepo;
  return { label: v.pull.headBranch, ref, sha: v.headSha, repo_id: repo.id, repo: toApiRepository(repo, repo.owner, perm, opts) };
}

/**
 * Gitea convert.ToAPIPullRequest. `url` and `html_url` are the HTML page; labels, assignees and review
 * requests are arrays (`[]` when none); the diff stats are omitted until computed; `review_comments` is
 * omitted when 0. Pure: every relation is preloaded by loadPullViews.
 */
export function toApiPullRequest(v: PullView, viewer: Viewer, opts: ConvertOptions): PullRequest {
  const issue = toApiIssue(v, viewer, opts);
  const { pull } = v;
  const merged = pull.hasMerged;
  return {
    id: pull.id,
    url: issue.html_url,
    number: pull.index,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    milestone: issue.milestone,
    assignee: issue.assignee,
    assignees: issue.assignees ?? [],
    requested_reviewers: v.requestedReviewers.map((u) => toApiUser(u, viewer, opts)),
    requested_reviewers_teams: v.requestedTeams.map((t) => toApiTeam(t, t.org, opts)),
    state: issue.state,
    draft: isWorkInProgress(v.issue.title),
    is_locked: issue.is_locked,
    comments: issue.comments,
    ...(v.reviewComments ? { review_comments: v.reviewComments } : {}),
    ...(pull.additions !== null ? { additions: pull.additions } : {}),
    ...(pull.deletions !== null ? { deletions: pull.deletions } : {}),
    ...(pull.changedFiles !== null ? { changed_files: pull.changedFiles } : {}),
    html_url: issue.html_url,
    diff_url: `${issue.html_url}.diff`,
    patch_url: `${issue.html_url}.patch`,
    mergeable: isMergeable(pull, v.issue.title),
    merged,
    merged_at: merged && pull.mergedAt ? apiTime(pull.mergedAt) : null,
    merge_commit_sha: merged && pull.mergedCommitId ? pull.mergedCommitId : null,
    merged_by: merged && v.merger ? toApiUser(v.merger, viewer, opts) : null,
    allow_maintainer_edit: pull.allowMaintainerEdit,
    base: baseInfo(v, opts),
    head: headInfo(v, opts),
    merge_base: pull.mergeBase,
    due_date: issue.due_date,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    pin_order: issue.pin_order,
    content_version: issue.content_version,
  };
}

/** A list of pull requests, converted for one viewer. */
export function toApiPullRequestList(views: readonly PullView[], viewer: Viewer, opts: ConvertOptions): PullRequest[] {
  return views.map((v) => toApiPullRequest(v, viewer, opts));
}
