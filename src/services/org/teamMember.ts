import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { requireOrgMember } from '../access/orgAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { findUserByName } from '../user/user.ts';
import { refreshOrgCounters } from './org.ts';
import { isOwnerTeam, requireTeamOwner, requireTeamRead, type TeamRow } from '../access/teamAccess.ts';

type User = Models.User;

async function requireUser(cx: ServiceContext, username: string): Promise<User> {
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`, { name: username });
  return user;
}

/**
 * A team's members (GET /teams/{id}/members): readers of the team who are also members of the organization
 * (Gitea reqTeamReadAccess + reqOrgMembership), ordered by full name then login. The total is the team's
 * member counter, as Gitea's X-Total-Count.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listTeamMembers(cx: ServiceContext, teamId: number, opts: ListOptions | ListWindow): Promise<Page<User>> {
  const ta = await requireTeamRead(cx, teamId);
  requireOrgMember(cx, ta.access, 'read:organization');
  const items = await cx.db.user.findMany({
    where: { teamMemberships: { some: { teamId } } },
    orderBy: [{ fullName: 'asc' }, { name: 'asc' }],
    ...skipTake(opts),
  });
  return { items, total: ta.team.numMembers };
}

/** One member of a team (GET /teams/{id}/members/{username}). @throws NotFoundError (also when not a member), UnauthenticatedError, PermissionDeniedError */
export async function getTeamMember(cx: ServiceContext, teamId: number, username: string): Promise<User> {
  const ta = await requireTeamRead(cx, teamId);
  requireOrgMember(cx, ta.access, 'read:organization');
  const user = await requireUser(cx, username);
  const row = await cx.db.teamUser.findUnique({ where: { teamId_userId: { teamId, userId: user.id } }, select: { id: true } });
  if (!row) throw new NotFoundError('not found', { teamId, userId: user.id });
  return user;
}

/**
 * Adds a user to a team (owners); the user joins the organization first when needed. Adding a member again
 * is a no-op. A user the organization blocked is refused (403 `user is blocked`, as Gitea). Returns the team and the user.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError (an organization account)
 */
export async function addTeamMember(cx: ServiceContext, teamId: number, username: string): Promise<{ team: TeamRow; user: User }> {
  const { team } = await requireTeamOwner(cx, teamId);
  const user = await requireUser(cx, username);
  if (user.type === 'ORGANIZATION')
    throw new ValidationError(`an organization cannot be a team member [name: ${user.name}]`, { name: user.name });
  const blocked = await cx.db.block.findFirst({ where: { blockerId: team.orgId, blockeeId: user.id }, select: { id: true } });
  if (blocked) throw new PermissionDeniedError('user is blocked');
  const actorId = cx.viewer?.id ?? null;
  await withTx(cx, async (tx, emit) => {
    const existing = await tx.teamUser.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } }, select: { id: true } });
    if (existing) return;
    const orgUser = await tx.orgUser.findUnique({ where: { orgId_userId: { orgId: team.orgId, userId: user.id } }, select: { id: true } });
    if (!orgUser) await tx.orgUser.create({ data: { orgId: team.orgId, userId: user.id, isPublic: false } });
    await tx.teamUser.create({ data: { orgId: team.orgId, teamId: team.id, userId: user.id } });
    await tx.team.update({ where: { id: team.id }, data: { numMembers: await tx.teamUser.count({ where: { teamId: team.id } }) } });
    if (!orgUser) await refreshOrgCounters(tx, team.orgId);
    emit({ type: 'team.memberAdded', teamId: team.id, orgId: team.orgId, userId: user.id, actorId });
  });
  return { team, user };
}

/**
 * Removes a user from a team (owners); removing a non-member is a no-op. A user left in no team of the
 * organization stops being a member of it (Gitea removeInvalidOrgUser). The last member of the Owners team
 * cannot be removed (422; Gitea answers 500). Returns the team.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function removeTeamMember(cx: ServiceContext, teamId: number, username: string): Promise<TeamRow> {
  const { team } = await requireTeamOwner(cx, teamId);
  const user = await requireUser(cx, username);
  const actorId = cx.viewer?.id ?? null;
  await withTx(cx, async (tx, emit) => {
    const row = await tx.teamUser.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } }, select: { id: true } });
    if (!row) return;
    const remaining = (await tx.teamUser.count({ where: { teamId: team.id } })) - 1;
    if (isOwnerTeam(team) && remaining < 1)
      throw new ValidationError(`user is the last member of owner team [uid: ${user.id}]`, { uid: user.id });
    await tx.teamUser.delete({ where: { id: row.id } });
    await tx.team.update({ where: { id: team.id }, data: { numMembers: remaining } });
    emit({ type: 'team.memberRemoved', teamId: team.id, orgId: team.orgId, userId: user.id, actorId });
    if ((await tx.teamUser.count({ where: { orgId: team.orgId, userId: user.id } })) === 0) {
      await tx.orgUser.deleteMany({ where: { orgId: team.orgId, userId: user.id } });
      await refreshOrgCounters(tx, team.orgId);
      emit({ type: 'org.memberRemoved', orgId: team.orgId, userId: user.id, actorId });
    }
  });
  return team;
}
