import { z } from 'zod';
import { PayloadCommitVerification } from './git.ts';
import { Milestone } from './issue.ts';
import { Label } from './label.ts';
import { Repository } from './repo.ts';
import { Team } from './team.ts';
import { User } from './user.ts';
import { qBool, qInt, qRepeated, qString } from '../params.ts';
import { goName, zBool, zInt, zStringList } from '../validation.ts';

/** Gitea `PRBranchInfo`: `label` is the branch name; head `ref` is `refs/pull/N/head` once the branch is gone. */
export const PRBranchInfo = z.object({
  label: z.string(),
  ref: z.string(),
  sha: z.string(),
  repo_id: z.number().int(),
  repo: Repository.nullable(),
});
/** A Gitea PRBranchInfo as sent on the wire. */
export type PRBranchInfo = z.infer<typeof PRBranchInfo>;

/**
 * Gitea `PullRequest` (modules/structs/pull.go), fields in Gitea's order. `review_comments`, `additions`,
 * `deletions` and `changed_files` are omitempty (absent when 0 / unknown).
 */
export const PullRequest = z.object({
  id: z.number().int(),
  url: z.string(),
  number: z.number().int(),
  user: User,
  title: z.string(),
  body: z.string(),
  labels: z.array(Label),
  milestone: Milestone.nullable(),
  assignee: User.nullable(),
  assignees: z.array(User),
  requested_reviewers: z.array(User),
  requested_reviewers_teams: z.array(Team),
  state: z.enum(['open', 'closed']),
  draft: z.boolean(),
  is_locked: z.boolean(),
  comments: z.number().int(),
  review_comments: z.number().int().optional(),
  additions: z.number().int().optional(),
  deletions: z.number().int().optional(),
  changed_files: z.number().int().optional(),
  html_url: z.string(),
  diff_url: z.string(),
  patch_url: z.string(),
  mergeable: z.boolean(),
  merged: z.boolean(),
  merged_at: z.string().nullable(),
  merge_commit_sha: z.string().nullable(),
  merged_by: User.nullable(),
  allow_maintainer_edit: z.boolean(),
  base: PRBranchInfo,
  head: PRBranchInfo,
  merge_base: z.string(),
  due_date: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  closed_at: z.string().nullable(),
  pin_order: z.number().int(),
  content_version: z.number().int(),
});
/** A Gitea PullRequest as sent on the wire. */
export type PullRequest = z.infer<typeof PullRequest>;

/** Gitea `ChangedFile` (a file of GET …/pulls/{index}/files). */
export const ChangedFile = z.object({
  filename: z.string(),
  previous_filename: z.string().optional(),
  status: z.string(),
  additions: z.number().int(),
  deletions: z.number().int(),
  changes: z.number().int(),
  html_url: z.string(),
  contents_url: z.string(),
  raw_url: z.string(),
});
/** A Gitea ChangedFile as sent on the wire. */
export type ChangedFile = z.infer<typeof ChangedFile>;

/** Gitea `CommitUser`. */
export const CommitUser = z.object({ name: z.string(), email: z.string(), date: z.string() });
/** Gitea `CommitMeta`. */
export const CommitMeta = z.object({ url: z.string(), sha: z.string(), created: z.string() });
/** Gitea `RepoCommit`: the git commit of a Commit. */
export const RepoCommit = z.object({
  url: z.string(),
  author: CommitUser,
  committer: CommitUser,
  message: z.string(),
  tree: CommitMeta,
  verification: PayloadCommitVerification.nullable(),
});

/** Gitea `CommitAffectedFiles`. */
export const CommitAffectedFiles = z.object({ filename: z.string(), status: z.string() });

/** Gitea `CommitStats`. */
export const CommitStats = z.object({ total: z.number().int(), additions: z.number().int(), deletions: z.number().int() });

/** Gitea `Commit` (GET …/pulls/{index}/commits), fields in Gitea's order; `files`, `stats` and `verification` null when not asked for. */
export const Commit = z.object({
  url: z.string(),
  sha: z.string(),
  created: z.string(),
  html_url: z.string(),
  commit: RepoCommit,
  author: User.nullable(),
  committer: User.nullable(),
  parents: z.array(CommitMeta),
  files: z.array(CommitAffectedFiles).nullable(),
  stats: CommitStats.nullable(),
});
/** A Gitea Commit as sent on the wire. */
export type Commit = z.infer<typeof Commit>;

const zDateTime = z.iso.datetime({ offset: true });

/** Gitea `CreatePullRequestOption`; head, base and title are checked by the service (423 comes before 422). */
export const CreatePullRequestOption = z.object({
  head: z.string().optional(),
  base: z.string().optional(),
  title: z.string().optional(),
  body: z.string().optional(),
  assignee: z.string().optional(),
  assignees: zStringList.nullable().optional(),
  reviewers: zStringList.nullable().optional(),
  team_reviewers: goName(zStringList.nullable().optional(), 'TeamReviewers'),
  milestone: zInt.nullable().optional(),
  labels: z.array(zInt).nullable().optional(),
  due_date: goName(zDateTime.nullable().optional(), 'Deadline'),
  allow_maintainer_edit: zBool.nullable().optional(),
});

/** Query of GET /repos/{o}/{r}/pulls (page/limit are added by the list route). */
export const ListPullRequestsQuery = z.object({
  state: qString('state of pull request (anything else lists all)', { enum: ['open', 'closed', 'all'], default: 'open' }),
  sort: qString('type of sort (anything else is newest first)', {
    enum: ['oldest', 'recentupdate', 'recentclose', 'leastupdate', 'mostcomment', 'leastcomment', 'priority'],
  }),
  milestone: qInt('id of the milestone'),
  labels: qRepeated('label ids (repeat the parameter for several)', { type: 'integer', format: 'int64' }),
  poster: qString('filter by pull request author'),
  base_branch: qString('filter by target base branch of the pull request'),
});

/** Query of GET …/pulls/{index}/commits: Gitea's speed switches (absent = true). */
export const PullCommitsQuery = z.object({
  stat: qBool('include diff stats for every commit (disable for speed)', true),
  verification: qBool('include verification for every commit (disable for speed)', true),
  files: qBool('include a list of affected files for every commit (disable for speed)', true),
});

/** Query of GET …/pulls/{index}/files. */
export const PullFilesQuery = z.object({
  'skip-to': qString('skip to given file'),
  whitespace: qString('whitespace behavior', { enum: ['ignore-all', 'ignore-change', 'ignore-eol', 'show-all'] }),
});

/** Query of GET …/pulls/{index}.{diff|patch}. */
export const PullDiffQuery = z.object({
  binary: qBool('whether to include binary file changes; if true, the diff is applicable with `git apply`'),
});
