import type { Models } from '../../db/client.ts';
import { canReadAny, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import { TEAM_INCLUDE, type TeamRow } from '../org/teamAccess.ts';

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

/** Loads repositories for the REST converter, with pending-transfer teams, in the order of `args`. */
export async function loadApiRepos(cx: ServiceContext, args: Omit<Models.Prisma.RepositoryFindManyArgs, 'include' | 'select'>): Promise<ApiRepoRow[]> {
  const rows: ApiRepoRow[] = await cx.db.repository.findMany({ ...args, include: REPO_API_INCLUDE });
  // A fork's parent is shown only to viewers who may see it (Gitea converts it with the fork's permission).
  const parents = rows.flatMap((r) => (r.forkOf ? [r.forkOf] : []));
  if (parents.length) {
    const visible = await visibleRepoIds(cx, parents);
    for (const r of rows) if (r.forkOf && !visible.has(r.forkOf.id)) r.forkOf = null;
  }
  const pending = rows.filter((r) => r.status === 'PENDING_TRANSFER' && r.transfer);
  const ids = [...new Set(pending.flatMap((r) => teamIdsOf(r.transfer)))];
  if (ids.length) {
    const teams = await cx.db.team.findMany({ where: { id: { in: ids } }, include: TEAM_INCLUDE });
    for (const r of pending) r.transferTeams = teams.filter((t) => teamIdsOf(r.transfer).includes(t.id));
  }
  return rows;
}

/** True when the viewer may see the repository with this permission (public-only tokens never see private ones). */
export function visibleTo(cx: ServiceContext, repo: Pick<Models.Repository, 'isPrivate'>, perm: RepoPermission): boolean {
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

/** Pairs loaded rows with the viewer's permission (one batched load) and keeps the visible ones, in order. */
export async function withPermissions(cx: ServiceContext, rows: readonly ApiRepoRow[]): Promise<RepoWithPermission[]> {
  const perms = await cx.loaders.repoPermission.loadMany(rows.map((r) => r.id));
  const items: RepoWithPermission[] = [];
  rows.forEach((repo, i) => {
    const perm = perms[i];
    if (perm && !(perm instanceof Error) && visibleTo(cx, repo, perm)) items.push({ repo, perm });
  });
  return items;
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
