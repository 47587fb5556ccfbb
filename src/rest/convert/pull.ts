import type { Models } from '../../db/client.ts';
import { toApiVerification } from './verification.ts';
import type { DiffFile } from '../../git/compare.ts';
import type { PullCommitView } from '../../services/pull/compare.ts';
import { isWorkInProgress } from '../../services/issue/wip.ts';
import type { PullView } from '../../services/pull/types.ts';
import type { ChangedFile, Commit, PRBranchInfo, PullRequest } from '../structs/pull.ts';
import { pathEscapeSegments } from './git.ts';
import { toApiIssue } from './issue.ts';
import { toApiRepository } from './repo.ts';
import { toApiTeam } from './team.ts';
import { apiTime, GO_ZERO } from './time.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

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
  return {
    label: v.pull.baseBranch,
    ref: v.pull.baseBranch,
    sha: v.baseSha,
    repo_id: repo.id,
    repo: toApiRepository(repo, repo.owner, perm, opts),
  };
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

/** Gitea ToChangedFile: `changed` for modifications, `unchanged` when no line moved, URLs at the head commit. */
export function toApiChangedFile(
  f: DiffFile,
  repo: Pick<Models.Repository, 'ownerName' | 'name'>,
  head: string,
  opts: ConvertOptions,
): ChangedFile {
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  let status: string = f.status;
  if (f.status === 'modified') status = f.additions === 0 && f.deletions === 0 ? 'unchanged' : 'changed';
  const escaped = pathEscapeSegments(f.filename);
  return {
    filename: f.filename,
    ...(f.status === 'renamed' && f.previousFilename ? { previous_filename: f.previousFilename } : {}),
    status,
    additions: f.additions,
    deletions: f.deletions,
    changes: f.additions + f.deletions,
    html_url: `${opts.rootUrl}${path}/src/commit/${head}/${escaped}`,
    contents_url: `${opts.rootUrl}api/v1/repos/${path}/contents/${escaped}?ref=${head}`,
    raw_url: `${opts.rootUrl}${path}/raw/commit/${head}/${escaped}`,
  };
}

/** Gitea ParseCommitFileStatus: added, removed or modified (a rename is its new path added, its old one removed). */
function affectedFiles(files: readonly DiffFile[]): Array<{ filename: string; status: string }> {
  return files.flatMap((f) => {
    if (f.status === 'deleted') return [{ filename: f.filename, status: 'removed' }];
    if (f.status === 'modified') return [{ filename: f.filename, status: 'modified' }];
    const added = { filename: f.filename, status: 'added' };
    return f.status === 'renamed' && f.previousFilename ? [added, { filename: f.previousFilename, status: 'removed' }] : [added];
  });
}

/**
 * Gitea convert.ToCommit for a pull request's commit list: URLs in the base repository, `author`/`committer`
 * the users matching the e-mails, `parents` by id, `files` and `stats` from the per-commit diff when asked
 * (null otherwise), `verification` when asked.
 */
export function toApiCommit(
  c: PullCommitView,
  repo: Pick<Models.Repository, 'ownerName' | 'name'>,
  viewer: Viewer,
  opts: ConvertOptions & { verification: boolean; stat: boolean; files: boolean },
): Commit {
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  const api = `${opts.rootUrl}api/v1/repos/${path}`;
  const { commit } = c;
  const created = commit.committer.when;
  let additions = 0;
  let deletions = 0;
  for (const f of c.files ?? []) {
    additions += f.additions;
    deletions += f.deletions;
  }
  return {
    url: `${api}/git/commits/${commit.sha}`,
    sha: commit.sha,
    created,
    html_url: `${opts.rootUrl}${path}/commit/${commit.sha}`,
    commit: {
      url: `${api}/git/commits/${commit.sha}`,
      author: { name: commit.author.name, email: commit.author.email, date: commit.author.when },
      committer: { name: commit.committer.name, email: commit.committer.email, date: commit.committer.when },
      message: commit.message,
      tree: { url: `${api}/git/trees/${commit.sha}`, sha: commit.sha, created },
      verification: opts.verification ? toApiVerification(c.verification) : null,
    },
    author: c.author ? toApiUser(c.author, viewer, opts) : null,
    committer: c.committer ? toApiUser(c.committer, viewer, opts) : null,
    parents: commit.parents.map((sha) => ({ url: `${api}/git/commits/${sha}`, sha, created: GO_ZERO })),
    files: opts.files && c.files ? affectedFiles(c.files) : null,
    stats: opts.stat && c.files ? { total: additions + deletions, additions, deletions } : null,
  };
}
