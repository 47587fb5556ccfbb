import { z } from 'zod';
import { Team } from './team.ts';
import { zBool } from '../validation.ts';
import { User } from './user.ts';

/** Gitea `Permission`: the viewer's access to a repository. */
export const Permission = z.object({ admin: z.boolean(), push: z.boolean(), pull: z.boolean() });

/** Gitea `InternalTracker`. */
export const InternalTracker = z.object({
  enable_time_tracker: z.boolean(),
  allow_only_contributors_to_track_time: z.boolean(),
  enable_issue_dependencies: z.boolean(),
});

/** Gitea `ExternalTracker`. */
export const ExternalTracker = z.object({
  external_tracker_url: z.string(),
  external_tracker_format: z.string(),
  external_tracker_style: z.string(),
  external_tracker_regexp_pattern: z.string(),
});

/** Gitea `ExternalWiki`. */
export const ExternalWiki = z.object({ external_wiki_url: z.string() });

/** Gitea `RepoTransfer`: a pending transfer. */
export const RepoTransfer = z.object({ doer: User, recipient: User, teams: z.array(Team) });

/**
 * Gitea `Repository` (modules/structs/repo.go), fields in Gitea's order; `parent`, `default_target_branch`,
 * `permissions`, the trackers, `external_wiki` and `repo_transfer` are omitted when empty (omitempty).
 */
export const Repository = z.object({
  id: z.number().int(),
  owner: User,
  name: z.string(),
  full_name: z.string(),
  description: z.string(),
  empty: z.boolean(),
  private: z.boolean(),
  fork: z.boolean(),
  template: z.boolean(),
  get parent() {
    return Repository.optional();
  },
  mirror: z.boolean(),
  size: z.number().int(),
  language: z.string(),
  languages_url: z.string(),
  html_url: z.string(),
  url: z.string(),
  link: z.string(),
  ssh_url: z.string(),
  clone_url: z.string(),
  original_url: z.string(),
  website: z.string(),
  stars_count: z.number().int(),
  forks_count: z.number().int(),
  watchers_count: z.number().int(),
  branch_count: z.number().int(),
  open_issues_count: z.number().int(),
  open_pr_counter: z.number().int(),
  release_counter: z.number().int(),
  default_branch: z.string(),
  default_target_branch: z.string().optional(),
  archived: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  archived_at: z.string(),
  permissions: Permission.optional(),
  has_code: z.boolean(),
  has_issues: z.boolean(),
  internal_tracker: InternalTracker.optional(),
  external_tracker: ExternalTracker.optional(),
  has_wiki: z.boolean(),
  external_wiki: ExternalWiki.optional(),
  has_pull_requests: z.boolean(),
  has_projects: z.boolean(),
  projects_mode: z.string(),
  has_releases: z.boolean(),
  has_packages: z.boolean(),
  has_actions: z.boolean(),
  ignore_whitespace_conflicts: z.boolean(),
  allow_merge_commits: z.boolean(),
  allow_rebase: z.boolean(),
  allow_rebase_explicit: z.boolean(),
  allow_squash_merge: z.boolean(),
  allow_fast_forward_only_merge: z.boolean(),
  allow_merge_update: z.boolean(),
  allow_rebase_update: z.boolean(),
  allow_manual_merge: z.boolean(),
  autodetect_manual_merge: z.boolean(),
  default_delete_branch_after_merge: z.boolean(),
  default_merge_style: z.string(),
  default_update_style: z.string(),
  default_allow_maintainer_edit: z.boolean(),
  avatar_url: z.string(),
  internal: z.boolean(),
  mirror_interval: z.string(),
  object_format_name: z.string(),
  mirror_updated: z.string(),
  mirror_last_sync_at: z.string(),
  repo_transfer: RepoTransfer.optional(),
  topics: z.array(z.string()),
  licenses: z.array(z.string()),
});
export type Repository = z.infer<typeof Repository>;

const optStr = z.string().nullish();
const optBool = z.preprocess((v) => (v === 'true' || v === 'on' ? true : v === 'false' ? false : v), z.boolean().nullish());

/** Gitea `CreateRepoOption` (binding rules AlphaDashDot, MaxSize, GitRefName are checked by the service). */
export const CreateRepoOption = z.object({
  name: z.string(),
  description: optStr,
  private: optBool,
  issue_labels: optStr,
  auto_init: optBool,
  template: optBool,
  gitignores: optStr,
  license: optStr,
  readme: optStr,
  default_branch: optStr,
  trust_model: optStr,
  object_format_name: optStr,
});
export type CreateRepoOption = z.infer<typeof CreateRepoOption>;

/** Gitea `GenerateRepoOption` (owner and name required; the name rules are checked by the service). */
export const GenerateRepoOption = z.object({
  owner: z.string(),
  name: z.string(),
  description: optStr,
  private: optBool,
  default_branch: optStr,
  git_content: optBool,
  topics: optBool,
  git_hooks: optBool,
  webhooks: optBool,
  avatar: optBool,
  labels: optBool,
  protected_branch: optBool,
});
export type GenerateRepoOption = z.infer<typeof GenerateRepoOption>;

/** Gitea `SearchResults` of GET /repos/search. */
export const SearchResults = z.object({ ok: z.boolean(), data: z.array(Repository) });

/** A Go pointer field: absent or JSON null both mean "not set". */
const opt = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);
const bool = opt(zBool);
const str = opt(z.string());

/** Gitea `EditRepoOption` (modules/structs/repo.go): every field optional; only the fields that are set change. */
export const EditRepoOption = z.object({
  name: str,
  description: opt(z.string().max(2048)),
  website: opt(z.string().max(1024)),
  private: bool,
  template: bool,
  has_issues: bool,
  internal_tracker: opt(
    z.object({
      enable_time_tracker: zBool.optional(),
      allow_only_contributors_to_track_time: zBool.optional(),
      enable_issue_dependencies: zBool.optional(),
    }),
  ),
  external_tracker: opt(
    z.object({
      external_tracker_url: z.string().optional(),
      external_tracker_format: z.string().optional(),
      external_tracker_style: z.string().optional(),
      external_tracker_regexp_pattern: z.string().optional(),
    }),
  ),
  has_wiki: bool,
  external_wiki: opt(z.object({ external_wiki_url: z.string().optional() })),
  default_branch: str,
  has_code: bool,
  has_pull_requests: bool,
  has_projects: bool,
  projects_mode: opt(z.enum(['repo', 'owner', 'all', ''])),
  has_releases: bool,
  has_packages: bool,
  has_actions: bool,
  ignore_whitespace_conflicts: bool,
  allow_merge_commits: bool,
  allow_rebase: bool,
  allow_rebase_explicit: bool,
  allow_squash_merge: bool,
  allow_fast_forward_only_merge: bool,
  allow_manual_merge: bool,
  autodetect_manual_merge: bool,
  allow_merge_update: bool,
  allow_rebase_update: bool,
  default_delete_branch_after_merge: bool,
  default_merge_style: str,
  default_update_style: str,
  default_allow_maintainer_edit: bool,
  archived: bool,
  mirror_interval: str,
  enable_prune: bool,
  mirror_username: str,
  mirror_password: str,
  mirror_token: str,
});
