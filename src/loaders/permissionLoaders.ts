import DataLoader from 'dataloader';
import type { Db, DbLike, Models } from '../db/client.ts';
import { readRows } from '../db/readPath.ts';
import type { AccessMode } from '../permissions/accessMode.ts';
import { computeRepoPermission, type RepoPermission, type TeamGrant, type ViewerFacts } from '../permissions/repoPermission.ts';
import { groupBy } from '../groupBy.ts';

type Viewer = Models.User | null;

/** The viewer's standing in an organization. */
export interface OrgStanding {
  isMember: boolean;
  /** Member of a team with owner authority (the Owners team). */
  isOwner: boolean;
  /** Ids of the viewer's teams in the organization. */
  teamIds: number[];
}

const OUTSIDER: OrgStanding = { isMember: false, isOwner: false, teamIds: [] };

/** Batches the viewer's organization standing for many organizations: two queries per batch. */
export function orgStandingLoader(db: Db, viewer: Viewer): DataLoader<number, OrgStanding> {
  return new DataLoader(async (orgIds: readonly number[]) => {
    if (!viewer) return orgIds.map(() => OUTSIDER);
    const ids = [...orgIds];
    const [members, teams] = await Promise.all([
      db.orgUser.findMany({ where: { userId: viewer.id, orgId: { in: ids } }, select: { orgId: true } }),
      db.teamUser.findMany({
        where: { userId: viewer.id, orgId: { in: ids } },
        select: { orgId: true, teamId: true, team: { select: { authorize: true } } },
      }),
    ]);
    const memberOf = new Set(members.map((m) => m.orgId));
    return ids.map((orgId) => {
      const mine = teams.filter((t) => t.orgId === orgId);
      return {
        isMember: memberOf.has(orgId),
        isOwner: mine.some((t) => t.team.authorize === 'OWNER'),
        teamIds: mine.map((t) => t.teamId),
      };
    });
  });
}

/** How the viewer reaches the repositories, beyond who they are (see ViewerFacts). */
export interface ReachFacts {
  publicOnly?: boolean;
  system?: boolean;
  /** A running task's token: its grant replaces the viewer's memberships (the `gitea-actions` user has none). */
  actionsTask?: { repoId: number; isForkPullRequest: boolean } | undefined;
  /** A deploy key (its PublicKey id) signed in without a viewer: its DeployKey rows grant access. */
  deployKeyId?: number | undefined;
}

/** What the access model needs of a repository (loadRepoFacts, or a row that holds as much). */
export interface RepoFacts {
  id: number;
  ownerId: number;
  isPrivate: boolean;
  owner: { id: number; type: Models.UserType; visibility: Models.Visibility };
  units: { type: Models.RepoUnitType }[];
}

type FactsRow = Pick<Models.Repository, 'id' | 'ownerId' | 'isPrivate'> & {
  ownerType: Models.UserType;
  ownerVisibility: Models.Visibility;
};

/**
 * The access facts of repositories by id, on the read path: two statements whatever their number (the
 * repositories joined to their owners, then their units). Missing ids are left out.
 */
export async function loadRepoFacts(db: DbLike, ids: readonly number[]): Promise<RepoFacts[]> {
  if (!ids.length) return [];
  const [rows, units] = await Promise.all([
    readRows<'Repository', FactsRow>(
      db,
      'Repository',
      `SELECT r."id", r."ownerId", r."isPrivate", o."type" AS "ownerType", o."visibility" AS "ownerVisibility"
        FROM "Repository" r JOIN "User" o ON o."id" = r."ownerId" WHERE r."id" IN (?)`,
      [[...ids]],
    ),
    readRows<'RepoUnit', Pick<Models.RepoUnit, 'repoId' | 'type'>>(
      db,
      'RepoUnit',
      'SELECT "repoId", "type" FROM "RepoUnit" WHERE "repoId" IN (?)',
      [[...ids]],
    ),
  ]);
  const unitsOf = groupBy(
    units,
    (u) => u.repoId,
    (u) => ({ type: u.type }),
  );
  return rows.map((r) => repoFactsOf(r, unitsOf.get(r.id) ?? []));
}

/** RepoFacts from a repository row read with its owner's type and visibility (`ownerType`, `ownerVisibility`) and its units. */
export function repoFactsOf(row: FactsRow, units: { type: Models.RepoUnitType }[]): RepoFacts {
  return {
    id: row.id,
    ownerId: row.ownerId,
    isPrivate: row.isPrivate,
    owner: { id: row.ownerId, type: row.ownerType, visibility: row.ownerVisibility },
    units,
  };
}

/**
 * Whether the viewer's permission on `repo` depends on rows beyond its facts: the viewer's collaboration,
 * organization membership, teams and blocks. Not for anonymous viewers, site admins, the operator, a running task's
 * token or the repository's owner (nobody blocks themselves; the owner is admin). A deploy key's grant is a row too.
 */
function needsViewerRows(viewer: Viewer, reach: ReachFacts, repo: Pick<RepoFacts, 'ownerId'>): boolean {
  return viewer !== null && !viewer.isAdmin && !reach.system && !reach.actionsTask && repo.ownerId !== viewer.id;
}

/** The rows of a viewer that grant nothing. */
const NO_GRANTS = { isOrgMember: false, teams: [], collaboration: null, blocked: false } as const;

