// Writing packages (Gitea services/packages/packages.go): a file is staged, checked against the owner's quotas,
// moved into the blob store, then recorded with its package, version and blob rows in one transaction.
import type { DbTx, Models } from '../../db/client.ts';
import { insertOrIgnore } from '../../db/insertOrIgnore.ts';
import { AlreadyExistsError, PermissionDeniedError } from '../../errors.ts';
import type { PackageOwnerAccess } from '../access/packageAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { commitBlob, discardBlob, type StagedBlob } from './blobStore.ts';

/** A property row (name/value) of a version or file. */
export interface PropertyInput {
  name: string;
  value: string;
}

/** What to record: the package, its version and one file. */
export interface AddFileInput {
  type: Models.PackageType;
  name: string;
  semverCompatible: boolean;
  version: string;
  metadataJson: string;
  versionProperties?: PropertyInput[];
  fileName: string;
  isLead: boolean;
  staged: StagedBlob;
  /** False: an existing version is refused (npm); true: the file joins it (generic). */
  addToExistingVersion: boolean;
  /** Links the package to this repository. */
  repoId?: number | null;
  /** Runs in the transaction after the rows exist (e.g. moving npm dist-tags). */
  after?: (tx: DbTx, rows: AddedFile) => Promise<void>;
}

/** The rows a successful upload produced. */
export interface AddedFile {
  pkg: Models.Package;
  version: Models.PackageVersion;
  file: Models.PackageFile;
  createdVersion: boolean;
}

/** Gitea ErrQuotaTotalSize / ErrQuotaTotalCount messages. */
const QUOTA_SIZE = 'maximum allowed package storage quota exceeded';
const QUOTA_COUNT = 'maximum allowed package count exceeded';

/** Gitea's checkSizeQuotaExceeded / checkCountQuotaExceeded for one more file of `size` bytes. */
async function checkQuotas(cx: ServiceContext, ownerId: number, size: number, newVersion: boolean): Promise<void> {
  const { limitTotalOwnerSize, limitTotalOwnerCount } = cx.config.packages;
  if (limitTotalOwnerCount >= 0 && newVersion) {
    const count = await cx.db.packageVersion.count({ where: { package: { ownerId }, isInternal: false } });
    if (count >= limitTotalOwnerCount) throw new PermissionDeniedError(QUOTA_COUNT, { limit: limitTotalOwnerCount });
  }
  if (limitTotalOwnerSize >= 0) {
    const files = await cx.db.packageFile.findMany({
      where: { version: { package: { ownerId } } },
      select: { blob: { select: { size: true } } },
    });
    const used = files.reduce((sum, f) => sum + Number(f.blob.size), 0);
    if (used + size > limitTotalOwnerSize) throw new PermissionDeniedError(QUOTA_SIZE, { limit: limitTotalOwnerSize });
  }
}

/**
 * Records a staged file as a package file (Gitea CreatePackageAndAddFile / CreatePackageOrAddFileToExisting):
 * 409 for an existing version (unless adding to it) or an existing file name. Emits `package.created` when the
 * version is new. The staged file is consumed either way.
 * @throws AlreadyExistsError, PermissionDeniedError (quota)
 */
