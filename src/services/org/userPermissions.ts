import { NotFoundError } from '../../errors.ts';
import { atLeast, maxMode, type AccessMode } from '../../permissions/accessMode.ts';
import { canSeeOwner } from '../../permissions/ownerVisibility.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { canSeeOrg, findOrgByName, orgAccess } from '../access/orgAccess.ts';
import type { ServiceContext } from '../context.ts';
import { getUserByName } from '../user/user.ts';

/** Gitea OrganizationPermissions: what a user may do in an organization. */
export interface OrgPermissions {
  canRead: boolean;
  canWrite: boolean;
  isAdmin: boolean;
  isOwner: boolean;
  canCreateRepository: boolean;
}

/**
 * A user's permissions in an organization (GET /users/{username}/orgs/{org}/permissions, Gitea
 * GetUserOrgsPermissions): from the highest authority of the user's teams there (read above none, write above
 * read, admin above write, owner above admin), and whether one of them may create repositories. The user must
 * be visible to the viewer; the organization to the viewer (the read policy) and to the user (Gitea's check),
 * 404 otherwise. Any signed-in viewer may ask, as Gitea.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError (token scope)
 */
export async function getUserOrgPermissions(cx: ServiceContext, username: string, orgName: string): Promise<OrgPermissions> {
  requireTokenScope(cx, 'user', 'read');
  requireTokenScope(cx, 'organization', 'read');
  const user = await getUserByName(cx, username);
  requireViewer(cx);
  const org = await findOrgByName(cx.db, orgName);
  if (!org || !canSeeOrg(cx, await orgAccess(cx, org))) throw new NotFoundError('not found', { org: orgName });
  const [membership, teams] = await Promise.all([
    cx.db.orgUser.findFirst({ where: { orgId: org.id, userId: user.id }, select: { id: true } }),
    cx.db.team.findMany({
      where: { orgId: org.id, members: { some: { userId: user.id } } },
      select: { authorize: true, canCreateOrgRepo: true },
    }),
  ]);
  if (!canSeeOwner(user, org, membership !== null)) throw new NotFoundError('not found', { org: orgName });
  const level = teams.reduce<AccessMode>((m, t) => maxMode(m, t.authorize), 'NONE');
  return {
    canRead: atLeast(level, 'READ'),
    canWrite: atLeast(level, 'WRITE'),
    isAdmin: atLeast(level, 'ADMIN'),
    isOwner: atLeast(level, 'OWNER'),
    canCreateRepository: atLeast(level, 'OWNER') || teams.some((t) => t.canCreateOrgRepo),
  };
}
