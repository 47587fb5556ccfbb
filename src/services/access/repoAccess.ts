import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, RepoArchivedError } from '../../errors.ts';
import { canRead, canReadAny, canWrite, isRepoAdmin, type RepoPermission } from '../../permissions/repoPermission.ts';
import type { UnitType } from '../../permissions/units.ts';
import type { ServiceContext } from '../context.ts';
import { readRows, type Param } from '../../db/readPath.ts';
import { sql } from '../../db/sqlText.ts';
import { rowWith } from '../../db/rowShape.ts';
import { repoFactsOf, type RepoFacts } from '../../loaders/permissionLoaders.ts';
import { isSiteAdmin, requireViewer } from './guards.ts';
import { requireNeed, requireWriteScopes, type ScopeNeed, type WriteNeed } from './writeGate.ts';

type Repository = Models.Repository;

/** How transports name a repository: `owner/repo` as in the URL. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** A repository together with the viewer's permission on it. */
export interface RepoAccess {
  repo: Repository;
  perm: RepoPermission;
  /** Its access facts, when the request read them (requireRepo): other users' permissions need not read them again. */
  facts?: RepoFacts;
}

type WithOwnerFacts = Repository & { ownerType: Models.UserType; ownerVisibility: Models.Visibility };

const byOwnerAndName = `FROM "Repository" r JOIN "User" o ON o."id" = r."ownerId" WHERE r."lowerName" = ? AND o."lowerName" = ?`;

/** A repository by owner and name (case-insensitive, one statement on the read path), with its owner's facts. */
async function repoWithOwnerFacts(db: DbLike, owner: string, name: string): Promise<WithOwnerFacts | undefined> {
  const text = sql`SELECT r.*, o."type" AS "ownerType", o."visibility" AS "ownerVisibility" ${byOwnerAndName}`;
  return (await readRows<'Repository', WithOwnerFacts>(db, 'Repository', text, [name.toLowerCase(), owner.toLowerCase()]))[0];
}

/**
 * A repository (found by `from`, a FROM … WHERE clause joining its owner as `o`) with its access facts: its owner's,
 * and its enabled units as one text (`string_agg` is the same SQL in SQLite ≥ 3.44 and PostgreSQL; unit names hold
 * no comma). One statement instead of two, on every request that names a repository.
 */
async function repoWithAccessFacts(db: DbLike, from: string, params: Param[]): Promise<{ repo: Repository; facts: RepoFacts } | null> {
  const text = sql`SELECT r.*, o."type" AS "ownerType", o."visibility" AS "ownerVisibility",
      (SELECT string_agg(CAST(u."type" AS TEXT), ',') FROM "RepoUnit" u WHERE u."repoId" = r."id") AS "unitTypes" ${from}`;
  const [row] = await readRows<'Repository', WithOwnerFacts & { unitTypes: string | null }>(db, 'Repository', text, params);
  if (!row) return null;
  const units = row.unitTypes ? row.unitTypes.split(',').map((type) => ({ type: type as Models.RepoUnitType })) : [];
  return { repo: rowWith('Repository', row, {}), facts: repoFactsOf(row, units) };
}

/** Finds a repository by owner and name (case-insensitive) without permission checks. */
export async function findRepoByName(db: DbLike, owner: string, name: string): Promise<Repository | null> {
  const row = await repoWithOwnerFacts(db, owner, name);
  if (!row) return null;
  return rowWith('Repository', row, {});
}

/** A repository by owner and name (case-insensitive) with its access facts, in one statement; null when missing. */
export function findRepoWithFacts(db: DbLike, owner: string, name: string): Promise<{ repo: Repository; facts: RepoFacts } | null> {
  return repoWithAccessFacts(db, byOwnerAndName, [name.toLowerCase(), owner.toLowerCase()]);
}

/** A repository by id with its access facts, in one statement; null when missing. */
export function findRepoWithFactsById(db: DbLike, id: number): Promise<{ repo: Repository; facts: RepoFacts } | null> {
  return repoWithAccessFacts(db, `FROM "Repository" r JOIN "User" o ON o."id" = r."ownerId" WHERE r."id" = ?`, [id]);
}

/** The viewer's permission on a repository (batched per request through the loader). */
export function repoPermission(cx: ServiceContext, repoId: number): Promise<RepoPermission> {
  return cx.loaders.repoPermission.load(repoId);
}

/**
 * The repository `owner/name` if the viewer can see it (Gitea repoAssignment): private looks like missing.
 * A public-only token reaches public repositories of public owners only (a fact of the permission model).
 * Loaded with its access facts, which the permission loader reuses.
 * @throws NotFoundError
 */
export async function requireRepo(cx: ServiceContext, owner: string, name: string): Promise<RepoAccess> {
  const handed = cx.loaders.pathRepo;
  if (handed) {
    cx.loaders.pathRepo = null;
    if (handed.key === repoKey(owner, name)) return { repo: handed.repo, perm: handed.perm, facts: handed.facts };
  }
  const found = await findRepoWithFacts(cx.db, owner, name);
  if (!found) throw new NotFoundError('repository does not exist', { owner, name });
  const { repo, facts } = found;
  return { ...(await requireRepoAccessWithFacts(cx, repo, facts)), facts };
}

