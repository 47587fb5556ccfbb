// The generic registry (Gitea routers/api/packages/generic/generic.go): any file under a name and a version.
import type { Readable } from 'node:stream';
import { InvalidArgumentError, NotFoundError } from '../../errors.ts';
import { packageOwnerAccess, requirePackageAccess } from '../access/packageAccess.ts';
import type { ServiceContext } from '../context.ts';
import { stageBlob } from './blobStore.ts';
import { openPackageFile, type PackageDownload } from './files.ts';
import { addPackageFile, removeVersions } from './store.ts';

/** Where a generic file lives. */
export interface GenericFileRef {
  owner: string;
  name: string;
  version: string;
  filename: string;
}

const NAME = /^[-_+.\w]+$/;
const FILENAME = /^[-_+=:;.()[\]{}~!@#$%^& \w]+$/;
const ALNUM = /^\w$/;

/** Gitea's name rule: `[-_+.\w]+`, not one non-alphanumeric character, not `..`. */
function validName(name: string): boolean {
  return NAME.test(name) && (name.length > 1 || ALNUM.test(name)) && name !== '..';
}

function validFilename(name: string): boolean {
  return FILENAME.test(name) && name.trim() === name && name !== '.' && name !== '..';
}

function checkRef(ref: Omit<GenericFileRef, 'owner' | 'filename'> & { filename?: string }): void {
  if (!validName(ref.name)) throw new InvalidArgumentError('invalid package name');
  if (ref.version.trim() !== ref.version || ref.version === '') throw new InvalidArgumentError('invalid package version');
  if (ref.filename !== undefined && !validFilename(ref.filename)) throw new InvalidArgumentError('invalid filename');
}

/**
 * PUT …/generic/{name}/{version}/{filename}: streams the body into the store (PACKAGES_LIMIT_SIZE_GENERIC) and adds
 * it to the version (created when new).
 * @throws InvalidArgumentError (400), AlreadyExistsError (409), PermissionDeniedError, NotFoundError
 */
export async function uploadGenericFile(cx: ServiceContext, ref: GenericFileRef, body: Readable): Promise<void> {
  const access = await packageOwnerAccess(cx, ref.owner);
  requirePackageAccess(cx, access, 'write');
  checkRef(ref);
  const staged = await stageBlob(cx.config.packages.dir, body, cx.config.packages.limitSizeGeneric);
  await addPackageFile(cx, access, {
    type: 'GENERIC',
    name: ref.name,
    semverCompatible: false,
    version: ref.version,
    metadataJson: '',
    fileName: ref.filename,
    isLead: false,
    staged,
    addToExistingVersion: true,
  });
}

async function findVersion(cx: ServiceContext, ref: Omit<GenericFileRef, 'filename'>, level: 'read' | 'write') {
  const access = await packageOwnerAccess(cx, ref.owner);
  requirePackageAccess(cx, access, level);
  checkRef(ref);
  const version = await cx.db.packageVersion.findFirst({
    where: {
      lowerVersion: ref.version.toLowerCase(),
      isInternal: false,
      package: { ownerId: access.owner.id, type: 'GENERIC', lowerName: ref.name.toLowerCase() },
    },
    include: { package: true },
  });
  if (!version) throw new NotFoundError('package does not exist');
  return version;
}

/**
 * GET …/generic/{name}/{version}/{filename}: the file as a stream (download count +1).
 * @throws NotFoundError, PermissionDeniedError, InvalidArgumentError
 */
export async function downloadGenericFile(cx: ServiceContext, ref: GenericFileRef): Promise<PackageDownload> {
  const version = await findVersion(cx, ref, 'read');
  checkRef(ref);
  return openPackageFile(cx, version.id, ref.filename);
}

/** DELETE …/generic/{name}/{version}: the version and its files. @throws NotFoundError, PermissionDeniedError */
export async function deleteGenericVersion(cx: ServiceContext, ref: Omit<GenericFileRef, 'filename'>): Promise<void> {
  const version = await findVersion(cx, ref, 'write');
  await removeVersions(cx, [version]);
}

/**
 * DELETE …/generic/{name}/{version}/{filename}: one file; the last file takes its version with it.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function deleteGenericFile(cx: ServiceContext, ref: GenericFileRef): Promise<void> {
  const version = await findVersion(cx, ref, 'write');
  checkRef(ref);
  const file = await cx.db.packageFile.findFirst({ where: { versionId: version.id, lowerName: ref.filename.toLowerCase() } });
  if (!file) throw new NotFoundError('package file does not exist');
  const others = await cx.db.packageFile.count({ where: { versionId: version.id, id: { not: file.id } } });
  if (others === 0) await removeVersions(cx, [version]);
  else await cx.db.packageFile.delete({ where: { id: file.id } });
}
