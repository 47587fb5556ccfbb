import type { Models } from '../db/client.ts';
import { atLeast, maxMode, type AccessMode } from './accessMode.ts';
import { canSeeOwner } from './ownerVisibility.ts';
import { hasEveryUnit } from './teamUnits.ts';
import { ALL_UNITS, READ_ONLY_UNITS, type UnitType } from './units.ts';

/** What the access model needs to know about a repository. */
export interface RepoFacts {
  id: number;
  ownerId: number;
  isPrivate: boolean;
  owner: Pick<Models.User, 'id' | 'type' | 'visibility'>;
  /** Units that are enabled (a disabled unit does not exist). */
  units: readonly UnitType[];
}

/** One team of the viewer, in the repository's organization, that includes the repository. */
export interface TeamGrant {
  authorize: AccessMode;
  /** Per-unit access of the team (TeamUnit rows). */
  units: Partial<Record<UnitType, AccessMode>>;
}

/** What the access model needs to know about the viewer in relation to that repository. */
export interface ViewerFacts {
  viewer: Pick<Models.User, 'id' | 'isAdmin' | 'isRestricted'> | null;
  /** The viewer belongs to the owning organization. */
  isOrgMember: boolean;
  /** Teams that grant access to this repository (directly or with includes_all_repositories). */
  teams: readonly TeamGrant[];
  /** Collaborator mode, if the viewer is a collaborator. */
  collaboration: AccessMode | null;
  /** The owner (user or organization) blocked the viewer. */
  blocked: boolean;
  /** The viewer's token is limited to public resources (Gitea `public-only`). */
  publicOnly?: boolean;
  /** The operator's CLI: site-admin rights without a viewer. */
  system?: boolean;
  /** The viewer is the `gitea-actions` user of a running task (see actionsTaskPermission). */
  actionsTask?: { repoId: number; isForkPullRequest: boolean } | undefined;
  /** A deploy key signed in (no viewer): its mode on this repository, NONE where it was not added (see deployKeyPermission). */
  deployKey?: AccessMode | undefined;
}

/** The viewer's access to one repository: a mode per enabled unit (Gitea's access_model.Permission). */
export interface RepoPermission {
  /** The overall mode (the highest unit mode, or owner/admin for owners and admins). */
  mode: AccessMode;
  units: Partial<Record<UnitType, AccessMode>>;
  /** The viewer is blocked by the owner: reads are allowed, interactions are not. */
  blocked: boolean;
}

const NONE: RepoPermission = { mode: 'NONE', units: {}, blocked: false };

function everyUnit(units: readonly UnitType[], mode: AccessMode): Partial<Record<UnitType, AccessMode>> {
  const out: Partial<Record<UnitType, AccessMode>> = {};
  for (const u of units) out[u] = READ_ONLY_UNITS.includes(u) && atLeast(mode, 'READ') ? 'READ' : mode;
  return out;
}

function uniform(units: readonly UnitType[], mode: AccessMode, blocked: boolean): RepoPermission {
  return { mode, units: everyUnit(units, mode), blocked };
}

/**
 * Gitea's GetIndividualUserRepoPermission as a pure function.
 * - a public-only token reaches only public repositories of public owners (nothing else, site admins included);
 * - site admin (and the operator's CLI): owner on everything; the owning user, and any team with admin/owner authority: owner;
 * - the owner must be visible to the viewer (public; limited → signed-in; private → members), unless
 *   the viewer is a collaborator;
 * - public repositories give read to anyone who can see the owner (restricted users only when the
 *   owner is public too); private ones give nothing by default;
 * - per unit: max(collaborator mode, that minimum, each team's unit mode);
 * - disabled units are absent.
 */
