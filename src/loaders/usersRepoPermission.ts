// The permission of many users on one repository, in a fixed number of queries (notification fan-out).
import type { DbLike, Models } from '../db/client.ts';
import { readRows } from '../db/readPath.ts';
import type { AccessMode } from '../permissions/accessMode.ts';
import { computeRepoPermission, type RepoPermission, type TeamGrant } from '../permissions/repoPermission.ts';
import { loadRepoFacts, type RepoFacts } from './permissionLoaders.ts';
import { groupBy } from '../groupBy.ts';

/**
 * The access model (computeRepoPermission, the same rule the per-request loader applies to one viewer) for each
 * of `userIds` on a repository, given by id or by the access facts the request already read (RepoAccess.facts,
 * which saves reading them again): five queries whatever the number of users (the users, their collaborations,
 * organization memberships, team grants and blocks), four when the caller has the users' rows (`knownUsers`), all
 * but the team grants on the read path (src/db/readPath.ts).
 * Unknown users are left out.
 */
export async function usersRepoPermissions(
  db: DbLike,
  repoOrFacts: number | RepoFacts,
  userIds: readonly number[],
  knownUsers: readonly Pick<Models.User, 'id' | 'isAdmin' | 'isRestricted'>[] = [],
): Promise<Map<number, RepoPermission>> {
  const out = new Map<number, RepoPermission>();
  if (!userIds.length) return out;
  const repo = typeof repoOrFacts === 'number' ? (await loadRepoFacts(db, [repoOrFacts]))[0] : repoOrFacts;
  if (!repo) return out;
  const repoId = repo.id;
  const ids = [...new Set(userIds)];
  const isOrg = repo.owner.type === 'ORGANIZATION';
  const [users, collabs, members, teamUsers, blocks] = await Promise.all([
    ids.every((id) => knownUsers.some((u) => u.id === id))
      ? knownUsers.filter((u) => ids.includes(u.id))
      : readRows<'User', Pick<Models.User, 'id' | 'isAdmin' | 'isRestricted'>>(
          db,
          'User',
          'SELECT "id", "isAdmin", "isRestricted" FROM "User" WHERE "id" IN (?)',
          [ids],
        ),
    readRows<'Collaboration', Pick<Models.Collaboration, 'userId' | 'mode'>>(
      db,
      'Collaboration',
      'SELECT "userId", "mode" FROM "Collaboration" WHERE "repoId" = ? AND "userId" IN (?)',
      [repoId, ids],
    ),
    isOrg
      ? readRows<'OrgUser', Pick<Models.OrgUser, 'userId'>>(
          db,
          'OrgUser',
          'SELECT "userId" FROM "OrgUser" WHERE "orgId" = ? AND "userId" IN (?)',
          [repo.ownerId, ids],
        )
      : [],
    isOrg
      ? db.teamUser.findMany({
          where: {
            orgId: repo.ownerId,
            userId: { in: ids },
            team: { OR: [{ includesAllRepositories: true }, { repos: { some: { repoId } } }] },
          },
          select: { userId: true, team: { select: { authorize: true, units: { select: { type: true, accessMode: true } } } } },
        })
      : [],
    readRows<'Block', Pick<Models.Block, 'blockeeId'>>(
      db,
      'Block',
      'SELECT "blockeeId" FROM "Block" WHERE "blockerId" = ? AND "blockeeId" IN (?)',
      [repo.ownerId, ids],
    ),
  ]);
  const collabOf = new Map(collabs.map((c) => [c.userId, c.mode as AccessMode]));
  const memberOf = new Set(members.map((m) => m.userId));
  const blocked = new Set(blocks.map((b) => b.blockeeId));
  const teamsOf = groupBy(
    teamUsers,
    (tu) => tu.userId,
    (tu): TeamGrant => ({ authorize: tu.team.authorize, units: Object.fromEntries(tu.team.units.map((u) => [u.type, u.accessMode])) }),
  );
  const facts = { id: repo.id, ownerId: repo.ownerId, isPrivate: repo.isPrivate, owner: repo.owner, units: repo.units.map((u) => u.type) };
  for (const user of users) {
    out.set(
      user.id,
      computeRepoPermission(facts, {
        viewer: user,
        isOrgMember: memberOf.has(user.id),
        teams: teamsOf.get(user.id) ?? [],
        collaboration: collabOf.get(user.id) ?? null,
        blocked: blocked.has(user.id),
      }),
    );
  }
  return out;
}
