import type { Models } from '../../db/client.ts';
import { NO_ROWS } from '../../db/filters.ts';
import type { AccessMode } from '../../permissions/accessMode.ts';
import { canRead, canReadAny } from '../../permissions/repoPermission.ts';
import { EVERY_UNIT_AUTHORITIES } from '../../permissions/teamUnits.ts';
import { ALL_UNITS, type UnitType } from '../../permissions/units.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';

type Where = Models.Prisma.RepositoryWhereInput;

/** Modes that read (a team unit or a collaboration of mode NONE grants nothing). */
const READING: AccessMode[] = ['READ', 'WRITE', 'ADMIN', 'OWNER'];

/**
 * The read policy of repositories: the access model's "can read" (computeRepoPermission, which REST applies
 * through the permission loader) as one Prisma filter, for lists, relations, counts and node(id:). Without
 * `units`: repositories the viewer can see at all; with `units`: those where the viewer can read at least one
 * of these units (a disabled unit does not exist).
 * - a public-only token, and anonymous viewers: public repositories of public owners;
 * - site admins (and the CLI): everything;
 * - signed-in viewers: public repositories of owners they can see (restricted viewers: of public owners only),
 *   their own, their collaborations, every unit through admin and owner teams, and through other teams the
 *   units those teams grant, on repositories the team includes (directly or with includes_all_repositories).
 * test/services/repoVisibility.test.ts proves it equal to the loader for every viewer, repository and unit.
 */
export function repoReadWhere(cx: ServiceContext, units?: readonly UnitType[]): Where {
  const enabled: Where = units ? { units: { some: { type: { in: [...units] } } } } : {};
  const publicOfPublic: Where = { isPrivate: false, owner: { visibility: 'PUBLIC' } };
  if (cx.auth.scope?.publicOnly) return { AND: [publicOfPublic, enabled] };
  if (isSiteAdmin(cx)) return enabled;
  const viewer = cx.viewer;
  if (!viewer) return { AND: [publicOfPublic, enabled] };
  const userId = viewer.id;
  const inTeam: Models.Prisma.TeamWhereInput = { members: { some: { userId } } };
  const everyUnitTeam: Models.Prisma.TeamWhereInput = { ...inTeam, authorize: { in: [...EVERY_UNIT_AUTHORITIES] } };
  const publicVisible: Where = viewer.isRestricted
    ? publicOfPublic
    : { isPrivate: false, owner: { OR: [{ visibility: { in: ['PUBLIC', 'LIMITED'] } }, { orgMembers: { some: { userId } } }] } };
  // Grants that cover the whole repository (every enabled unit).
  const whole: Where[] = [
    publicVisible,
    { ownerId: userId },
    { collaborations: { some: { userId, mode: { in: READING } } } },
    { teamRepos: { some: { team: everyUnitTeam } } },
    { owner: { type: 'ORGANIZATION', orgTeams: { some: { ...everyUnitTeam, includesAllRepositories: true } } } },
  ];
  // Team grants of one unit count only while that unit is enabled.
  const perUnit: Where[] = (units ?? ALL_UNITS).map((type) => {
    const grants: Models.Prisma.TeamWhereInput = { ...inTeam, units: { some: { type, accessMode: { in: READING } } } };
    return {
      units: { some: { type } },
      OR: [
        { teamRepos: { some: { team: grants } } },
        { owner: { type: 'ORGANIZATION', orgTeams: { some: { ...grants, includesAllRepositories: true } } } },
      ],
    };
  });
  // A cheap gate first: most repositories are reached through no team of the viewer at all.
  const anyTeam: Where = {
    OR: [
      { teamRepos: { some: { team: inTeam } } },
      { owner: { type: 'ORGANIZATION', orgTeams: { some: { ...inTeam, includesAllRepositories: true } } } },
    ],
  };
  return { AND: [enabled, { OR: [...whole, { AND: [anyTeam, { OR: perUnit }] }] }] };
}

/**
 * The same rule for loaded rows (through the per-request permission loader, one batch): the ids among `repos`
 * the viewer can see, or, given `unit`, those whose `unit` the viewer can read.
 */
export async function readableRepoIds(
  cx: ServiceContext,
  repos: readonly Pick<Models.Repository, 'id'>[],
  unit?: UnitType,
): Promise<Set<number>> {
  const perms = await cx.loaders.repoPermission.loadMany(repos.map((r) => r.id));
  const out = new Set<number>();
  repos.forEach((r, i) => {
    const perm = perms[i];
    if (perm && !(perm instanceof Error) && (unit ? canRead(perm, unit) : canReadAny(perm))) out.add(r.id);
  });
  return out;
}

/** The read policy of branches (refs/heads): those of repositories whose code the viewer can read. */
export function branchReadWhere(cx: ServiceContext): Models.Prisma.BranchWhereInput {
  return { repo: repoReadWhere(cx, ['CODE']) };
}

/**
 * The read policy of collaborator lists: signed-in viewers who can see the repository (Gitea's reqToken and
 * reqAnyRepoReader on GET …/collaborators).
 */
export function collaborationReadWhere(cx: ServiceContext): Models.Prisma.CollaborationWhereInput {
  return cx.viewer ? { repo: repoReadWhere(cx) } : NO_ROWS;
}

/** The read policy of topics: every topic, to anyone (Gitea's GET /topics/search answers them without sign-in). */
export function topicReadWhere(): Models.Prisma.TopicWhereInput {
  return {};
}
