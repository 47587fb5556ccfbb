import type { Models } from '../../db/client.ts';
import { memoized } from '../../memo.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import { unitMode, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { UnitType } from '../../permissions/units.ts';
import { goDuration } from '../../services/goDuration.ts';
import { sshCloneUrl } from '../../ssh/settings.ts';
import type { Repository } from '../structs/repo.ts';
import { toApiTeam, type TeamSource } from './team.ts';
import { apiTime, GO_ZERO, UNIX_ZERO } from './time.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

/** The relations the converter reads, preloaded in bulk by the service. */
export interface RepoRelations {
  owner: Models.User;
  units: readonly Pick<Models.RepoUnit, 'type' | 'config'>[];
  /** The primary language row, if any. */
  languageStats: readonly { language: string }[];
  licenses: readonly { license: string }[];
  mirror: Models.Mirror | null;
  transfer: (Models.RepoTransfer & { doer: Models.User; recipient: Models.User }) | null;
  /** Published releases (not drafts, not plain tags) and live branches. */
  _count: { releases: number; branches: number };
  /** The teams of a pending transfer. */
  transferTeams?: readonly TeamSource[];
}

/** A repository row as the converter reads it; `forkOf` is the fork parent with the same relations. */
export type RepoSource = Models.Repository & RepoRelations & { forkOf?: (Models.Repository & RepoRelations) | null };

type Config = Record<string, unknown>;

/**
 * A unit configuration's text parsed once: a repository's JSON reads four or five, and the same few texts (the
 * defaults) recur in every answer (~1 µs a parse). Read only: the converter never changes them.
 */
const parseConfig = memoized(1024, (text: string): Config => {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Config) : {};
  } catch {
    return {};
  }
});

function configOf(units: RepoRelations['units'], type: UnitType): Config | null {
  const unit = units.find((u) => u.type === type);
  return unit ? parseConfig(unit.config) : null;
}

const bool = (c: Config, key: string, fallback = false): boolean => (typeof c[key] === 'boolean' ? (c[key] as boolean) : fallback);
const str = (c: Config, key: string, fallback = ''): string =>
  typeof c[key] === 'string' && c[key] !== '' ? (c[key] as string) : fallback;

function stringList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/** The original (mirror/migration) URL without credentials, as Gitea's SanitizedOriginalURL. */
function sanitizedUrl(raw: string): string {
  if (!raw) return '';
  try {
    const u = new URL(raw);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return raw;
  }
}

/** Gitea's pull-request unit settings (PullRequestsConfig.FromDB defaults; everything off without the unit but manual merge). */
function pullSettings(units: RepoRelations['units']) {
  const c = configOf(units, 'PULL_REQUESTS');
  const on = c !== null;
  const cfg = c ?? {};
  return {
    has_pull_requests: on,
    ignore_whitespace_conflicts: bool(cfg, 'ignoreWhitespaceConflicts'),
    allow_merge_commits: bool(cfg, 'allowMerge', on),
    allow_rebase: bool(cfg, 'allowRebase', on),
    allow_rebase_explicit: bool(cfg, 'allowRebaseMerge', on),
    allow_squash_merge: bool(cfg, 'allowSquash', on),
    allow_fast_forward_only_merge: bool(cfg, 'allowFastForwardOnly', on),
    allow_merge_update: bool(cfg, 'allowMergeUpdate', on),
    allow_rebase_update: bool(cfg, 'allowRebaseUpdate', on),
    allow_manual_merge: bool(cfg, 'allowManualMerge', !on),
    autodetect_manual_merge: bool(cfg, 'autodetectManualMerge'),
    default_delete_branch_after_merge: bool(cfg, 'defaultDeleteBranchAfterMerge'),
    default_merge_style: str(cfg, 'defaultMergeStyle', 'merge'),
    default_update_style: str(cfg, 'defaultUpdateStyle', 'merge'),
    default_allow_maintainer_edit: bool(cfg, 'defaultAllowMaintainerEdit', on),
    default_target_branch: str(cfg, 'defaultTargetBranch'),
  };
}

/** The owner as Gitea's ToUserWithAccessMode shows it: never private fields; e-mail only when the viewer has access. */
const ACCESSOR = { id: -1, isAdmin: false };