export async function addPackageFile(cx: ServiceContext, access: PackageOwnerAccess, input: AddFileInput): Promise<AddedFile> {
  const ownerId = access.owner.id;
  const lowerName = input.name.toLowerCase();
  const lowerVersion = input.version.toLowerCase();
  try {
    const existing = await cx.db.packageVersion.findFirst({
      where: { lowerVersion, package: { ownerId, type: input.type, lowerName } },
      select: { id: true },
    });
    if (existing && !input.addToExistingVersion) throw new AlreadyExistsError('package version already exists');
    await checkQuotas(cx, ownerId, input.staged.size, !existing);
    await commitBlob(cx.config.packages.dir, input.staged);
  } catch (err) {
    await discardBlob(input.staged);
    throw err;
  }
  const actorId = cx.viewer?.id ?? null;
  const { staged } = input;
  return withTx(cx, async (tx, emit) => {
    // Uploads of the same package, version or content at the same moment converge: each row is inserted or
    // ignored, then read (never a unique violation, so never a 500); only the file itself is one upload's.
    const now = new Date();
    const packageKey = { ownerId_type_lowerName: { ownerId, type: input.type, lowerName } };
    await insertOrIgnore(tx, 'Package', {
      ownerId,
      type: input.type,
      name: input.name,
      lowerName,
      semverCompatible: input.semverCompatible,
      isInternal: false,
      repoId: input.repoId ?? null,
    });
    let pkg = await tx.package.findUniqueOrThrow({ where: packageKey });
    if (input.repoId && pkg.repoId !== input.repoId)
      pkg = await tx.package.update({ where: { id: pkg.id }, data: { repoId: input.repoId } });
    const createdVersion =
      (await insertOrIgnore(tx, 'PackageVersion', {
        packageId: pkg.id,
        creatorId: actorId,
        version: input.version,
        lowerVersion,
        metadataJson: input.metadataJson,
        isInternal: false,
        downloadCount: 0,
        createdAt: now,
      })) === 1;
    if (!createdVersion && !input.addToExistingVersion) throw new AlreadyExistsError('package version already exists');
    const version = await tx.packageVersion.findUniqueOrThrow({ where: { packageId_lowerVersion: { packageId: pkg.id, lowerVersion } } });
    if (createdVersion && input.versionProperties?.length) {
      await tx.packageProperty.createMany({ data: input.versionProperties.map((p) => ({ versionId: version.id, ...p })) });
    }
    await insertOrIgnore(tx, 'PackageBlob', {
      size: BigInt(staged.size),
      hashMd5: staged.md5,
      hashSha1: staged.sha1,
      hashSha256: staged.sha256,
      hashSha512: staged.sha512,
      createdAt: now,
    });
    const blob = await tx.packageBlob.findUnique({ where: { hashSha256: staged.sha256 } });
    // Another content with this file's MD5 or SHA-1 (a crafted collision): Gitea's blob table refuses it too.
    if (!blob) throw new AlreadyExistsError('a different package file with the same MD5 or SHA-1 digest already exists');
    const lowerFile = input.fileName.toLowerCase();
    const inserted = await insertOrIgnore(tx, 'PackageFile', {
      versionId: version.id,
      blobId: blob.id,
      name: input.fileName,
      lowerName: lowerFile,
      compositeKey: '',
      isLead: input.isLead,
      createdAt: now,
    });
    if (!inserted) throw new AlreadyExistsError('package file already exists');
    const file = await tx.packageFile.findUniqueOrThrow({
      where: { versionId_lowerName_compositeKey: { versionId: version.id, lowerName: lowerFile, compositeKey: '' } },
    });
    const rows = { pkg, version, file, createdVersion };
    if (input.after) await input.after(tx, rows);
    if (createdVersion && actorId !== null) {
      emit({ type: 'package.created', packageId: pkg.id, versionId: version.id, ownerId, repoId: pkg.repoId, actorId });
    }
    return rows;
  });
}

/** A version with what deleting it reports. */
export type VersionRow = Models.PackageVersion & { package: Models.Package };

/**
 * Deletes versions (their files and properties cascade) and packages left without versions; blobs no file
 * references any more are removed by the `cleanup_packages` cron task. Emits `package.deleted` for each version.
 */
export async function removeVersions(cx: ServiceContext, versions: readonly VersionRow[]): Promise<void> {
  if (!versions.length) return;
  const actorId = cx.viewer?.id ?? 0;
  await withTx(cx, async (tx, emit) => {
    await tx.packageVersion.deleteMany({ where: { id: { in: versions.map((v) => v.id) } } });
    const packageIds = [...new Set(versions.map((v) => v.packageId))];
    await tx.package.deleteMany({ where: { id: { in: packageIds }, versions: { none: {} } } });
    for (const v of versions) {
      emit({
        type: 'package.deleted',
        packageId: v.packageId,
        versionId: v.id,
        ownerId: v.package.ownerId,
        repoId: v.package.repoId,
        packageType: v.package.type.toLowerCase(),
        name: v.package.name,
        version: v.version,
        actorId,
      });
    }
  });
}
