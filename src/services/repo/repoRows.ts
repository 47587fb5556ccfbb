import type { Models } from '../../db/client.ts';
import { usersByIds } from '../../loaders/usersByIds.ts';
import { readRows } from '../../db/readPath.ts';
import { rowWith } from '../../db/rowShape.ts';
import { NotFoundError } from '../../errors.ts';
import { canReadAny, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { ServiceContext } from '../context.ts';
import { TEAM_INCLUDE, type TeamRow } from '../access/teamAccess.ts';
import { readableRepoIds } from './visibility.ts';
import { groupBy } from '../../groupBy.ts';

/** A repository with the relations every Repository JSON needs (loaded by withRelations). */
type CoreRow = Models.Repository & {
  owner: Models.User;
  units: Pick<Models.RepoUnit, 'type' | 'config'>[];
  /** The primary language, if any. */
  languageStats: { language: string }[];
  licenses: { license: string }[];
  /** Published releases (not drafts, not plain tags) and live branches. */
  _count: { releases: number; branches: number };
};
/** What a Repository JSON needs beside the row's own columns. */
type Relations = Omit<CoreRow, keyof Models.Repository>;
type TransferRow = Models.RepoTransfer & { doer: Models.User; recipient: Models.User };
/** A repository's mirror and pending transfer. */
type Extras = { mirror: Models.Mirror | null; transfer: TransferRow | null };
/** A repository with the relations of its JSON (a fork parent is converted from one of these). */
export type ApiRepoCore = CoreRow & Extras;

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

/** The mirror and pending transfer of each row that has one, with one query for each kind only when some row has one. */
async function extrasOf(cx: ServiceContext, rows: readonly Models.Repository[]): Promise<(id: number) => Extras> {
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
  return (id) => ({ mirror: mirrorOf.get(id) ?? null, transfer: transferOf.get(id) ?? null });
}

type ByRepo<T> = T & { repoId: number };
/** Rows by repository, handed out with their `repoId` (an object rest leaving it out cost ~0.3 µs a row on Node 20). */
const byRepo = <T>(rows: readonly ByRepo<T>[]): Map<number, T[]> => groupBy(rows, (r) => r.repoId);

/** License names (SPDX identifiers) never hold a newline. */
const LICENSE_SEPARATOR = '\n';

/**
 * The relations of every Repository JSON for many rows (in their order), on the read path (src/db/readPath.ts), in
 * three statements: owners, units, and one row per repository with its primary language, its licenses (one text,
 * newline-separated: `string_agg(… ORDER BY …)` is the same SQL in SQLite ≥ 3.44 and PostgreSQL) and its release and
 * branch counts.
 */
async function relationsOf(cx: ServiceContext, repos: readonly Models.Repository[]): Promise<Relations[]> {
  if (!repos.length) return [];
  const ids = repos.map((r) => r.id);
  const facts = `SELECT r."id" AS "repoId",
      (SELECT l."language" FROM "LanguageStat" l WHERE l."repoId" = r."id" AND l."isPrimary" = ? ORDER BY l."id" LIMIT 1) AS "language",
      (SELECT string_agg(x."license", ? ORDER BY x."license") FROM "RepoLicense" x WHERE x."repoId" = r."id") AS "licenses",
      (SELECT COUNT(*) FROM "Release" x WHERE x."repoId" = r."id" AND x."isDraft" = ? AND x."isTag" = ?) AS "releases",
      (SELECT COUNT(*) FROM "Branch" b WHERE b."repoId" = r."id" AND b."isDeleted" = ?) AS "branches"
    FROM "Repository" r WHERE r."id" IN (?)`;
  type Facts = { repoId: number; language: string | null; licenses: string | null; releases: number | bigint; branches: number | bigint };
  const [owners, units, factRows] = await Promise.all([
    usersByIds(cx.db, [...new Set(repos.map((r) => r.ownerId))]),
    readRows<'RepoUnit', ByRepo<CoreRow['units'][number]>>(
      cx.db,
      'RepoUnit',
      'SELECT "repoId", "type", "config" FROM "RepoUnit" WHERE "repoId" IN (?)',
      [ids],
    ),
    readRows<'Repository', Facts>(cx.db, 'Repository', facts, [true, LICENSE_SEPARATOR, false, false, false, ids]),
  ]);
  const ownerById = new Map(owners.map((u) => [u.id, u]));
  const unitsOf = byRepo(units);
  const factsOf = new Map(factRows.map((f) => [f.repoId, f]));
  return repos.map((r) => {
    const owner = ownerById.get(r.ownerId);
    if (!owner) throw new NotFoundError('repository owner does not exist', { repoId: r.id });
    const f = factsOf.get(r.id);
    return {
      owner,
      units: unitsOf.get(r.id) ?? [],
      languageStats: f?.language ? [{ language: f.language }] : [],
      licenses: f?.licenses ? f.licenses.split(LICENSE_SEPARATOR).map((license) => ({ license })) : [],
      _count: { releases: Number(f?.releases ?? 0), branches: Number(f?.branches ?? 0) },
    };
  });
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
  return loadApiRepoRows(cx, await cx.db.repository.findMany(args));
}

/** loadApiRepos for repository rows already at hand. */
export async function loadApiRepoRows(cx: ServiceContext, repos: readonly Models.Repository[]): Promise<ApiRepoRow[]> {
  // Each row is built once, with every relation (rowWith: no spread of the wide repository row).
  const parentIds = [...new Set(repos.flatMap((r) => (r.isFork && r.forkId !== null ? [r.forkId] : [])))];
  const parentRows = parentIds.length
    ? await readRows(cx.db, 'Repository', 'SELECT * FROM "Repository" WHERE "id" IN (?)', [parentIds])
    : [];
  const [relations, parentRelations, visible] = await Promise.all([
    relationsOf(cx, repos),
    relationsOf(cx, parentRows),
    parentRows.length ? readableRepoIds(cx, parentRows) : new Set<number>(),
  ]);
  const shown = parentRows.flatMap((p, i) => (visible.has(p.id) ? [{ row: p, relations: parentRelations[i]! }] : []));
  const [extras, parentExtras] = await Promise.all([
    extrasOf(cx, repos),
    extrasOf(
      cx,
      shown.map((p) => p.row),
    ),
  ]);
  const parentOf = new Map(
    shown.map(({ row, relations }) => [row.id, rowWith('Repository', row, { ...relations, ...parentExtras(row.id) })]),
  );
  const rows: ApiRepoRow[] = repos.map((r, i) =>
    rowWith('Repository', r, {
      ...relations[i]!,
      ...extras(r.id),
      forkOf: r.isFork && r.forkId !== null ? (parentOf.get(r.forkId) ?? null) : null,
    }),
  );
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
