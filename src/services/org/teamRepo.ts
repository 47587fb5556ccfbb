import type { DbTx, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import { canReadAny, type RepoPermission } from '../../permissions/repoPermission.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { requireTeamMembership, requireTeamRead, TEAM_INCLUDE, type TeamAccess, type TeamRow } from './teamAccess.ts';

/** The relations Gitea's Repository JSON needs, loaded in bulk with the rows (a fixed number of queries). */
const REPO_RELATIONS = {
  owner: true,
  units: { select: { type: true, config: true } },
  languageStats: { where: { isPrimary: true }, select: { language: true } },
  licenses: { select: { license: true }, orderBy: { license: 'asc' } },
  mirror: true,
  transfer: { include: { doer: true, recipient: true } },
  _count: { select: { releases: { where: { isDraft: false, isTag: false } }, branches: { where: { isDeleted: false } } } },
} as const satisfies Models.Prisma.RepositoryInclude;

/** REPO_RELATIONS plus the fork parent with the same relations (Gitea converts the parent one level deep). */
export const REPO_API_INCLUDE = { ...REPO_RELATIONS, forkOf: { include: REPO_RELATIONS } } as const satisfies Models.Prisma.RepositoryInclude;

/** A repository row with everything the REST converter reads. */
export type ApiRepoRow = Models.Prisma.RepositoryGetPayload<{ include: typeof REPO_API_INCLUDE }> & { transferTeams?: TeamRow[] };

/** A repository together with the viewer's permission on it. */
export interface RepoWithPermission {
  repo: ApiRepoRow;
  perm: RepoPermission;
}

function teamIdsOf(transfer: { teamIds: string } | null): number[] {
  if (!transfer) return [];
  try {
    const ids: unknown = JSON.parse(transfer.teamIds);
    return Array.isArray(ids) ? ids.filter((v): v is number => Number.isInteger(v)) : [];
  } catch {
    return [];
  }
}

/** Loads repositories for the REST converter, with pending-transfer teams, in id order of `where`. */
async function loadApiRepos(cx: ServiceContext, args: Omit<Models.Prisma.RepositoryFindManyArgs, 'include' | 'select'>): Promise<ApiRepoRow[]> {
  const rows: ApiRepoRow[] = await cx.db.repository.findMany({ ...args, include: REPO_API_INCLUDE });
  const pending = rows.filter((r) => r.status === 'PENDING_TRANSFER' && r.transfer);
  const ids = [...new Set(pending.flatMap((r) => teamIdsOf(r.transfer)))];
  if (ids.length) {
    const teams = await cx.db.team.findMany({ where: { id: { in: ids } }, include: TEAM_INCLUDE });
    for (const r of pending) r.transferTeams = teams.filter((t) => teamIdsOf(r.transfer).includes(t.id));
  }
  return rows;
}

function visibleTo(cx: ServiceContext, repo: Pick<Models.Repository, 'isPrivate'>, perm: RepoPermission): boolean {
  return canReadAny(perm) && !(repo.isPrivate && cx.auth.scope?.publicOnly);
}

/**
 * The ids among `repoIds` the viewer may see (batched through the permission loader), for relation paths
 * such as GraphQL `Team.repositories` and `node(id:)`.
 */
export async function visibleRepoIds(cx: ServiceContext, repos: readonly Pick<Models.Repository, 'id' | 'isPrivate'>[]): Promise<Set<number>> {
  const perms = await cx.loaders.repoPermission.loadMany(repos.map((r) => r.id));
  const out = new Set<number>();
  repos.forEach((r, i) => {
    const perm = perms[i];
    if (perm && !(perm instanceof Error) && visibleTo(cx, r, perm)) out.add(r.id);
  });
  return out;
}

/**
 * A team's repositories by name (GET /teams/{id}/repos), with the viewer's permission on each. As Gitea:
 * repositories the viewer cannot see are left out of the page but still counted in the total; a public-only
 * token filters private ones in SQL (so its total matches).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listTeamRepos(cx: ServiceContext, teamId: number, opts: ListOptions | ListWindow): Promise<Page<RepoWithPermission>> {
  await requireTeamRead(cx, teamId);
  const where: Models.Prisma.RepositoryWhereInput = { teamRepos: { some: { teamId } }, ...(cx.auth.scope?.publicOnly ? { isPrivate: false } : {}) };
  const [rows, total] = await Promise.all([
    loadApiRepos(cx, { where, orderBy: [{ name: 'asc' }, { id: 'asc' }], ...skipTake(opts) }),
    cx.db.repository.count({ where }),
  ]);
  const perms = await cx.loaders.repoPermission.loadMany(rows.map((r) => r.id));
  const items: RepoWithPermission[] = [];
  rows.forEach((repo, i) => {
    const perm = perms[i];
    if (perm && !(perm instanceof Error) && visibleTo(cx, repo, perm)) items.push({ repo, perm });
  });
  return { items, total };
}

/** The team's organization's repository `repoName`; `orgName` must name that organization. @throws NotFoundError */
async function requireOrgRepo(cx: ServiceContext, ta: TeamAccess, orgName: string, repoName: string): Promise<Models.Repository> {
  const repo = orgName.toLowerCase() === ta.team.org.lowerName
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
  if (!linked || !visibleTo(cx, found, perm)) throw new NotFoundError('not found', { teamId, repoId: found.id });
  const [repo] = await loadApiRepos(cx, { where: { id: found.id } });
  if (!repo) throw new NotFoundError('not found', { repoId: found.id });
  return { repo, perm };
}

/**
 * Who may change a team's repositories (Gitea AddTeamRepository / RemoveTeamRepository): team members and
 * owners (reqTeamMembership), then organization owners, or anyone when the organization lets repository
 * admins change team access; and in every case admin access to the repository.
 */
async function requireTeamRepoChange(cx: ServiceContext, teamId: number, orgName: string, repoName: string): Promise<{ ta: TeamAccess; repo: Models.Repository }> {
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
  await withTx(cx, async (tx, emit) => {
    const linked = await tx.teamRepo.findUnique({ where: { teamId_repoId: { teamId, repoId: repo.id } }, select: { id: true } });
    if (linked) return;
    await tx.teamRepo.create({ data: { orgId: ta.team.orgId, teamId, repoId: repo.id } });
    await refreshRepoCount(tx, teamId);
    emit({ type: 'team.repoAdded', teamId, orgId: ta.team.orgId, repoId: repo.id, actorId: cx.viewer?.id ?? null });
  });
  return ta.team;
}

/**
 * Removes a repository from a team (DELETE /teams/{id}/repos/{org}/{repo}). Not in the team, or a team that
 * includes all repositories: a no-op, as Gitea. Returns the team. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function removeTeamRepo(cx: ServiceContext, teamId: number, orgName: string, repoName: string): Promise<TeamRow> {
  const { ta, repo } = await requireTeamRepoChange(cx, teamId, orgName, repoName);
  if (ta.team.includesAllRepositories) return ta.team;
  await withTx(cx, async (tx, emit) => {
    const { count } = await tx.teamRepo.deleteMany({ where: { teamId, repoId: repo.id } });
    if (!count) return;
    await refreshRepoCount(tx, teamId);
    emit({ type: 'team.repoRemoved', teamId, orgId: ta.team.orgId, repoId: repo.id, actorId: cx.viewer?.id ?? null });
  });
  return ta.team;
}

/**
 * The unique filter for `node(id:)` of a repository: the id when the viewer may see it, else one that
 * matches nothing (an invisible repository is simply absent).
 */
export async function visibleRepoWhere(cx: ServiceContext, repoId: number): Promise<Models.Prisma.RepositoryWhereUniqueInput> {
  const perm = repoId > 0 ? await cx.loaders.repoPermission.load(repoId) : null;
  if (!perm || !canReadAny(perm)) return { id: 0 };
  return { id: repoId, ...(cx.auth.scope?.publicOnly ? { isPrivate: false } : {}) };
}
