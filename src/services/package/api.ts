// The package API of /api/v1/packages/{owner} (Gitea routers/api/v1/packages/package.go): versions as Package
// JSON, files, latest, deletion and repository links. Lists load their relations in bulk.
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { packageOwnerAccess, requirePackageAccess, type PackageOwnerAccess } from '../access/packageAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { loadApiRepos, withPermissions, type RepoWithPermission } from '../repo/repoRows.ts';
import { removeVersions } from './store.ts';
import { packageReadWhere, packageVersionReadWhere } from './visibility.ts';

/** Gitea's package type names (the `type` of Package JSON and of the URLs). */
export const PACKAGE_TYPES = [
  'alpine',
  'arch',
  'cargo',
  'chef',
  'composer',
  'conan',
  'conda',
  'container',
  'cran',
  'debian',
  'generic',
  'go',
  'helm',
  'maven',
  'npm',
  'nuget',
  'pub',
  'pypi',
  'rpm',
  'rubygems',
  'swift',
  'vagrant',
] as const;

/** A package version with what its JSON shows; `repository` only when linked and readable by the viewer. */
export interface PackageVersionView {
  version: Models.PackageVersion;
  pkg: Models.Package;
  owner: Models.User;
  creator: Models.User | null;
  repository: RepoWithPermission | null;
}

/** Names a package of an owner. */
export interface PackageRef {
  owner: string;
  type: string;
  name: string;
}

/** The database value of a type name; null for an unknown type. */
export function packageTypeOf(type: string): Models.PackageType | null {
  return (PACKAGE_TYPES as readonly string[]).includes(type) ? (type.toUpperCase() as Models.PackageType) : null;
}

const VERSION_INCLUDE = { package: { include: { owner: true } }, creator: true } as const;
type VersionRow = Models.Prisma.PackageVersionGetPayload<{ include: typeof VERSION_INCLUDE }>;

/** Adds the linked repositories the viewer may read (two statements at most, whatever the number of rows). */
async function toViews(cx: ServiceContext, rows: readonly VersionRow[]): Promise<PackageVersionView[]> {
  const repoIds = [...new Set(rows.flatMap((r) => (r.package.repoId ? [r.package.repoId] : [])))];
  const repos = repoIds.length ? await withPermissions(cx, await loadApiRepos(cx, { where: { id: { in: repoIds } } })) : [];
  const byId = new Map(repos.map((r) => [r.repo.id, r]));
  return rows.map((r) => ({
    version: r,
    pkg: r.package,
    owner: r.package.owner,
    creator: r.creator,
    repository: r.package.repoId ? (byId.get(r.package.repoId) ?? null) : null,
  }));
}

async function ownerFor(cx: ServiceContext, owner: string, level: 'read' | 'write'): Promise<PackageOwnerAccess> {
  const access = await packageOwnerAccess(cx, owner);
  requirePackageAccess(cx, access, level);
  return access;
}

/** The package named by `ref` (Gitea PackageAssignmentAPI). @throws NotFoundError */
async function findPackage(cx: ServiceContext, access: PackageOwnerAccess, ref: PackageRef): Promise<Models.Package> {
  const type = packageTypeOf(ref.type);
  const pkg = type
    ? await cx.db.package.findUnique({
        where: { ownerId_type_lowerName: { ownerId: access.owner.id, type, lowerName: ref.name.toLowerCase() } },
      })
    : null;
  if (!pkg) throw new NotFoundError('GetPackageByName: package does not exist');
  return pkg;
}

/**
 * Gitea's order: the owner (404), the package (404), then reqPackageAccess, so an outsider learns that a private
 * owner's package exists (403) but not that a missing one does not (404 either way).
 */
async function packageFor(
  cx: ServiceContext,
  ref: PackageRef,
  level: 'read' | 'write',
): Promise<{ access: PackageOwnerAccess; pkg: Models.Package }> {
  const access = await packageOwnerAccess(cx, ref.owner);
  const pkg = await findPackage(cx, access, ref);
  requirePackageAccess(cx, access, level);
  return { access, pkg };
}

