import type { Models } from '../../db/client.ts';
import { NO_ROWS } from '../../db/filters.ts';
import type { AccessMode } from '../../permissions/accessMode.ts';
import { EVERY_UNIT_AUTHORITIES } from '../../permissions/teamUnits.ts';
import { ALL_UNITS, READ_ONLY_UNITS } from '../../permissions/units.ts';
import { isSiteAdmin } from './guards.ts';
import type { ServiceContext } from '../context.ts';

type Where = Models.Prisma.RepositoryWhereInput;

/** Modes that administer a repository. */
const ADMINISTERING: AccessMode[] = ['ADMIN', 'OWNER'];

/**
 * The repositories the viewer administers, as one Prisma filter: the access model's isRepoAdmin (the gate of
 * requireAdminRepo, which REST applies to what only admins read: deploy keys, branch protections) for lists and
 * node(id:). Site admins and the CLI administer everything; a signed-in viewer their own repositories, those they
 * collaborate on as admins, those of admin and owner teams they belong to, and those where a team of theirs
 * grants admin on an enabled unit; a public-only token only public repositories of public owners; anonymous
 * viewers nothing. test/services/repoVisibility.test.ts proves it equal to the loader for every viewer.
 */
export function repoAdminWhere(cx: ServiceContext): Where {
  const publicOnly: Where = cx.auth.scope?.publicOnly ? { isPrivate: false, owner: { visibility: 'PUBLIC' } } : {};
  if (isSiteAdmin(cx)) return publicOnly;
  const viewer = cx.viewer;
  if (!viewer) return NO_ROWS;
  const userId = viewer.id;
  const inTeam: Models.Prisma.TeamWhereInput = { members: { some: { userId } } };
  const everyUnitTeam: Models.Prisma.TeamWhereInput = { ...inTeam, authorize: { in: [...EVERY_UNIT_AUTHORITIES] } };
  const teamGrants = (team: Models.Prisma.TeamWhereInput): Where[] => [
    { teamRepos: { some: { team } } },
    { owner: { type: 'ORGANIZATION', orgTeams: { some: { ...team, includesAllRepositories: true } } } },
  ];
  // A team's admin grant on one unit counts while that unit is enabled (read-only units never give more than read).
  const perUnit: Where[] = ALL_UNITS.filter((type) => !READ_ONLY_UNITS.includes(type)).map((type) => ({
    units: { some: { type } },
    OR: teamGrants({ ...inTeam, units: { some: { type, accessMode: { in: ADMINISTERING } } } }),
  }));
  return {
    AND: [
      publicOnly,
      {
        OR: [
          { ownerId: userId },
          { collaborations: { some: { userId, mode: { in: ADMINISTERING } } } },
          ...teamGrants(everyUnitTeam),
          ...perUnit,
        ],
      },
    ],
  };
}
