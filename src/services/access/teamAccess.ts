import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { canReadTeam } from '../../permissions/ownerVisibility.ts';
import { isSiteAdmin, requireTokenScope, requireViewer } from './guards.ts';
import { canSeeOrg, findOrgByName, orgAccess, requireOrgMember, requireOrgOwner, requireOrgWrite, type OrgAccess } from './orgAccess.ts';
import type { ServiceContext } from '../context.ts';
import { isDbId } from '../dbId.ts';

/** What every team read loads: the team, its units (in creation order) and its organization. */
export const TEAM_INCLUDE = { units: { orderBy: { id: 'asc' } }, org: true } as const satisfies Models.Prisma.TeamInclude;

/** A team with its units and organization. */
export type TeamRow = Models.Prisma.TeamGetPayload<{ include: typeof TEAM_INCLUDE }>;

/** A team together with the viewer's standing in its organization. */
export interface TeamAccess {
  team: TeamRow;
  access: OrgAccess;
  isTeamMember: boolean;
}

/** The Owners team (owner authority): cannot be renamed, re-permissioned or deleted. */
export function isOwnerTeam(team: Pick<Models.Team, 'authorize'>): boolean {
  return team.authorize === 'OWNER';
}

/** A public-only token cannot reach organizations that are not public (Gitea checkTokenPublicOnly). @throws PermissionDeniedError */
function requirePublicOrgForToken(cx: ServiceContext, org: Pick<Models.User, 'visibility'>): void {
  if (cx.auth.scope?.publicOnly && org.visibility !== 'PUBLIC') throw new PermissionDeniedError('token scope is limited to public orgs');
}

/**
 * The organization behind /orgs/{org}/teams, in Gitea's order: unknown → 404 (even anonymous, and whatever
 * its visibility), anonymous → 401, public-only token on a non-public org → 403, an organization the viewer
 * may not see → 404 (Gitea: 403), non-member → 403.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function requireOrgForTeams(cx: ServiceContext, orgName: string, level: 'read' | 'write'): Promise<OrgAccess> {
  requireTokenScope(cx, 'organization', level);
  const org = await findOrgByName(cx.db, orgName);
  if (!org) throw new NotFoundError('not found', { org: orgName });
  requireViewer(cx);
  requirePublicOrgForToken(cx, org);
  const access = await orgAccess(cx, org);
  // Unlike Gitea (403), an organization the viewer may not see is as absent as a missing one.
  if (!canSeeOrg(cx, access)) throw new NotFoundError('not found', { org: orgName });
  requireOrgMember(cx, access, `${level}:organization`);
  return access;
}

/**
 * A team by id, in Gitea's order (orgAssignment, reqToken, checkTokenPublicOnly): unknown → 404 even for
 * anonymous callers, then 401, then 403 for a public-only token on a non-public organization.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function requireTeam(cx: ServiceContext, teamId: number, level: 'read' | 'write'): Promise<TeamAccess> {
  requireTokenScope(cx, 'organization', level);
  const team = isDbId(teamId) ? await cx.db.team.findUnique({ where: { id: teamId }, include: TEAM_INCLUDE }) : null;
  if (!team) throw new NotFoundError('not found', { teamId });
  requireViewer(cx);
  requirePublicOrgForToken(cx, team.org);
  const access = await orgAccess(cx, team.org);
  return { team, access, isTeamMember: access.standing.teamIds.includes(team.id) };
}

/** 403 `Must be a team member` for organization members, 404 for everyone else (Gitea denyNonTeamMember). */
function denyNonTeamMember(ta: TeamAccess): never {
  if (ta.access.isMember) throw new PermissionDeniedError('Must be a team member');
  throw new NotFoundError('not found', { teamId: ta.team.id });
}

/** Whether the viewer may read the team's metadata, members and repositories (Gitea reqTeamReadAccess). */
export function canReadTeamAccess(cx: ServiceContext, ta: TeamAccess): boolean {
  return canReadTeam({
    visibility: ta.team.visibility,
    isTeamMember: ta.isTeamMember,
    isOrgOwner: ta.access.isOwner,
    isOrgMember: ta.access.isMember,
    canSeeOrg: canSeeOrg(cx, ta.access),
    isSiteAdmin: isSiteAdmin(cx),
  });
}

/** A team the viewer may read. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function requireTeamRead(cx: ServiceContext, teamId: number): Promise<TeamAccess> {
  const ta = await requireTeam(cx, teamId, 'read');
  if (!canReadTeamAccess(cx, ta)) denyNonTeamMember(ta);
  return ta;
}

/** A team the viewer may administer: organization owners and site admins (Gitea reqOrgOwnership). */
export async function requireTeamOwner(cx: ServiceContext, teamId: number): Promise<TeamAccess> {
  const ta = await requireTeam(cx, teamId, 'write');
  requireOrgOwner(cx, ta.access, 'write:organization');
  return ta;
}

/** Site admins, organization owners and the team's members (Gitea reqTeamMembership). */
export async function requireTeamMembership(cx: ServiceContext, teamId: number): Promise<TeamAccess> {
  const ta = await requireTeam(cx, teamId, 'write');
  requireOrgWrite(cx, ta.access, 'write:organization');
  if (!ta.isTeamMember && !ta.access.isOwner) denyNonTeamMember(ta);
  return ta;
}

/** Whether the viewer belongs to the team (batched per organization). */
export async function isViewerTeamMember(cx: ServiceContext, team: Pick<Models.Team, 'id' | 'orgId'>): Promise<boolean> {
  return (await cx.loaders.orgStanding.load(team.orgId)).teamIds.includes(team.id);
}

/** Whether the viewer may administer the organization's teams: its owners and site admins (batched). */
export async function canAdministerTeams(cx: ServiceContext, orgId: number): Promise<boolean> {
  return isSiteAdmin(cx) || (await cx.loaders.orgStanding.load(orgId)).isOwner;
}
