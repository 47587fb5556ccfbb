// The npm registry (Gitea routers/api/packages/npm): publish, packument, tarballs, dist-tags, unpublish, search.
import { Readable } from 'node:stream';
import type { DbTx, Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { packageOwnerAccess, requirePackageAccess, type PackageOwnerAccess } from '../access/packageAccess.ts';
import type { ServiceContext } from '../context.ts';
import { stageBlob } from './blobStore.ts';
import { openPackageFile, type PackageDownload } from './files.ts';
import { parseNpmUpload, type NpmMetadata } from './npmPublish.ts';
import { compareVersions, parseSemver } from './semver.ts';
import { addPackageFile, removeVersions } from './store.ts';

/** The version property holding one dist-tag (Gitea npm_module.TagProperty). */
const TAG_PROPERTY = 'npm.tag';
const INVALID_TAG = 'The tag name is invalid';

type VersionWithFiles = Models.PackageVersion & {
  files: (Models.PackageFile & { blob: Models.PackageBlob })[];
  properties: Models.PackageProperty[];
};
type NpmPackage = Models.Package & { owner: Models.User; versions: VersionWithFiles[] };

function metadataOf(v: Pick<Models.PackageVersion, 'metadataJson'>): NpmMetadata {
  try {
    return JSON.parse(v.metadataJson || '{}') as NpmMetadata;
  } catch {
    return {};
  }
}

async function ownerFor(cx: ServiceContext, owner: string, level: 'read' | 'write'): Promise<PackageOwnerAccess> {
  const access = await packageOwnerAccess(cx, owner);
  requirePackageAccess(cx, access, level);
  return access;
}

async function loadPackage(cx: ServiceContext, ownerId: number, name: string): Promise<NpmPackage | null> {
  return cx.db.package.findUnique({
    where: { ownerId_type_lowerName: { ownerId, type: 'NPM', lowerName: name.toLowerCase() } },
    include: {
      owner: true,
      versions: {
        where: { isInternal: false },
        include: { files: { include: { blob: true } }, properties: { where: { name: TAG_PROPERTY } } },
      },
    },
  });
}

async function requirePackage(cx: ServiceContext, ownerId: number, name: string): Promise<NpmPackage> {
  const pkg = await loadPackage(cx, ownerId, name);
  if (!pkg || !pkg.versions.length) throw new NotFoundError('package does not exist');
  return pkg;
}

/** The repository a `repository.url` names on this server, if any (Gitea GetRepositoryByURL). */
async function repoOfUrl(cx: ServiceContext, url: string | undefined): Promise<Models.Repository | null> {
  if (!url) return null;
  const root = cx.config.rootUrl;
  const plain = url.replace(/^git\+/, '');
  if (!plain.startsWith(root)) return null;
  const [owner, name] = plain
    .slice(root.length)
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .split('/');
  if (!owner || !name) return null;
  return cx.db.repository.findFirst({ where: { lowerName: name.toLowerCase(), owner: { lowerName: owner.toLowerCase() } } });
}

async function moveTag(tx: DbTx, pkg: Pick<Models.Package, 'id'>, versionId: number, tag: string): Promise<void> {
  await tx.packageProperty.deleteMany({ where: { name: TAG_PROPERTY, value: tag, version: { packageId: pkg.id } } });
  await tx.packageProperty.create({ data: { versionId, name: TAG_PROPERTY, value: tag } });
}

/**
 * PUT /{name}: publishes one version from npm's JSON body (the name comes from the body). When `repository.url`
 * names a repository here, the publisher needs write access to its packages and the package is linked to it.
 * @throws InvalidArgumentError (400), AlreadyExistsError (409), PermissionDeniedError, NotFoundError
 */
export async function publishNpm(cx: ServiceContext, owner: string, body: unknown): Promise<void> {
  const access = await ownerFor(cx, owner, 'write');
  const upload = parseNpmUpload(body);
  for (const tag of upload.distTags) if (parseSemver(tag)) throw new InvalidArgumentError(INVALID_TAG);
  const repo = await repoOfUrl(cx, upload.metadata.repository?.url);
  if (repo && repo.ownerId !== cx.viewer?.id) {
    const perm = await cx.loaders.repoPermission.load(repo.id);
    if (!canWrite(perm, 'PACKAGES')) throw new PermissionDeniedError('no permission to upload this package');
  }
  const limit = cx.config.packages.limitSizeNpm;
  const staged = await stageBlob(cx.config.packages.dir, Readable.from([upload.data]), limit);
  await addPackageFile(cx, access, {
    type: 'NPM',
    name: upload.name,
    semverCompatible: true,
    version: upload.version,
    metadataJson: JSON.stringify(upload.metadata),
    fileName: upload.filename,
    isLead: true,
    staged,
    addToExistingVersion: false,
    repoId: repo?.id ?? null,
    after: async (tx, rows) => {
      for (const tag of upload.distTags) await moveTag(tx, rows.pkg, rows.version.id, tag);
    },
  });
}

/** One version object of a packument. */
function versionDoc(registryUrl: string, pkg: NpmPackage, v: VersionWithFiles): Record<string, unknown> {
  const m = metadataOf(v);
  const file = v.files[0];
  const tarball = file
    ? `${registryUrl}/${encodeURIComponent(pkg.name)}/-/${encodeURIComponent(v.version)}/${encodeURIComponent(file.lowerName)}`
    : '';
  return {
    _id: `${pkg.name}@${v.version}`,
    name: pkg.name,
    version: v.version,
    description: m.description ?? '',
    author: { name: m.author ?? '' },
    ...(m.project_url ? { homepage: m.project_url } : {}),
    ...(m.license ? { license: m.license } : {}),
    ...(m.repository ? { repository: m.repository } : {}),
    ...(m.keywords ? { keywords: m.keywords } : {}),
    ...(m.dependencies ? { dependencies: m.dependencies } : {}),
    ...(m.development_dependencies ? { devDependencies: m.development_dependencies } : {}),
    ...(m.peer_dependencies ? { peerDependencies: m.peer_dependencies } : {}),
    ...(m.bin ? { bin: m.bin } : {}),
    ...(m.optional_dependencies ? { optionalDependencies: m.optional_dependencies } : {}),
    ...(m.readme ? { readme: m.readme } : {}),
    dist: file
      ? {
          integrity: `sha512-${Buffer.from(file.blob.hashSha512, 'hex').toString('base64')}`,
          shasum: file.blob.hashSha1,
          tarball,
        }
      : {},
    maintainers: [{ name: pkg.owner.name }],
  };
}

/** The registry URL of an owner's npm packages (no trailing slash). */
function registryUrlOf(cx: ServiceContext, owner: Models.User): string {
  return `${cx.config.rootUrl}api/packages/${encodeURIComponent(owner.name)}/npm`;
}

/**
 * GET /{name}: the packument (Gitea createPackageMetadataResponse): versions by semver, dist-tags from the tag
 * properties (`latest` falls back to the highest release), `time` per version plus created/modified, top-level
 * fields from the `latest` version.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function npmPackument(cx: ServiceContext, owner: string, name: string): Promise<Record<string, unknown>> {
  const access = await ownerFor(cx, owner, 'read');
  const pkg = await requirePackage(cx, access.owner.id, name);
  const sorted = [...pkg.versions].sort((a, b) => compareVersions(a.version, b.version));
  const registryUrl = registryUrlOf(cx, access.owner);
  const versions: Record<string, unknown> = {};
  const distTags: Record<string, string> = {};
  const time: Record<string, string> = {};
  let latest: VersionWithFiles | undefined;
  for (const v of sorted) {
    versions[v.version] = versionDoc(registryUrl, pkg, v);
    time[v.version] = v.createdAt.toISOString();
    for (const p of v.properties) {
      distTags[p.value] = v.version;
      if (p.value === 'latest') latest = v;
    }
  }
  const created = Math.min(...sorted.map((v) => v.createdAt.getTime()));
  const modified = Math.max(...sorted.map((v) => v.createdAt.getTime()));
  time.created = new Date(created).toISOString();
  time.modified = new Date(modified).toISOString();
  if (!latest) {
    latest = [...sorted].reverse().find((v) => !parseSemver(v.version)?.pre) ?? sorted[sorted.length - 1];
    if (latest) distTags.latest = latest.version;
  }
  const m = latest ? metadataOf(latest) : {};
  return {
    _id: pkg.name,
    name: pkg.name,
    description: m.description ?? '',
    'dist-tags': distTags,
    versions,
    ...(m.readme ? { readme: m.readme } : {}),
    maintainers: [{ name: access.owner.name }],
    time,
    ...(m.project_url ? { homepage: m.project_url } : {}),
    ...(m.keywords ? { keywords: m.keywords } : {}),
    ...(m.repository ? { repository: m.repository } : {}),
    author: { name: m.author ?? '' },
    ...(m.license ? { license: m.license } : {}),
  };
}

/**
 * GET /{name}/-/{version}/{filename} and /{name}/-/{filename}: the tarball (download count +1).
 * @throws NotFoundError, PermissionDeniedError
 */
export async function npmTarball(
  cx: ServiceContext,
  owner: string,
  name: string,
  version: string | null,
  filename: string,
): Promise<PackageDownload> {
  const access = await ownerFor(cx, owner, 'read');
  const pkg = await requirePackage(cx, access.owner.id, name);
  const lower = filename.toLowerCase();
  const v =
    version === null
      ? pkg.versions.find((x) => x.files.some((f) => f.lowerName === lower))
      : pkg.versions.find((x) => x.lowerVersion === version.toLowerCase());
  if (!v) throw new NotFoundError('package does not exist');
  return openPackageFile(cx, v.id, filename);
}

/** GET /-/package/{name}/dist-tags: tag → version. @throws NotFoundError, PermissionDeniedError */
export async function listDistTags(cx: ServiceContext, owner: string, name: string): Promise<Record<string, string>> {
  const access = await ownerFor(cx, owner, 'read');
  const pkg = await requirePackage(cx, access.owner.id, name);
  const tags: Record<string, string> = {};
  for (const v of pkg.versions) for (const p of v.properties) tags[p.value] = v.version;
  return tags;
}

/**
 * PUT /-/package/{name}/dist-tags/{tag} with the version as a JSON string: moves the tag to that version.
 * @throws InvalidArgumentError (a tag that is a version), NotFoundError, PermissionDeniedError
 */
export async function addDistTag(cx: ServiceContext, owner: string, name: string, tag: string, version: string): Promise<void> {
  const access = await ownerFor(cx, owner, 'write');
  const pkg = await requirePackage(cx, access.owner.id, name);
  if (parseSemver(tag)) throw new InvalidArgumentError(INVALID_TAG);
  const v = pkg.versions.find((x) => x.lowerVersion === version.toLowerCase());
  if (!v) throw new NotFoundError('package version does not exist');
  await cx.db.$transaction(async (tx) => moveTag(tx, pkg, v.id, tag));
}

/**
 * DELETE /-/package/{name}/dist-tags/{tag}: removes the tag (an unknown tag is fine).
 * @throws InvalidArgumentError (a tag that is a version), NotFoundError, PermissionDeniedError
 */
export async function removeDistTag(cx: ServiceContext, owner: string, name: string, tag: string): Promise<void> {
  const access = await ownerFor(cx, owner, 'write');
  const pkg = await requirePackage(cx, access.owner.id, name);
  if (parseSemver(tag)) throw new InvalidArgumentError(INVALID_TAG);
  await cx.db.packageProperty.deleteMany({ where: { name: TAG_PROPERTY, value: tag, version: { packageId: pkg.id } } });
}

/** PUT /{name}/-rev/{rev}: npm's "remove the version from the packument" step; Gitea answers 200 and does nothing. */
export async function npmUnpublishPreview(cx: ServiceContext, owner: string, name: string): Promise<void> {
  const access = await ownerFor(cx, owner, 'write');
  await requirePackage(cx, access.owner.id, name);
}

/**
 * DELETE /{name}/-rev/{rev} (every version) or DELETE /{name}/-/{version}/{filename}/-rev/{rev} (one version).
 * @throws NotFoundError, PermissionDeniedError
 */
export async function npmUnpublish(cx: ServiceContext, owner: string, name: string, version: string | null): Promise<void> {
  const access = await ownerFor(cx, owner, 'write');
  const pkg = await requirePackage(cx, access.owner.id, name);
  const targets = version === null ? pkg.versions : pkg.versions.filter((v) => v.lowerVersion === version.toLowerCase());
  if (!targets.length) throw new NotFoundError('package version does not exist');
  await removeVersions(
    cx,
    targets.map((v) => ({ ...v, package: pkg })),
  );
}

/** One result of `npm search`. */
export interface NpmSearchResult {
  objects: { package: Record<string, unknown> }[];
  total: number;
}

/**
 * GET /-/v1/search?text=&from=&size=: the owner's npm packages whose name contains `text`, with their latest
 * (last uploaded) version. @throws NotFoundError, PermissionDeniedError
 */
export async function npmSearch(cx: ServiceContext, owner: string, text: string, from: number, size: number): Promise<NpmSearchResult> {
  const access = await ownerFor(cx, owner, 'read');
  const where: Models.Prisma.PackageWhereInput = {
    ownerId: access.owner.id,
    type: 'NPM',
    lowerName: { contains: text.toLowerCase() },
    versions: { some: { isInternal: false } },
  };
  const [pkgs, total] = await Promise.all([
    cx.db.package.findMany({
      where,
      orderBy: { id: 'desc' },
      skip: Math.max(0, from),
      take: Math.min(Math.max(size > 0 ? size : 20, 1), 250),
      include: { versions: { where: { isInternal: false }, orderBy: { id: 'desc' }, take: 1 } },
    }),
    cx.db.package.count({ where }),
  ]);
  const registry = registryUrlOf(cx, access.owner);
  const objects = pkgs.flatMap((p) => {
    const v = p.versions[0];
    if (!v) return [];
    const m = metadataOf(v);
    return [
      {
        package: {
          scope: m.scope || 'unscoped',
          name: m.name ?? p.name,
          version: v.version,
          date: v.createdAt.toISOString(),
          description: m.description ?? '',
          author: { name: m.author ?? '' },
          publisher: { name: access.owner.name },
          maintainers: [],
          ...(m.keywords ? { keywords: m.keywords } : {}),
          links: { npm: registry, ...(m.project_url ? { homepage: m.project_url } : {}) },
        },
      },
    ];
  });
  return { objects, total };
}
