// GitHub's filters of the team lists (GraphQL Organization.teams, Team.members, Team.repositories), as wheres over
// Gitea's teams, memberships and repositories; the caller applies each list's read policy.
import type { Models } from '../../db/client.ts';
import { containsInsensitive, NO_ROWS } from '../../db/filters.ts';
import type { ServiceContext } from '../context.ts';

type TeamWhere = Models.Prisma.TeamWhereInput;

export interface TeamListFilter {
  /** Part of the name. */
  query?: string;
  /** GitHub's privacy: SECRET is a private team, VISIBLE a limited or public one. */
  privacy?: 'SECRET' | 'VISIBLE';
  /** The viewer's role: MEMBER of the team, or ADMIN of it (an owner of the organization: Gitea has no team maintainers). */
  role?: 'ADMIN' | 'MEMBER';
  /** Teams any of these users belong to. */
  userLogins?: readonly string[];
  /** Gitea does not map teams to LDAP groups: true matches none. */
  ldapMapped?: boolean;
  /** Gitea has no per-team notification setting (every team notifies): DISABLED matches none. */
  notificationSetting?: 'NOTIFICATIONS_DISABLED' | 'NOTIFICATIONS_ENABLED';
}

/** The where of the filters (every team when none is given). */
export function teamListWhere(cx: ServiceContext, f: TeamListFilter): TeamWhere {
  const and: TeamWhere[] = [];
  if (f.query) and.push({ lowerName: { contains: f.query.toLowerCase() } });
  if (f.privacy) and.push(f.privacy === 'SECRET' ? { visibility: 'PRIVATE' } : { visibility: { not: 'PRIVATE' } });
  if (f.role) {
    const viewer = cx.viewer;
    if (!viewer) and.push(NO_ROWS);
    else if (f.role === 'MEMBER') and.push({ members: { some: { userId: viewer.id } } });
    else and.push({ org: { orgTeams: { some: { authorize: 'OWNER', members: { some: { userId: viewer.id } } } } } });
  }
  if (f.userLogins) and.push({ members: { some: { user: { lowerName: { in: f.userLogins.map((l) => l.toLowerCase()) } } } } });
  if (f.ldapMapped === true || f.notificationSetting === 'NOTIFICATIONS_DISABLED') and.push(NO_ROWS);
  return { AND: and };
}

export interface TeamMemberFilter {
  /** Part of the login or the full name. */
  query?: string;
  /** Gitea teams have no child teams: CHILD_TEAM matches none. */
  membership?: 'ALL' | 'CHILD_TEAM' | 'IMMEDIATE';
  /** Gitea teams have no maintainers: MAINTAINER matches none. */
  role?: 'MAINTAINER' | 'MEMBER';
}

/** The memberships the filters let through. */
export function teamMemberListWhere(cx: ServiceContext, f: TeamMemberFilter): Models.Prisma.TeamUserWhereInput {
  const and: Models.Prisma.TeamUserWhereInput[] = [];
  if (f.membership === 'CHILD_TEAM' || f.role === 'MAINTAINER') and.push(NO_ROWS);
  if (f.query) {
    const q = containsInsensitive(cx.config.dbProvider, f.query);
    and.push({ user: { OR: [{ name: q }, { fullName: q }] } });
  }
  return { AND: and };
}

/** The repositories whose name contains `query` (every one without it). */
export const repoNameWhere = (query: string | undefined): Models.Prisma.RepositoryWhereInput =>
  query ? { lowerName: { contains: query.toLowerCase() } } : {};