const repoKey = (owner: string, name: string) => `${owner.toLowerCase()}/${name.toLowerCase()}`;

/**
 * requireRepo for the repository a REST request's path names, before its body is read (src/rest/preflight.ts):
 * the service's own requireRepo of it then costs no statement (Loaders.pathRepo).
 * @throws NotFoundError
 */
export async function requirePathRepo(cx: ServiceContext, owner: string, name: string): Promise<void> {
  const access = await requireRepo(cx, owner, name);
  cx.loaders.pathRepo = { key: repoKey(owner, name), ...access };
}

/**
 * The viewer's permission on the repository whose access facts are at hand: decided by them alone where no row of
 * the viewer's could change it (Loaders.permissionFromFacts: anonymous viewers, owners, site admins), else loaded
 * with the facts primed. They serve this load only: a permission already cached ignores them, and a later reload
 * (after a write) reads fresh rows.
 */
export async function permissionWithFacts(cx: ServiceContext, facts: RepoFacts): Promise<RepoPermission> {
  const known = cx.loaders.permissionFromFacts(facts);
  if (known) return known;
  cx.loaders.repoFacts.set(facts.id, facts);
  try {
    return await repoPermission(cx, facts.id);
  } finally {
    cx.loaders.repoFacts.delete(facts.id);
  }
}

/** Same as requireRepo, for an already-loaded repository row. @throws NotFoundError */
export async function requireRepoAccess(cx: ServiceContext, repo: Repository): Promise<RepoAccess> {
  return readableAccess(repo, await repoPermission(cx, repo.id));
}

/** Same, for a repository whose access facts are at hand (permissionWithFacts). @throws NotFoundError */
export async function requireRepoAccessWithFacts(cx: ServiceContext, repo: Repository, facts: RepoFacts): Promise<RepoAccess> {
  return readableAccess(repo, await permissionWithFacts(cx, facts));
}

/** The repository with the viewer's permission on it, if that reads some unit: else it does not exist. @throws NotFoundError */
function readableAccess(repo: Repository, perm: RepoPermission): RepoAccess {
  if (!canReadAny(perm)) {
    throw new NotFoundError('repository does not exist', { repoId: repo.id });
  }
  return { repo, perm };
}

/** A unit must be readable: a disabled or unreadable unit does not exist. @throws NotFoundError */
export function requireUnitRead(access: RepoAccess, unit: UnitType): void {
  if (!canRead(access.perm, unit)) throw new NotFoundError('not found', { unit });
}

/**
 * The write gate of a repository, for writes whose permission rule is the caller's (poster or writer, any
 * reader, …): the token's write scope, and no private repository for a public-only token (404).
 * @throws PermissionDeniedError, NotFoundError
 */
export function requireRepoWrite(cx: ServiceContext, access: RepoAccess, need: WriteNeed | readonly WriteNeed[]): void {
  requireWriteScopes(cx, need, { repo: access.repo });
}

/**
 * A unit (or any of several) must be writable, through the write gate, and the repository not archived
 * (Gitea mustNotBeArchived + reqRepoWriter).
 * @throws PermissionDeniedError, NotFoundError, RepoArchivedError
 */
export function requireUnitWrite(
  cx: ServiceContext,
  access: RepoAccess,
  unit: UnitType | readonly UnitType[],
  need: WriteNeed | readonly WriteNeed[],
): void {
  requireRepoWrite(cx, access, need);
  if (access.repo.isArchived) throw new RepoArchivedError();
  const units: readonly UnitType[] = typeof unit === 'string' ? [unit] : unit;
  if (!units.some((u) => canWrite(access.perm, u))) {
    throw new PermissionDeniedError('user should have a permission to write to a repo', { units });
  }
}

/**
 * Repository settings need admin (Gitea reqAdmin), with the token scope first; a write goes through the
 * write gate. @throws PermissionDeniedError, NotFoundError
 */
export function requireRepoAdmin(cx: ServiceContext, access: RepoAccess, need: ScopeNeed): void {
  requireNeed(cx, need, { repo: access.repo });
  if (!isRepoAdmin(access.perm)) {
    throw new PermissionDeniedError('user should be an owner or a collaborator with admin write of a repository');
  }
}

/**
 * The repository, visible (404 otherwise), for a signed-in viewer (401) — Gitea's repoAssignment then reqToken.
 * @throws NotFoundError, UnauthenticatedError
 */
export async function requireSignedInRepo(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireViewer(cx);
  return access;
}

/**
 * Same, plus repository admin (Gitea reqAdmin, 403) with the token scope `need` (a write through the write gate).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function requireAdminRepo(cx: ServiceContext, ref: RepoRef, need: ScopeNeed): Promise<RepoAccess> {
  const access = await requireSignedInRepo(cx, ref);
  requireRepoAdmin(cx, access, need);
  return access;
}

/**
 * The repository for a signed-in viewer who can read some unit of it, or a site admin (Gitea repoAssignment,
 * reqToken, reqAnyRepoReader: 404, then 401, then 403).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function requireAnyRepoReader(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess> {
  const access = await requireSignedInRepo(cx, ref);
  if (!canReadAny(access.perm) && !isSiteAdmin(cx)) {
    throw new PermissionDeniedError('user should have any permission to read repository or permissions of site admin');
  }
  return access;
}