/** The access model's permission for `repo`, given what the viewer's rows grant on it. */
function permissionOf(
  repo: RepoFacts,
  viewer: Viewer,
  reach: Omit<ReachFacts, 'deployKeyId'>,
  grants: Pick<ViewerFacts, 'isOrgMember' | 'teams' | 'collaboration' | 'blocked' | 'deployKey'>,
): RepoPermission {
  const facts = { id: repo.id, ownerId: repo.ownerId, isPrivate: repo.isPrivate, owner: repo.owner, units: repo.units.map((u) => u.type) };
  return computeRepoPermission(facts, { viewer, ...grants, ...reach });
}

/**
 * The viewer's permission on a repository whose facts decide it alone (no row of the viewer's or of a deploy key's
 * could change it, see needsViewerRows), as repoPermissionLoader would load it; null when rows must be read.
 */
export function permissionFromFacts(viewer: Viewer, reach: ReachFacts, repo: RepoFacts): RepoPermission | null {
  const { deployKeyId, ...viewerReach } = reach;
  if (deployKeyId !== undefined || needsViewerRows(viewer, reach, repo)) return null;
  return permissionOf(repo, viewer, viewerReach, NO_GRANTS);
}

/**
 * Batches RepoPermission for many repositories: a fixed number of queries per batch (repositories with
 * owners and units, unless primed in `known`; the viewer's collaborations, org memberships, team grants and
 * blocks, for repositories the viewer does not own), then the pure access model. Missing repositories get no
 * access.
 */
export function repoPermissionLoader(
  db: Db,
  viewer: Viewer,
  reach: ReachFacts = {},
  known: Map<number, RepoFacts> = new Map(),
): DataLoader<number, RepoPermission> {
  const { deployKeyId, ...viewerReach } = reach;
  return new DataLoader(async (repoIds: readonly number[]) => {
    const ids = [...repoIds];
    const missing = ids.filter((id) => !known.has(id));
    const loaded = await loadRepoFacts(db, missing);
    // Primed facts serve one load: after `repoPermission.clear(id)` (a write changed the repository) it reloads.
    const repos: RepoFacts[] = [];
    for (const id of ids) {
      const primed = known.get(id);
      if (!primed) continue;
      repos.push(primed);
      known.delete(id);
    }
    repos.push(...loaded);
    const byId = new Map(repos.map((r) => [r.id, r]));
    const orgIds = [...new Set(repos.filter((r) => r.owner.type === 'ORGANIZATION').map((r) => r.ownerId))];
    const foreign = repos.filter((r) => needsViewerRows(viewer, reach, r));
    const foreignIds = foreign.map((r) => r.id);
    const ownerIds = [...new Set(foreign.map((r) => r.ownerId))];
    const needsFacts = viewer !== null && foreign.length > 0;
    const [collabs, members, teamUsers, blocks] = needsFacts
      ? await Promise.all([
          readRows<'Collaboration', Pick<Models.Collaboration, 'repoId' | 'mode'>>(
            db,
            'Collaboration',
            'SELECT "repoId", "mode" FROM "Collaboration" WHERE "userId" = ? AND "repoId" IN (?)',
            [viewer.id, foreignIds],
          ),
          orgIds.length
            ? readRows<'OrgUser', Pick<Models.OrgUser, 'orgId'>>(
                db,
                'OrgUser',
                'SELECT "orgId" FROM "OrgUser" WHERE "userId" = ? AND "orgId" IN (?)',
                [viewer.id, orgIds],
              )
            : [],
          orgIds.length
            ? db.teamUser.findMany({
                where: { userId: viewer.id, orgId: { in: orgIds } },
                select: {
                  orgId: true,
                  team: {
                    select: {
                      authorize: true,
                      includesAllRepositories: true,
                      units: { select: { type: true, accessMode: true } },
                      repos: { where: { repoId: { in: foreignIds } }, select: { repoId: true } },
                    },
                  },
                },
              })
            : [],
          readRows<'Block', Pick<Models.Block, 'blockerId'>>(
            db,
            'Block',
            'SELECT "blockerId" FROM "Block" WHERE "blockeeId" = ? AND "blockerId" IN (?)',
            [viewer.id, ownerIds],
          ),
        ])
      : [[], [], [], []];
    const deployGrants =
      deployKeyId === undefined
        ? null
        : await db.deployKey.findMany({ where: { keyId: deployKeyId, repoId: { in: ids } }, select: { repoId: true, mode: true } });
    const deployModeByRepo = new Map(deployGrants?.map((g) => [g.repoId, g.mode]));
    const collabByRepo = new Map(collabs.map((c) => [c.repoId, c.mode as AccessMode]));
    const memberOf = new Set(members.map((m) => m.orgId));
    const blockedBy = new Set(blocks.map((b) => b.blockerId));
    return ids.map((id) => {
      const repo = byId.get(id);
      if (!repo) return { mode: 'NONE', units: {}, blocked: false } satisfies RepoPermission;
      const teams: TeamGrant[] = teamUsers
        .filter((tu) => tu.orgId === repo.ownerId && (tu.team.includesAllRepositories || tu.team.repos.some((r) => r.repoId === id)))
        .map((tu) => ({ authorize: tu.team.authorize, units: Object.fromEntries(tu.team.units.map((u) => [u.type, u.accessMode])) }));
      return permissionOf(repo, viewer, viewerReach, {
        isOrgMember: memberOf.has(repo.ownerId),
        teams,
        collaboration: collabByRepo.get(id) ?? null,
        blocked: blockedBy.has(repo.ownerId),
        ...(deployGrants ? { deployKey: deployModeByRepo.get(id) ?? 'NONE' } : {}),
      });
    });
  });
}