async function findVersion(cx: ServiceContext, ref: PackageRef, version: string, level: 'read' | 'write'): Promise<VersionRow> {
  const { pkg } = await packageFor(cx, ref, level);
  const row = await cx.db.packageVersion.findUnique({
    where: { packageId_lowerVersion: { packageId: pkg.id, lowerVersion: version.toLowerCase() } },
    include: VERSION_INCLUDE,
  });
  if (!row || row.isInternal) throw new NotFoundError('GetVersionByNameAndVersion: package does not exist');
  return row;
}

/**
 * GET /packages/{owner}: the owner's package versions, newest first, filtered by `type` and by a name substring.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function listOwnerPackages(
  cx: ServiceContext,
  owner: string,
  filter: { type?: string; q?: string },
  opts: ListOptions | ListWindow,
): Promise<Page<PackageVersionView>> {
  const access = await ownerFor(cx, owner, 'read');
  const type = filter.type ? packageTypeOf(filter.type) : undefined;
  if (type === null) return { items: [], total: 0 };
  const where: Models.Prisma.PackageVersionWhereInput = {
    isInternal: false,
    package: {
      ownerId: access.owner.id,
      ...(type ? { type } : {}),
      ...(filter.q ? { lowerName: { contains: filter.q.toLowerCase() } } : {}),
    },
  };
  const [rows, total] = await Promise.all([
    cx.db.packageVersion.findMany({ where, include: VERSION_INCLUDE, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...skipTake(opts) }),
    cx.db.packageVersion.count({ where }),
  ]);
  return { items: await toViews(cx, rows), total };
}

/** GET /packages/{owner}/{type}/{name}: the package's versions, newest first. @throws NotFoundError, PermissionDeniedError */
export async function listPackageVersions(
  cx: ServiceContext,
  ref: PackageRef,
  opts: ListOptions | ListWindow,
): Promise<Page<PackageVersionView>> {
  const { pkg } = await packageFor(cx, ref, 'read');
  const where = { packageId: pkg.id, isInternal: false };
  const [rows, total] = await Promise.all([
    cx.db.packageVersion.findMany({ where, include: VERSION_INCLUDE, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...skipTake(opts) }),
    cx.db.packageVersion.count({ where }),
  ]);
  return { items: await toViews(cx, rows), total };
}

/** GET /packages/{owner}/{type}/{name}/{version}. @throws NotFoundError, PermissionDeniedError */
export async function getPackageVersion(cx: ServiceContext, ref: PackageRef, version: string): Promise<PackageVersionView> {
  const [view] = await toViews(cx, [await findVersion(cx, ref, version, 'read')]);
  if (!view) throw new NotFoundError('package does not exist');
  return view;
}

/**
 * GET /packages/{owner}/{type}/{name}/-/latest: the most recently uploaded version (highest id), not the highest
 * semver. @throws NotFoundError (`not found` when there is no version), PermissionDeniedError
 */
export async function getLatestPackageVersion(cx: ServiceContext, ref: PackageRef): Promise<PackageVersionView> {
  const { pkg } = await packageFor(cx, ref, 'read');
  const row = await cx.db.packageVersion.findFirst({
    where: { packageId: pkg.id, isInternal: false },
    orderBy: { id: 'desc' },
    include: VERSION_INCLUDE,
  });
  if (!row) throw new NotFoundError('not found');
  const [view] = await toViews(cx, [row]);
  if (!view) throw new NotFoundError('not found');
  return view;
}

/** A file with its blob's hashes. */
export type PackageFileView = Models.PackageFile & { blob: Models.PackageBlob };

/** GET /packages/{owner}/{type}/{name}/{version}/files. @throws NotFoundError, PermissionDeniedError */
export async function listPackageFiles(cx: ServiceContext, ref: PackageRef, version: string): Promise<PackageFileView[]> {
  const row = await findVersion(cx, ref, version, 'read');
  return cx.db.packageFile.findMany({ where: { versionId: row.id }, include: { blob: true }, orderBy: { id: 'asc' } });
}

