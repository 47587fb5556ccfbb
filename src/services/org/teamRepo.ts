import type { DbTx, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { loadApiRepos, withPermissions, type RepoWithPermission } from '../repo/repoRows.ts';
import { requireTeamMembership, requireTeamRead, type TeamAccess, type TeamRow } from '../access/teamAccess.ts';
import { canReadAny } from '../../permissions/repoPermission.ts';
import { repoReadWhere } from '../repo/visibility.ts';

/**
 * Which of a readable team's repositories its lists count (GET /teams/{id}/repos, GraphQL Team.repositories): as
 * Gitea, all of them — the page then leaves out those the viewer cannot see, the total does not — except for a
 * public-only token, whose list is filtered in SQL by the repository read policy, so its total matches.
 */
export function teamRepoCountWhere(cx: ServiceContext): Models.Prisma.RepositoryWhereInput {
  return cx.auth.scope?.publicOnly ? repoReadWhere(cx) : {};
}

/**
 * A team's repositories by name (GET /teams/{id}/repos), with the viewer's permission on each (see
 * teamRepoCountWhere for what the total counts).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listTeamRepos(cx: ServiceContext, teamId: number, opts: ListOptions | ListWindow): Promise<Page<RepoWithPermission>> {
  await requireTeamRead(cx, teamId);
  const where: Models.Prisma.RepositoryWhereInput = { AND: [{ teamRepos: { some: { teamId } } }, teamRepoCountWhere(cx)] };
  const [rows, total] = await Promise.all([
    loadApiRepos(cx, { where, orderBy: [{ name: 'asc' }, { id: 'asc' }], ...skipTake(opts) }),
    cx.db.repository.count({ where }),
  ]);
  return { items: await withPermissions(cx, rows), total };
}

/** The team's organization's repository `repoName`; `orgName` must name that organization. @throws NotFoundError */
async function requireOrgRepo(cx: ServiceContext, ta: TeamAccess, orgName: string, repoName: string): Promise<Models.Repository> {
  const repo =
    orgName.toLowerCase() === ta.team.org.lowerName
      ? await cx.db.repository.findUnique({ where: { ownerId_lowerName: { ownerId: ta.team.orgId, lowerName: repoName.toLowerCase() } } })
      : null;
  if (!repo) throw new NotFoundError('not found', { org: orgName, repo: repoName });
  return repo;
}

/**
 * One repository of a team (GET /teams/{id}/repos/{org}/{repo}): 404 unless it belongs to the team and the
 * viewer can see it. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function getTeamRepo(cx: ServiceContext, teamId: number, orgName: string, repoName: string): Promise<RepoWithPermission> {
  const ta = await requireTeamRead(cx, teamId);
  const found = await requireOrgRepo(cx, ta, orgName, repoName);
  const linked = await cx.db.teamRepo.findUnique({ where: { teamId_repoId: { teamId, repoId: found.id } }, select: { id: true } });
  const perm = await cx.loaders.repoPermission.load(found.id);
  if (!linked || !canReadAny(perm)) throw new NotFoundError('not found', { teamId, repoId: found.id });
  const [repo] = await loadApiRepos(cx, { where: { id: found.id } });
  if (!repo) throw new NotFoundError('not found', { repoId: found.id });
  return { repo, perm };
}

/**
 * Who may change a team's repositories (Gitea AddTeamRepository / RemoveTeamRepository): team members and
 * owners (reqTeamMembership), then organization owners, or anyone when the organization lets repository
 * admins change team access; and in every case admin access to the repository.
 */
async function requireTeamRepoChange(
  cx: ServiceContext,
  teamId: number,
  orgName: string,
  repoName: string,
): Promise<{ ta: TeamAccess; repo: Models.Repository }> {
  const ta = await requireTeamMembership(cx, teamId);
  const repo = await requireOrgRepo(cx, ta, orgName, repoName);
  if (!ta.team.org.repoAdminChangeTeamAccess && !ta.access.isOwner) throw new PermissionDeniedError('user is nor repo admin nor owner');
  const perm = await cx.loaders.repoPermission.load(repo.id);
  if (!atLeast(perm.mode, 'ADMIN')) throw new PermissionDeniedError('Must have admin-level access to the repository');
  return { ta, repo };
}

async function refreshRepoCount(tx: DbTx, teamId: number): Promise<void> {
  await tx.team.update({ where: { id: teamId }, data: { numRepos: await tx.teamRepo.count({ where: { teamId } }) } });
}

/**
 * Adds an organization repository to a team (PUT /teams/{id}/repos/{org}/{repo}); already there is a no-op.
 * Returns the team.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function addTeamRepo(cx: ServiceContext, teamId: number, orgName: string, repoName: string): Promise<TeamRow> {
  const { ta, repo } = await requireTeamRepoChange(cx, teamId, orgName, repoName);
  await linkTeamRepo(cx, ta.team, repo.id);
  return ta.team;
}

/**
 * Removes a repository from a team (DELETE /teams/{id}/repos/{org}/{repo}). Not in the team, or a team that
 * includes all repositories: a no-op, as Gitea. Returns the team. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function removeTeamRepo(cx: ServiceContext, teamId: number, orgName: string, repoName: string): Promise<TeamRow> {
  const { ta, repo } = await requireTeamRepoChange(cx, teamId, orgName, repoName);
  await unlinkTeamRepo(cx, ta.team, repo.id);
  return ta.team;
}

/**
 * Gives a team one of its organization's repositories (Gitea TeamAddRepository), after the caller's permission
 * check; already there is a no-op. Both doors (the team's and the repository's) write through here.
 */
export async function linkTeamRepo(cx: ServiceContext, team: Pick<Models.Team, 'id' | 'orgId'>, repoId: number): Promise<void> {
  await withTx(cx, async (tx, emit) => {
    const linked = await tx.teamRepo.findUnique({ where: { teamId_repoId: { teamId: team.id, repoId } }, select: { id: true } });
    if (linked) return;
    await tx.teamRepo.create({ data: { orgId: team.orgId, teamId: team.id, repoId } });
    await refreshRepoCount(tx, team.id);
    emit({ type: 'team.repoAdded', teamId: team.id, orgId: team.orgId, repoId, actorId: cx.viewer?.id ?? null });
  });
  cx.loaders.repoPermission.clear(repoId);
}

/**
 * Takes a repository from a team (Gitea RemoveRepository), after the caller's permission check. Not in the team,
 * or a team that includes all repositories: a no-op, as Gitea.
 */
export async function unlinkTeamRepo(
  cx: ServiceContext,
  team: Pick<Models.Team, 'id' | 'orgId' | 'includesAllRepositories'>,
  repoId: number,
): Promise<void> {
  if (team.includesAllRepositories) return;
  await withTx(cx, async (tx, emit) => {
    const { count } = await tx.teamRepo.deleteMany({ where: { teamId: team.id, repoId } });
    if (!count) return;
    await refreshRepoCount(tx, team.id);
    emit({ type: 'team.repoRemoved', teamId: team.id, orgId: team.orgId, repoId, actorId: cx.viewer?.id ?? null });
  });
  cx.loaders.repoPermission.clear(repoId);
}