function convert(
  repo: Models.Repository & RepoRelations,
  owner: Models.User,
  perm: RepoPermission,
  opts: ConvertOptions,
  parent?: Repository,
): Repository {
  const o = encodeURIComponent(repo.ownerName);
  const r = encodeURIComponent(repo.name);
  const apiUrl = `${opts.rootUrl}api/v1/repos/${o}/${r}`;
  const has = (t: UnitType) => repo.units.some((u) => u.type === t);
  const issues = configOf(repo.units, 'ISSUES');
  const extIssues = issues ? null : configOf(repo.units, 'EXT_ISSUES');
  const extWiki = has('WIKI') ? null : configOf(repo.units, 'EXT_WIKI');
  const projects = configOf(repo.units, 'PROJECTS');
  const { default_target_branch: targetBranch, ...pulls } = pullSettings(repo.units);
  const code = unitMode(perm, 'CODE');
  const mirror = repo.isMirror ? repo.mirror : null;
  const transfer = repo.status === 'PENDING_TRANSFER' ? repo.transfer : null;
  return {
    id: repo.id,
    owner: toApiUser(owner, perm.mode !== 'NONE' ? ACCESSOR : null, opts),
    name: repo.name,
    full_name: `${repo.ownerName}/${repo.name}`,
    description: repo.description,
    empty: repo.isEmpty,
    private: repo.isPrivate,
    fork: repo.isFork,
    template: repo.isTemplate,
    ...(parent ? { parent } : {}),
    mirror: repo.isMirror,
    size: Number(repo.size / 1024n),
    language: repo.languageStats[0]?.language ?? '',
    languages_url: `${apiUrl}/languages`,
    html_url: `${opts.rootUrl}${o}/${r}`,
    url: apiUrl,
    link: '',
    ssh_url: sshCloneUrl(opts.ssh, repo.ownerName, repo.name),
    clone_url: `${opts.rootUrl}${o}/${r}.git`,
    original_url: sanitizedUrl(repo.originalUrl),
    website: repo.website,
    stars_count: repo.numStars,
    forks_count: repo.numForks,
    watchers_count: repo.numWatches,
    branch_count: repo._count.branches,
    open_issues_count: repo.numIssues - repo.numClosedIssues,
    open_pr_counter: repo.numPulls - repo.numClosedPulls,
    release_counter: repo._count.releases,
    default_branch: repo.defaultBranch,
    ...(targetBranch ? { default_target_branch: targetBranch } : {}),
    archived: repo.isArchived,
    created_at: apiTime(repo.createdAt),
    updated_at: apiTime(repo.updatedAt),
    archived_at: repo.archivedAt ? apiTime(repo.archivedAt) : UNIX_ZERO,
    permissions: { admin: atLeast(perm.mode, 'ADMIN'), push: atLeast(code, 'WRITE'), pull: atLeast(code, 'READ') },
    has_code: has('CODE'),
    has_issues: issues !== null || extIssues !== null,
    ...(issues
      ? {
          internal_tracker: {
            enable_time_tracker: bool(issues, 'enableTimetracker'),
            allow_only_contributors_to_track_time: bool(issues, 'allowOnlyContributorsToTrackTime'),
            enable_issue_dependencies: bool(issues, 'enableDependencies'),
          },
        }
      : {}),
    ...(extIssues
      ? {
          external_tracker: {
            external_tracker_url: str(extIssues, 'externalTrackerURL'),
            external_tracker_format: str(extIssues, 'externalTrackerFormat'),
            external_tracker_style: str(extIssues, 'externalTrackerStyle'),
            external_tracker_regexp_pattern: str(extIssues, 'externalTrackerRegexpPattern'),
          },
        }
      : {}),
    has_wiki: has('WIKI') || extWiki !== null,
    ...(extWiki ? { external_wiki: { external_wiki_url: str(extWiki, 'externalWikiURL') } } : {}),
    has_pull_requests: pulls.has_pull_requests,
    has_projects: projects !== null,
    projects_mode: str(projects ?? {}, 'projectsMode', 'all'),
    has_releases: has('RELEASES'),
    has_packages: has('PACKAGES'),
    has_actions: has('ACTIONS'),
    ignore_whitespace_conflicts: pulls.ignore_whitespace_conflicts,
    allow_merge_commits: pulls.allow_merge_commits,
    allow_rebase: pulls.allow_rebase,
    allow_rebase_explicit: pulls.allow_rebase_explicit,
    allow_squash_merge: pulls.allow_squash_merge,
    allow_fast_forward_only_merge: pulls.allow_fast_forward_only_merge,
    allow_merge_update: pulls.allow_merge_update,
    allow_rebase_update: pulls.allow_rebase_update,
    allow_manual_merge: pulls.allow_manual_merge,
    autodetect_manual_merge: pulls.autodetect_manual_merge,
    default_delete_branch_after_merge: pulls.default_delete_branch_after_merge,
    default_merge_style: pulls.default_merge_style,
    default_update_style: pulls.default_update_style,
    default_allow_maintainer_edit: pulls.default_allow_maintainer_edit,
    avatar_url: repo.avatar ? `${opts.rootUrl}repo-avatars/${encodeURIComponent(repo.avatar)}` : '',
    internal: !repo.isPrivate && owner.visibility === 'PRIVATE',
    mirror_interval: mirror ? goDuration(mirror.interval) : '',
    object_format_name: repo.objectFormatName,
    mirror_updated: mirror ? apiTime(mirror.updatedAt) : GO_ZERO,
    mirror_last_sync_at: mirror ? (mirror.lastSyncAt ? apiTime(mirror.lastSyncAt) : UNIX_ZERO) : GO_ZERO,
    ...(transfer
      ? {
          repo_transfer: {
            doer: toApiUser(transfer.doer, null, opts),
            recipient: toApiUser(transfer.recipient, null, opts),
            teams: (repo.transferTeams ?? []).map((t) => toApiTeam(t, null, opts)),
          },
        }
      : {}),
    topics: stringList(repo.topics),
    licenses: repo.licenses.map((l) => l.license),
  };
}

/**
 * Gitea convert.ToRepo for one viewer: `permissions` from the viewer's RepoPermission (admin; push/pull on
 * code), the owner without private fields, counters and unit settings from preloaded rows. A fork's parent is
 * converted one level deep with the same permission, as Gitea does. Pure: no I/O.
 */
export function toApiRepository(repo: RepoSource, owner: Models.User, perm: RepoPermission, opts: ConvertOptions): Repository {
  const parent = repo.forkOf ? convert(repo.forkOf, repo.forkOf.owner, perm, opts) : undefined;
  return convert(repo, owner, perm, opts, parent);
}

/** A list of repositories with the viewer's permission on each. */
export function toApiRepositoryList(items: readonly { repo: RepoSource; perm: RepoPermission }[], opts: ConvertOptions): Repository[] {
  return items.map(({ repo, perm }) => toApiRepository(repo, repo.owner, perm, opts));
}
