import type { DbTx, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { PermissionDeniedError, ValidationError } from '../../errors.ts';
import { everyUnitRows, hasEveryUnit, type UnitGrant } from '../../permissions/teamUnits.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireOrgOwner } from '../access/orgAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { refreshOrgCounters } from './org.ts';
import { requestedUnits, teamAuthority, teamVisibility, validateTeamInput, type TeamInput } from './teamUnits.ts';
import { teamReadWhere } from './visibility.ts';
import { isOwnerTeam, requireOrgForTeams, requireTeamOwner, requireTeamRead, TEAM_INCLUDE, type TeamRow } from '../access/teamAccess.ts';

export type { TeamInput } from './teamUnits.ts';
export type { TeamRow } from '../access/teamAccess.ts';

type TeamWhere = Models.Prisma.TeamWhereInput;

function alreadyExists(orgId: number, name: string): ValidationError {
  return new ValidationError(`team already exists [org_id: ${orgId}, name: ${name.toLowerCase()}]`, { orgId, name: name.toLowerCase() });
}

async function assertNameFree(tx: DbTx, orgId: number, name: string, exceptId?: number): Promise<void> {
  const clash = await tx.team.findFirst({
    where: { orgId, lowerName: name.toLowerCase(), ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw alreadyExists(orgId, name);
}

/** Adds every current repository of the organization to the team and refreshes its repository counter. */
async function addAllOrgRepos(tx: DbTx, team: Pick<Models.Team, 'id' | 'orgId'>): Promise<void> {
  const [repos, existing] = await Promise.all([
    tx.repository.findMany({ where: { ownerId: team.orgId }, select: { id: true } }),
    tx.teamRepo.findMany({ where: { teamId: team.id }, select: { repoId: true } }),
  ]);
  const have = new Set(existing.map((r) => r.repoId));
  const missing = repos.filter((r) => !have.has(r.id));
  if (missing.length) await tx.teamRepo.createMany({ data: missing.map((r) => ({ orgId: team.orgId, teamId: team.id, repoId: r.id })) });
  await tx.team.update({ where: { id: team.id }, data: { numRepos: have.size + missing.length } });
}

async function writeUnits(tx: DbTx, team: Pick<Models.Team, 'id' | 'orgId'>, units: readonly UnitGrant[]): Promise<void> {
  await tx.teamUnit.deleteMany({ where: { teamId: team.id } });
  if (units.length)
    await tx.teamUnit.createMany({
      data: units.map((u) => ({ orgId: team.orgId, teamId: team.id, type: u.type, accessMode: u.accessMode })),
    });
}

/**
 * Creates a team in an organization (owners). Gitea's rules: `permission: admin` gives admin authority and
 * admin on every unit (read on the external ones); otherwise the team's permission is `none` and its units
 * come from `units_map`, else from `units`. Neither given → 422 `units permission should not be empty`
 * (Gitea answers 500). With includes_all_repositories every current repository joins the team.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function createTeam(cx: ServiceContext, orgName: string, input: TeamInput): Promise<TeamRow> {
  const access = await requireOrgForTeams(cx, orgName, 'write');
  requireOrgOwner(cx, access, 'write:organization');
  validateTeamInput(input, { create: true });
  const name = input.name ?? '';
  if (name.toLowerCase() === 'new') throw new ValidationError(`name is reserved [name: ${name}]`, { name });
  const authorize = teamAuthority(input.permission);
  const units = hasEveryUnit(authorize) ? everyUnitRows(authorize) : requestedUnits(input);
  if (!units) throw new ValidationError('units permission should not be empty');
  const orgId = access.org.id;
  try {
    return await withTx(cx, async (tx, emit) => {
      await assertNameFree(tx, orgId, name);
      const team = await tx.team.create({
        data: {
          orgId,
          name,
          lowerName: name.toLowerCase(),
          description: input.description ?? '',
          authorize,
          includesAllRepositories: input.includesAllRepositories ?? false,
          canCreateOrgRepo: input.canCreateOrgRepo ?? false,
          visibility: teamVisibility(input.visibility),
        },
      });
      await writeUnits(tx, team, units);
      if (team.includesAllRepositories) await addAllOrgRepos(tx, team);
      await tx.user.update({ where: { id: orgId }, data: { numTeams: { increment: 1 } } });
      emit({ type: 'team.created', teamId: team.id, orgId, actorId: cx.viewer?.id ?? null });
      return tx.team.findUniqueOrThrow({ where: { id: team.id }, include: TEAM_INCLUDE });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(orgId, name);
    throw err;
  }
}

/** A team the viewer may read (GET /teams/{id}). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
export async function getTeam(cx: ServiceContext, teamId: number): Promise<TeamRow> {
  return (await requireTeamRead(cx, teamId)).team;
}

/**
 * One page of teams in Gitea's order: the Owners team first, then by lower-case name (two queries for the
 * pinned and the other teams, so the page stays exact).
 */
async function ownersFirstPage(cx: ServiceContext, where: TeamWhere, opts: ListOptions | ListWindow): Promise<Page<TeamRow>> {
  const { skip, take } = skipTake(opts);
  const pinnedWhere: TeamWhere = { AND: [where, { authorize: 'OWNER' }] };
  const restWhere: TeamWhere = { AND: [where, { authorize: { not: 'OWNER' } }] };
  const [pinnedCount, restCount] = await Promise.all([cx.db.team.count({ where: pinnedWhere }), cx.db.team.count({ where: restWhere })]);
  const pinned =
    skip < pinnedCount ? await cx.db.team.findMany({ where: pinnedWhere, include: TEAM_INCLUDE, orderBy: { id: 'asc' }, skip, take }) : [];
  const restTake = take - pinned.length;
  const rest =
    restTake > 0 && restCount > 0
      ? await cx.db.team.findMany({
          where: restWhere,
          include: TEAM_INCLUDE,
          orderBy: [{ lowerName: 'asc' }, { id: 'asc' }],
          skip: Math.max(0, skip - pinnedCount),
          take: restTake,
        })
      : [];
  return { items: [...pinned, ...rest], total: pinnedCount + restCount };
}

/**
 * An organization's teams as a member sees them (GET /orgs/{org}/teams, Gitea ApplyTeamListFilter): owners
 * and site admins see all; other members their own teams plus limited and public ones.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError (not a member)
 */
export async function listTeams(cx: ServiceContext, orgName: string, opts: ListOptions | ListWindow): Promise<Page<TeamRow>> {
  const access = await requireOrgForTeams(cx, orgName, 'read');
  return ownersFirstPage(cx, { AND: [{ orgId: access.org.id }, teamReadWhere(cx)] }, opts);
}

/** The viewer's own teams across organizations (GET /user/teams). @throws UnauthenticatedError, PermissionDeniedError */
export async function listUserTeams(cx: ServiceContext, opts: ListOptions | ListWindow): Promise<Page<TeamRow>> {
  requireTokenScope(cx, 'user', 'read');
  const viewer = requireViewer(cx);
  if (cx.auth.scope?.publicOnly) throw new PermissionDeniedError('this endpoint is not available for public-only tokens');
  return ownersFirstPage(cx, { members: { some: { userId: viewer.id } } }, opts);
}

/**
 * Edits a team (owners; Gitea EditTeam). Only given fields change. The Owners team keeps its name,
 * permission, visibility and repository scope, and can always create repositories. A permission other than
 * `admin` sets the team to `none`; units change only when `units_map` or `units` is given (admin teams get
 * the admin unit set). A name taken by another team is 422 (Gitea answers 500).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function editTeam(cx: ServiceContext, teamId: number, input: TeamInput): Promise<TeamRow> {
  const { team } = await requireTeamOwner(cx, teamId);
  validateTeamInput(input, { create: false });
  const owner = isOwnerTeam(team);
  const data: Models.Prisma.TeamUpdateInput = {};
  if (input.canCreateOrgRepo !== undefined) data.canCreateOrgRepo = owner || input.canCreateOrgRepo;
  if (input.description !== undefined) data.description = input.description;
  const name = !owner && input.name ? input.name : team.name;
  if (name !== team.name) Object.assign(data, { name, lowerName: name.toLowerCase() });
  let authorize = team.authorize;
  if (!owner) {
    if (input.visibility !== undefined) data.visibility = teamVisibility(input.visibility);
    if (input.permission) authorize = data.authorize = teamAuthority(input.permission);
    if (input.includesAllRepositories !== undefined) data.includesAllRepositories = input.includesAllRepositories;
  }
  const units = owner ? null : hasEveryUnit(authorize) ? everyUnitRows(authorize) : requestedUnits(input);
  const addAll = data.includesAllRepositories === true && !team.includesAllRepositories;
  try {
    return await withTx(cx, async (tx, emit) => {
      await assertNameFree(tx, team.orgId, name, team.id);
      await tx.team.update({ where: { id: team.id }, data });
      if (units) await writeUnits(tx, team, units);
      if (addAll) await addAllOrgRepos(tx, team);
      emit({ type: 'team.updated', teamId: team.id, orgId: team.orgId, actorId: cx.viewer?.id ?? null });
      return tx.team.findUniqueOrThrow({ where: { id: team.id }, include: TEAM_INCLUDE });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(team.orgId, name);
    throw err;
  }
}

/**
 * Deletes a team (owners). Members left in no team of the organization stop being members (Gitea
 * removeInvalidOrgUser). The Owners team cannot be deleted (422; Gitea's API would delete it).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError
 */
export async function deleteTeam(cx: ServiceContext, teamId: number): Promise<void> {
  const { team } = await requireTeamOwner(cx, teamId);
  if (isOwnerTeam(team)) throw new ValidationError('the Owners team cannot be deleted', { teamId: team.id });
  const actorId = cx.viewer?.id ?? null;
  await withTx(cx, async (tx, emit) => {
    const members = await tx.teamUser.findMany({ where: { teamId: team.id }, select: { userId: true } });
    await tx.team.delete({ where: { id: team.id } });
    const userIds = members.map((m) => m.userId);
    const stillIn = new Set(
      (await tx.teamUser.findMany({ where: { orgId: team.orgId, userId: { in: userIds } }, select: { userId: true } })).map(
        (r) => r.userId,
      ),
    );
    const leaving = userIds.filter((id) => !stillIn.has(id));
    if (leaving.length) await tx.orgUser.deleteMany({ where: { orgId: team.orgId, userId: { in: leaving } } });
    await refreshOrgCounters(tx, team.orgId);
    emit({ type: 'team.deleted', teamId: team.id, orgId: team.orgId, actorId });
    for (const userId of leaving) emit({ type: 'org.memberRemoved', orgId: team.orgId, userId, actorId });
  });
}