/** DELETE /packages/{owner}/{type}/{name}/{version}. @throws NotFoundError, PermissionDeniedError */
export async function deletePackageVersion(cx: ServiceContext, ref: PackageRef, version: string): Promise<void> {
  await removeVersions(cx, [await findVersion(cx, ref, version, 'write')]);
}

/** DELETE /packages/{owner}/{type}/{name}: every version. @throws NotFoundError, PermissionDeniedError */
export async function deletePackage(cx: ServiceContext, ref: PackageRef): Promise<void> {
  const { pkg } = await packageFor(cx, ref, 'write');
  const versions = await cx.db.packageVersion.findMany({ where: { packageId: pkg.id }, include: { package: true } });
  if (versions.length) await removeVersions(cx, versions);
  else await cx.db.package.delete({ where: { id: pkg.id } });
}

async function requirePackagesWrite(cx: ServiceContext, repo: Models.Repository): Promise<void> {
  const perm = await cx.loaders.repoPermission.load(repo.id);
  if (!canWrite(perm, 'PACKAGES')) throw new PermissionDeniedError('no permission to link this package and repository');
}

/**
 * POST /packages/{owner}/{type}/{name}/-/link/{repo_name}: links the package to a repository of the same owner
 * (write access to its packages). @throws NotFoundError, PermissionDeniedError, InvalidArgumentError (already linked)
 */
export async function linkPackage(cx: ServiceContext, ref: PackageRef, repoName: string): Promise<void> {
  const { access, pkg } = await packageFor(cx, ref, 'write');
  const repo = await cx.db.repository.findFirst({ where: { ownerId: access.owner.id, lowerName: repoName.toLowerCase() } });
  const perm = repo ? await cx.loaders.repoPermission.load(repo.id) : null;
  if (!repo || !perm || perm.mode === 'NONE') throw new NotFoundError('repository does not exist');
  if (pkg.repoId) throw new InvalidArgumentError('package is already linked to a repository');
  await requirePackagesWrite(cx, repo);
  await cx.db.package.update({ where: { id: pkg.id }, data: { repoId: repo.id } });
}

/**
 * POST /packages/{owner}/{type}/{name}/-/unlink: removes the repository link (write access to the linked
 * repository's packages). @throws NotFoundError, PermissionDeniedError, InvalidArgumentError (not linked)
 */
export async function unlinkPackage(cx: ServiceContext, ref: PackageRef): Promise<void> {
  const { pkg } = await packageFor(cx, ref, 'write');
  if (!pkg.repoId) throw new InvalidArgumentError('package is not linked to a repository');
  const repo = await cx.db.repository.findUnique({ where: { id: pkg.repoId } });
  if (repo) await requirePackagesWrite(cx, repo);
  await cx.db.package.update({ where: { id: pkg.id }, data: { repoId: null } });
}

/** The ref of a package by id, when the viewer may read it (GraphQL mutations name packages by id). @throws NotFoundError */
export async function packageRefById(cx: ServiceContext, id: number): Promise<PackageRef> {
  const pkg = await cx.db.package.findFirst({ where: { AND: [{ id }, packageReadWhere(cx)] }, include: { owner: true } });
  if (!pkg) throw new NotFoundError('package does not exist', { id });
  return { owner: pkg.owner.name, type: pkg.type.toLowerCase(), name: pkg.name };
}

/** The ref and version name of a package version by id, when the viewer may read it. @throws NotFoundError */
export async function packageVersionRefById(cx: ServiceContext, id: number): Promise<PackageRef & { version: string }> {
  const row = await cx.db.packageVersion.findFirst({
    where: { AND: [{ id }, packageVersionReadWhere(cx)] },
    include: { package: { include: { owner: true } } },
  });
  if (!row) throw new NotFoundError('package version does not exist', { id });
  return { owner: row.package.owner.name, type: row.package.type.toLowerCase(), name: row.package.name, version: row.version };
}
