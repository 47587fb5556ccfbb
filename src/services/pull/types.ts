import type { Models } from '../../db/client.ts';
import type { MergeStyle } from '../../git/createMerge.ts';
import type { TeamRow } from '../access/teamAccess.ts';
import type { IssueView } from '../issue/issue.ts';
import type { RepoWithPermission } from '../repo/repoRows.ts';

/** The issue row and pull request row of one pull request. */
export interface PullRows {
  issue: Models.Issue;
  pull: Models.PullRequest;
}

/** A pull request with everything its REST and GraphQL forms need, bulk-loaded (see loadPullViews). */
export interface PullView extends IssueView {
  pull: Models.PullRequest;
  /** The base repository with the viewer's permission on it. */
  baseRepo: RepoWithPermission;
  /** The head repository; null once deleted, or when the viewer may not see it. */
  headRepo: RepoWithPermission | null;
  merger: Models.User | null;
  /** Pending review requests (Review rows of type REQUEST): users, then teams. */
  requestedReviewers: Models.User[];
  requestedTeams: TeamRow[];
  /** Code comments (Gitea review_comments). */
  reviewComments: number;
  /** The head branch's tip when it still exists; otherwise `refs/pull/{index}/head` ('' when that is gone too). */
  headSha: string;
  /** Whether the head branch still exists in the head repository (REST shows `refs/pull/N/head` otherwise). */
  headBranchExists: boolean;
  /** `refs/pull/{index}/head` in the base repository ('' when absent). */
  pullRefSha: string;
  /** The base branch's tip ('' when the branch is gone). */
  baseSha: string;
}

/** Gitea's `Do` of POST …/pulls/{index}/merge: a git merge style, or marking a merge done outside Forgegraph. */
export type MergeDo = MergeStyle | 'manually-merged';

/** POST /repos/{o}/{r}/pulls/{index}/merge (Gitea MergePullRequestForm). */
export interface MergePullInput {
  /** One of MERGE_DOS; required (422 otherwise, checked after the repository gates, as Gitea binds the form). */
  do?: string;
  /** The merge or squash commit's title; Gitea's default message when blank. */
  mergeTitleField?: string;
  /** Appended to the title after a blank line when not blank. */
  mergeMessageField?: string;
  /** `manually-merged` only: the commit of the base branch that merged the head. */
  mergeCommitId?: string;
  /** The head commit the caller reviewed; a different current head is a Conflict ("head out of date"). */
  headCommitId?: string;
  /** Overrides branch protection for admins; without branch protection it changes nothing. */
  forceMerge?: boolean;
  /** Gitea schedules the merge until the required status checks pass; without required checks it merges now. */
  mergeWhenChecksSucceed?: boolean;
  /** Deletes the head branch afterwards (when allowed); the repository's default_delete_branch_after_merge when absent. */
  deleteBranchAfterMerge?: boolean;
  /** One of the merger's activated e-mail addresses for the merge commit (GitHub's authorEmail; not in Gitea's form). */
  authorEmail?: string;
}
