// A repository's teams, seen from the repository (Gitea routers/api/v1/repo/teams.go): the same links as
// /teams/{id}/repos, written through the same functions, under the repository's permission rules.
import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, PreconditionFailedError, ValidationError } from '../../errors.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import { isOwnerTeam, TEAM_INCLUDE, type TeamRow } from '../access/teamAccess.ts';
import { requireAdminRepo, requireAnyRepoReader, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { linkTeamRepo, unlinkTeamRepo } from './teamRepo.ts';
import { teamReadWhere } from './visibility.ts';

/** The repository's owner, which must be an organization (Gitea answers 405 otherwise). @throws PreconditionFailedError */
async function requireOrgOwner(cx: ServiceContext, access: RepoAccess): Promise<Models.User> {
  const owner = await cx.loaders.userById.load(access.repo.ownerId);
  if (owner?.type !== 'ORGANIZATION') {
    throw new PreconditionFailedError('repo is not owned by an organization', { reason: 'NOT_SUPPORTED', repoId: access.repo.id });
  }
  return owner;
}

/** A team of the organization by name, if the viewer may read it (the team read policy). @throws NotFoundError */
async function requireOrgTeam(cx: ServiceContext, org: Models.User, name: string): Promise<TeamRow> {
  const team = await cx.db.team.findFirst({
    where: { AND: [{ orgId: org.id, lowerName: name.toLowerCase() }, teamReadWhere(cx)] },
    include: TEAM_INCLUDE,
  });
  if (!team) throw new NotFoundError(`team does not exist [org_id ${org.id}, team_id 0, name: ${name}]`, { orgId: org.id, name });
  return team;
}

/** Whether the team has the repository (Gitea HasRepository: every repository for includes_all_repositories). */
async function hasRepo(cx: ServiceContext, team: TeamRow, repoId: number): Promise<boolean> {
  if (team.includesAllRepositories) return true;
  return (await cx.db.teamRepo.findUnique({ where: { teamId_repoId: { teamId: team.id, repoId } }, select: { id: true } })) !== null;
}

/**
 * The organization's teams that have the repository and that the viewer may read, the Owners team first, then
 * by name (GET /repos/{o}/{r}/teams, Gitea GetRepoTeams). 405 for a user's repository.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, PreconditionFailedError
 */
export async function listRepoTeams(cx: ServiceContext, ref: RepoRef): Promise<TeamRow[]> {
  const access = await requireAnyRepoReader(cx, ref);
  const org = await requireOrgOwner(cx, access);
  const teams = await cx.db.team.findMany({
    where: { AND: [{ orgId: org.id, repos: { some: { repoId: access.repo.id } } }, teamReadWhere(cx)] },
    include: TEAM_INCLUDE,
    orderBy: [{ lowerName: 'asc' }, { id: 'asc' }],
  });
  return [...teams.filter(isOwnerTeam), ...teams.filter((t) => !isOwnerTeam(t))];
}

/**
 * The team `name` if it has the repository (GET /repos/{o}/{r}/teams/{team}, Gitea IsTeam); 404 otherwise, or
 * when the viewer may not read the team. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, PreconditionFailedError
 */
export async function getRepoTeam(cx: ServiceContext, ref: RepoRef, name: string): Promise<TeamRow> {
  const access = await requireAnyRepoReader(cx, ref);
  const team = await requireOrgTeam(cx, await requireOrgOwner(cx, access), name);
  if (!(await hasRepo(cx, team, access.repo.id))) throw new NotFoundError('not found', { teamId: team.id, repoId: access.repo.id });
  return team;
}

/**
 * Gitea changeRepoTeam's checks: repository admin (reqAdmin), an organization's repository (405), then the
 * organization's owners, or repository admins when the organization lets them change team access (403).
 */
async function requireRepoTeamChange(cx: ServiceContext, ref: RepoRef, name: string): Promise<{ access: RepoAccess; team: TeamRow }> {
  const access = await requireAdminRepo(cx, ref, 'write:repository');
  const org = await requireOrgOwner(cx, access);
  if (!org.repoAdminChangeTeamAccess && !atLeast(access.perm.mode, 'OWNER')) {
    throw new PermissionDeniedError('user is nor repo admin nor owner');
  }
  return { access, team: await requireOrgTeam(cx, org, name) };
}

/**
 * Gives the team the repository (PUT /repos/{o}/{r}/teams/{team}, Gitea AddTeam): 422 when it already has it.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, PreconditionFailedError, ValidationError
 */
export async function addRepoTeam(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const { access, team } = await requireRepoTeamChange(cx, ref, name);
  if (await hasRepo(cx, team, access.repo.id)) {
    throw new ValidationError(`team '${team.name}' is already added to repo`, { teamId: team.id });
  }
  await linkTeamRepo(cx, team, access.repo.id);
}

/**
 * Takes the repository from the team (DELETE /repos/{o}/{r}/teams/{team}, Gitea DeleteTeam): 422 when it does
 * not have it; a team that includes all repositories keeps it, as Gitea.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, PreconditionFailedError, ValidationError
 */
export async function removeRepoTeam(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const { access, team } = await requireRepoTeamChange(cx, ref, name);
  if (!(await hasRepo(cx, team, access.repo.id))) {
    throw new ValidationError(`team '${team.name}' was not added to repo`, { teamId: team.id });
  }
  await unlinkTeamRepo(cx, team, access.repo.id);
}
