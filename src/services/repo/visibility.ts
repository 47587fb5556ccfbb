import type { Models } from '../../db/client.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';

type Where = Models.Prisma.RepositoryWhereInput;

/**
 * The access model's "can see this repository" as one Prisma filter, for lists and relation paths that
 * must not check repositories one by one (GraphQL connections, searches). It mirrors computeRepoPermission:
 * - admins see everything;
 * - anonymous viewers: public repositories of public owners;
 * - signed-in viewers: their own; collaborations; repositories of teams they belong to (directly, through
 *   includes_all_repositories — the Owners team includes every repository);
 *   public repositories of owners they can see (public, limited unless restricted, or an organization
 *   they belong to); restricted viewers see public repositories only of public owners.
 * A public-only token narrows all of this to public repositories of public owners.
 */
export function visibleRepoFilter(cx: ServiceContext): Where {
  const publicOfPublic: Where = { isPrivate: false, owner: { visibility: 'PUBLIC' } };
  if (cx.auth.scope?.publicOnly) return publicOfPublic;
  if (isSiteAdmin(cx)) return {};
  const viewer = cx.viewer;
  if (!viewer) return publicOfPublic;
  const userId = viewer.id;
  const inTeam = { members: { some: { userId } } };
  const granted: Where[] = [
    { ownerId: userId },
    { collaborations: { some: { userId } } },
    { teamRepos: { some: { team: inTeam } } },
    // Teams grant only the repositories they include (the Owners team includes all of them).
    { owner: { type: 'ORGANIZATION', orgTeams: { some: { ...inTeam, includesAllRepositories: true } } } },
  ];
  const publicVisible: Where[] = viewer.isRestricted
    ? [publicOfPublic]
    : [{ isPrivate: false, owner: { OR: [{ visibility: { in: ['PUBLIC', 'LIMITED'] } }, { orgMembers: { some: { userId } } }] } }];
  return { OR: [...granted, ...publicVisible] };
}
