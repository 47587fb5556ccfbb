import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgMember, requireOrgOwner } from '../access/orgAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';
import { refreshOrgCounters } from './org.ts';

type User = Models.User;

/** The filter of an organization's members a viewer may list: everyone for members and admins, else public members. */
export async function memberFilter(
  cx: ServiceContext,
  orgName: string,
  opts: { publicOnly?: boolean } = {},
): Promise<Models.Prisma.UserWhereInput> {
  requireTokenScope(cx, 'organization', 'read');
  const access = await requireOrg(cx, orgName);
  const publicOnly = opts.publicOnly === true || !access.isMember;
  return { orgMemberships: { some: { orgId: access.org.id, ...(publicOnly ? { isPublic: true } : {}) } } };
}

/**
 * Members of an organization (GET /orgs/{org}/members): all of them for members and site admins,
 * only public members for everyone else. @throws NotFoundError when the organization is not visible
 */
export async function listMembers(
  cx: ServiceContext,
  orgName: string,
  opts: ListOptions | ListWindow,
  publicOnly = false,
): Promise<Page<User>> {
  const where = await memberFilter(cx, orgName, { publicOnly });
  const [items, total] = await Promise.all([
    cx.db.user.findMany({ where, orderBy: { id: 'asc' }, ...skipTake(opts) }),
    cx.db.user.count({ where }),
  ]);
  return { items, total };
}

/** How GET /orgs/{org}/members/{username} answers. */
export type MembershipAnswer = 'member' | 'not-member' | 'ask-public';

/**
 * Whether `username` is a member, as Gitea's IsMember: members and admins get a yes/no; a non-member
 * asking about themselves gets no; everyone else is sent to the public-membership check.
 * @throws NotFoundError for an unknown user or an invisible organization
 */
export async function checkMembership(cx: ServiceContext, orgName: string, username: string): Promise<MembershipAnswer> {
  requireTokenScope(cx, 'organization', 'read');
  const access = await requireOrg(cx, orgName);
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`);
  if (cx.viewer && access.isMember) {
    const row = await cx.db.orgUser.findUnique({ where: { orgId_userId: { orgId: access.org.id, userId: user.id } } });
    return row ? 'member' : 'not-member';
  }
  if (cx.viewer?.id === user.id) return 'not-member';
  return 'ask-public';
}

/** Whether `username` is a public member. @throws NotFoundError for an unknown user or an invisible organization */
export async function isPublicMember(cx: ServiceContext, orgName: string, username: string): Promise<boolean> {
  requireTokenScope(cx, 'organization', 'read');
  const access = await requireOrg(cx, orgName);
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`);
  const row = await cx.db.orgUser.findUnique({ where: { orgId_userId: { orgId: access.org.id, userId: user.id } } });
  return row?.isPublic === true;
}

/**
 * Publicizes or conceals the viewer's own membership (members only; nobody else's).
 * @throws PermissionDeniedError, NotFoundError
 */
export async function setMembershipVisibility(cx: ServiceContext, orgName: string, username: string, isPublic: boolean): Promise<void> {
  const viewer = requireViewer(cx);
  const access = await requireOrg(cx, orgName);
  requireOrgMember(cx, access, 'write:organization');
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`);
  if (user.id !== viewer.id)
    throw new PermissionDeniedError(isPublic ? 'Cannot publicize another member' : 'Cannot conceal another member');
  await cx.db.orgUser.updateMany({ where: { orgId: access.org.id, userId: user.id }, data: { isPublic } });
}

/**
 * Removes a user from an organization and all its teams (owners only). Removing a non-member is a no-op;
 * the last owner cannot be removed.
 * @throws PermissionDeniedError, NotFoundError, ValidationError
 */
export async function removeMember(cx: ServiceContext, orgName: string, username: string): Promise<void> {
  const access = await requireOrg(cx, orgName);
  requireOrgOwner(cx, access, 'write:organization');
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`);
  const orgId = access.org.id;
  await withTx(cx, async (tx, emit) => {
    const membership = await tx.orgUser.findUnique({ where: { orgId_userId: { orgId, userId: user.id } } });
    if (!membership) return;
    const ownerTeams = await tx.team.findMany({ where: { orgId, authorize: 'OWNER' }, select: { id: true } });
    const owners = await tx.teamUser.findMany({ where: { teamId: { in: ownerTeams.map((t) => t.id) } }, select: { userId: true } });
    const ownerIds = new Set(owners.map((o) => o.userId));
    if (ownerIds.has(user.id) && ownerIds.size === 1) {
      // Gitea's ErrLastOrgOwner text (Gitea answers it with a 500; a 422 says what is wrong).
      throw new ValidationError(`user is the last member of owner team [uid: ${user.id}]`);
    }
    const teams = await tx.teamUser.findMany({ where: { orgId, userId: user.id }, select: { teamId: true } });
    await tx.teamUser.deleteMany({ where: { orgId, userId: user.id } });
    for (const { teamId } of teams) {
      await tx.team.update({ where: { id: teamId }, data: { numMembers: await tx.teamUser.count({ where: { teamId } }) } });
    }
    await tx.orgUser.delete({ where: { id: membership.id } });
    await refreshOrgCounters(tx, orgId);
    emit({ type: 'org.memberRemoved', orgId, userId: user.id, actorId: cx.viewer?.id ?? null });
  });
}