export function computeRepoPermission(repo: RepoFacts, v: ViewerFacts): RepoPermission {
  if (v.actionsTask) return actionsTaskPermission(repo, v.actionsTask);
  if (v.deployKey) return deployKeyPermission(repo, v.deployKey);
  const viewer = v.viewer;
  if (v.publicOnly && (repo.isPrivate || repo.owner.visibility !== 'PUBLIC')) return NONE;
  if (v.system) return uniform(repo.units, 'OWNER', false);
  if (!viewer) {
    if (repo.isPrivate || repo.owner.visibility !== 'PUBLIC') return NONE;
    return uniform(repo.units, 'READ', false);
  }
  if (viewer.isAdmin) return uniform(repo.units, 'OWNER', false);
  if (repo.ownerId === viewer.id) return uniform(repo.units, 'OWNER', false);

  const ownerVisible = canSeeOwner(viewer, repo.owner, v.isOrgMember);
  if (!ownerVisible && !v.collaboration) return NONE;

  if (repo.owner.type === 'ORGANIZATION' && v.teams.some((t) => hasEveryUnit(t.authorize))) {
    return uniform(repo.units, 'OWNER', v.blocked);
  }

  let minimum: AccessMode = 'NONE';
  if (!repo.isPrivate) {
    // Gitea accessLevel: restricted users read only "fully public" repositories (public owner too);
    // organization membership alone gives them nothing — only their teams' grants.
    const fullyPublic = repo.owner.visibility === 'PUBLIC';
    if (!viewer.isRestricted || fullyPublic) minimum = 'READ';
  }
  const base = v.collaboration ? maxMode(v.collaboration, minimum) : minimum;
  const units: Partial<Record<UnitType, AccessMode>> = {};
  let mode: AccessMode = 'NONE';
  for (const unit of repo.units) {
    let m = base;
    for (const team of v.teams) m = maxMode(m, team.units[unit] ?? 'NONE');
    if (READ_ONLY_UNITS.includes(unit) && atLeast(m, 'READ')) m = 'READ';
    units[unit] = m;
    mode = maxMode(mode, m);
  }
  return { mode: maxMode(mode, base), units, blocked: v.blocked };
}

/**
 * Gitea's GetActionsUserRepoPermission for a running task's token (with the default, permissive token settings):
 * write on every unit of the task's repository (read for a fork's pull request); elsewhere what anyone may read.
 */
function actionsTaskPermission(repo: RepoFacts, task: NonNullable<ViewerFacts['actionsTask']>): RepoPermission {
  if (repo.id !== task.repoId)
    return computeRepoPermission(repo, { viewer: null, isOrgMember: false, teams: [], collaboration: null, blocked: false });
  return uniform(repo.units, task.isForkPullRequest ? 'READ' : 'WRITE', false);
}

/**
 * A deploy key (Gitea's serv): the code of the repositories it was added to, read-only or read-write; nothing
 * else, and nothing elsewhere (public repositories included).
 */
function deployKeyPermission(repo: RepoFacts, mode: AccessMode): RepoPermission {
  if (mode === 'NONE' || !repo.units.includes('CODE')) return NONE;
  return { mode, units: { CODE: mode }, blocked: false };
}

/** The mode on one unit (none when the unit is disabled). */
export function unitMode(perm: RepoPermission, unit: UnitType): AccessMode {
  return perm.units[unit] ?? 'NONE';
}

/** True when the viewer can read the unit. */
export function canRead(perm: RepoPermission, unit: UnitType): boolean {
  return atLeast(unitMode(perm, unit), 'READ');
}

/** True when the viewer can write the unit (blocked users cannot). */
export function canWrite(perm: RepoPermission, unit: UnitType): boolean {
  return !perm.blocked && atLeast(unitMode(perm, unit), 'WRITE');
}

/** True when the viewer can see the repository at all (any unit readable). */
export function canReadAny(perm: RepoPermission): boolean {
  return ALL_UNITS.some((u) => canRead(perm, u)) || atLeast(perm.mode, 'READ');
}

/** Repository admin (settings, collaborators, hooks, keys): admin or owner mode. */
export function isRepoAdmin(perm: RepoPermission): boolean {
  return atLeast(perm.mode, 'ADMIN');
}
