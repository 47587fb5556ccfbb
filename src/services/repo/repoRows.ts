import type { Models } from '../../db/client.ts';
import { canReadAny, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import { TEAM_INCLUDE, type TeamRow } from '../access/teamAccess.ts';
import { readableRepoIds } from './visibility.ts';

/**
 * The relations every Repository JSON needs, loaded with the rows. Mirrors, pending transfers and fork parents
 * are loaded afterwards, and only for the rows that have them (most have none, and each include costs a query).
 */
const REPO_RELATIONS = {
  owner: true,
  units: { select: { type: true, config: true } },
  languageStats: { where: { isPrimary: true }, select: { language: true } },
  licenses: { select: { license: true }, orderBy: { license: 'asc' } },
  _count: { select: { releases: { where: { isDraft: false, isTag: false } }, branches: { where: { isDeleted: false } } } },
} as const satisfies Models.Prisma.RepositoryInclude;

type CoreRow = Models.Prisma.RepositoryGetPayload<{ include: typeof REPO_RELATIONS }>;
type TransferRow = Models.RepoTransfer & { doer: Models.User; recipient: Models.User };
/** A repository with the relations of its JSON (a fork parent is converted from one of these). */
export type ApiRepoCore = CoreRow & { mirror: Models.Mirror | null; transfer: TransferRow | null };

/** A repository row with everything the REST converter reads, the visible fork parent included. */
export type ApiRepoRow = ApiRepoCore & { forkOf: ApiRepoCore | null; transferTeams?: TeamRow[] };

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

/** Adds mirrors and pending transfers to core rows, with one query for each kind only when some row has one. */
async function withExtras(cx: ServiceContext, rows: readonly CoreRow[]): Promise<ApiRepoCore[]> {
  const mirrorIds = rows.filter((r) => r.isMirror).map((r) => r.id);
  const transferIds = rows.filter((r) => r.status === 'PENDING_TRANSFER').map((r) => r.id);
  const [mirrors, transfers] = await Promise.all([
    mirrorIds.length ? cx.db.mirror.findMany({ where: { repoId: { in: mirrorIds } } }) : [],
    transferIds.length
      ? cx.db.repoTransfer.findMany({ where: { repoId: { in: transferIds } }, include: { doer: true, recipient: true } })
      : [],
  ]);
  const mirrorOf = new Map(mirrors.map((m) => [m.repoId, m]));
  const transferOf = new Map(transfers.map((t) => [t.repoId, t]));
  return rows.map((r) => ({ ...r, mirror: mirrorOf.get(r.id) ?? null, transfer: transferOf.get(r.id) ?? null }));
}

/**
 * Loads repositories for the REST converter, in the order of `args`: their relations, the fork parents the
 * viewer may see (Gitea converts a parent with the fork's permission; we hide one the viewer may not see), and
 * the teams of pending transfers.
 */
export async function loadApiRepos(
  cx: ServiceContext,
  args: Omit<Models.Prisma.RepositoryFindManyArgs, 'include' | 'select'>,
): Promise<ApiRepoRow[]> {
  const core = await cx.db.repository.findMany({ ...args, include: REPO_RELATIONS });
  const parentIds = [...new Set(core.flatMap((r) => (r.isFork && r.forkId !== null ? [r.forkId] : [])))];
  const parentRows = parentIds.length ? await cx.db.repository.findMany({ where: { id: { in: parentIds } }, include: REPO_RELATIONS }) : [];
  const visible = parentRows.length ? await readableRepoIds(cx, parentRows) : new Set<number>();
  const [withRel, parents] = await Promise.all([
    withExtras(cx, core),
    withExtras(
      cx,
      parentRows.filter((p) => visible.has(p.id)),
    ),
  ]);
  const parentOf = new Map(parents.map((p) => [p.id, p]));
  const rows: ApiRepoRow[] = withRel.map((r) => ({
    ...r,
    forkOf: r.isFork && r.forkId !== null ? (parentOf.get(r.forkId) ?? null) : null,
  }));
  const pending = rows.filter((r) => r.status === 'PENDING_TRANSFER' && r.transfer);
  const ids = [...new Set(pending.flatMap((r) => teamIdsOf(r.transfer)))];
  if (ids.length) {
    const teams = await cx.db.team.findMany({ where: { id: { in: ids } }, include: TEAM_INCLUDE });
    for (const r of pending) r.transferTeams = teams.filter((t) => teamIdsOf(r.transfer).includes(t.id));
  }
  return rows;
}

/** Pairs loaded rows with the viewer's permission (one batched load) and keeps the visible ones, in order. */
export async function withPermissions(cx: ServiceContext, rows: readonly ApiRepoRow[]): Promise<RepoWithPermission[]> {
  const perms = await cx.loaders.repoPermission.loadMany(rows.map((r) => r.id));
  const items: RepoWithPermission[] = [];
  rows.forEach((repo, i) => {
    const perm = perms[i];
    if (perm && !(perm instanceof Error) && canReadAny(perm)) items.push({ repo, perm });
  });
  return items;
}
