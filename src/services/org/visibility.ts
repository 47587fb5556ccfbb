import type { Models } from '../../db/client.ts';
import { NO_ROWS } from '../../db/filters.ts';
import { visibleVisibilities } from '../../permissions/userVisibility.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';

/**
 * The read policy of organizations (canSeeOrg as SQL, Gitea HasOrgOrUserVisible + checkTokenPublicOnly): public
 * ones; limited ones for signed-in viewers (restricted viewers only as members); private ones for members;
 * everything for site admins; a public-only token reaches public organizations only.
 */
export function orgReadWhere(cx: ServiceContext): Models.Prisma.UserWhereInput {
  if (cx.auth.scope?.publicOnly) return { type: 'ORGANIZATION', visibility: 'PUBLIC' };
  if (isSiteAdmin(cx)) return { type: 'ORGANIZATION' };
  const viewer = cx.viewer;
  const or: Models.Prisma.UserWhereInput[] = [{ visibility: { in: visibleVisibilities(viewer) } }];
  if (viewer) or.push({ orgMembers: { some: { userId: viewer.id } } });
  return { type: 'ORGANIZATION', OR: or };
}

/**
 * The read policy of teams (canReadTeam as SQL, Gitea reqTeamReadAccess): everything for site admins; for a
 * signed-in viewer their own teams, every team of organizations they own, limited and public teams of
 * organizations they belong to, and public teams of organizations they can see; nothing for anonymous callers
 * (Gitea reads teams only with a token). A public-only token reaches teams of public organizations only.
 */
export function teamReadWhere(cx: ServiceContext): Models.Prisma.TeamWhereInput {
  const publicOrgs: Models.Prisma.TeamWhereInput[] = cx.auth.scope?.publicOnly ? [{ org: { visibility: 'PUBLIC' } }] : [];
  if (isSiteAdmin(cx)) return publicOrgs.length ? { AND: publicOrgs } : {};
  const viewer = cx.viewer;
  if (!viewer) return NO_ROWS;
  const orgMember: Models.Prisma.UserWhereInput = { orgMembers: { some: { userId: viewer.id } } };
  return {
    AND: [
      ...publicOrgs,
      {
        OR: [
          { members: { some: { userId: viewer.id } } },
          { org: { orgTeams: { some: { authorize: 'OWNER', members: { some: { userId: viewer.id } } } } } },
          { visibility: 'LIMITED', org: orgMember },
          { visibility: 'PUBLIC', org: orgReadWhere(cx) },
        ],
      },
    ],
  };
}

/**
 * The read policy of team member lists (Gitea reqTeamReadAccess + reqOrgMembership on GET /teams/{id}/members):
 * of a readable team, every row for site admins, otherwise rows of organizations the viewer belongs to.
 */
export function teamMemberReadWhere(cx: ServiceContext): Models.Prisma.TeamUserWhereInput {
  const team = teamReadWhere(cx);
  if (isSiteAdmin(cx)) return { team };
  if (!cx.viewer) return NO_ROWS;
  return { team, org: { orgMembers: { some: { userId: cx.viewer.id } } } };
}

/**
 * The read policy of an organization's member list (GET /orgs/{org}/members, Gitea's membership rule): of a
 * visible organization, every membership for its members and site admins, public memberships for everyone else.
 */
export function orgMemberReadWhere(cx: ServiceContext): Models.Prisma.OrgUserWhereInput {
  const org = orgReadWhere(cx);
  if (isSiteAdmin(cx)) return { org };
  const or: Models.Prisma.OrgUserWhereInput[] = [{ isPublic: true }];
  if (cx.viewer) or.push({ org: { orgMembers: { some: { userId: cx.viewer.id } } } });
  return { org, OR: or };
}

/**
 * The read policy of a user's organization list (GET /users/{u}/orgs, /user/orgs): organizations the viewer can
 * see, through public memberships, or any membership for the user itself and site admins.
 */
export function userOrgReadWhere(cx: ServiceContext): Models.Prisma.OrgUserWhereInput {
  const org = orgReadWhere(cx);
  if (isSiteAdmin(cx)) return { org };
  const or: Models.Prisma.OrgUserWhereInput[] = [{ isPublic: true }];
  if (cx.viewer) or.push({ userId: cx.viewer.id });
  return { org, OR: or };
}
