// The PyPI registry (Gitea routers/api/packages/pypi): twine-style uploads, file downloads and the simple index
// (PEP 503) that pip installs from.
import type { Readable } from 'node:stream';
import { AlreadyExistsError, InvalidArgumentError, NotFoundError } from '../../errors.ts';
import { packageOwnerAccess, requirePackageAccess } from '../access/packageAccess.ts';
import type { ServiceContext } from '../context.ts';
import { discardBlob, stageBlob, type StagedBlob } from './blobStore.ts';
import { openPackageFile, type PackageDownload } from './files.ts';
import { addPackageFile } from './store.ts';

/** One part of an upload form: a text field or the file (streamed). */
export type UploadPart =
  { kind: 'field'; name: string; value: string } | { kind: 'file'; field: string; filename: string; stream: Readable };

const NAME = /^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$/i;
// PEP 440 (Gitea's pattern, verbatim in meaning).
const VERSION =
  /^([1-9][0-9]*!)?(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*((a|b|rc)(0|[1-9][0-9]*))?(\.post(0|[1-9][0-9]*))?(\.dev(0|[1-9][0-9]*))?$/i;
const FILENAME = /^[a-zA-Z0-9][a-zA-Z0-9._+!-]*\.(whl|tar\.gz|zip|tar\.bz2|egg)$/;

/** PEP 503 normalized name: lower case, runs of `-_.` become `-`. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** The metadata Gitea keeps of a PyPI version. */
interface PypiMetadata {
  author?: string;
  description?: string;
  long_description?: string;
  summary?: string;
  project_url?: string;
  license?: string;
  requires_python?: string;
}

/**
 * POST /{owner}/pypi: one file of a version (`content`), named by the `name` and `version` fields; `sha256_digest`,
 * when sent, must match. @throws InvalidArgumentError (400), AlreadyExistsError (409), PermissionDeniedError
 */
export async function uploadPypiFile(cx: ServiceContext, owner: string, parts: AsyncIterable<UploadPart>): Promise<void> {
  const access = await packageOwnerAccess(cx, owner);
  requirePackageAccess(cx, access, 'write');
  const fields = new Map<string, string>();
  let staged: StagedBlob | null = null;
  let filename = '';
  try {
    for await (const part of parts) {
      if (part.kind === 'field') fields.set(part.name, part.value);
      else if (part.field === 'content' && !staged) {
        filename = part.filename;
        staged = await stageBlob(cx.config.packages.dir, part.stream, -1);
      } else part.stream.resume();
    }
    if (!staged) throw new InvalidArgumentError('content file is required');
    const name = (fields.get('name') ?? '').trim();
    const version = (fields.get('version') ?? '').trim();
    if (!NAME.test(name) || !VERSION.test(version) || !FILENAME.test(filename))
      throw new InvalidArgumentError('invalid name, version or filename');
    const digest = fields.get('sha256_digest');
    if (digest && digest.toLowerCase() !== staged.sha256) throw new InvalidArgumentError('hash mismatch');
  } catch (err) {
    if (staged) await discardBlob(staged);
    throw err;
  }
  const metadata: PypiMetadata = {
    author: fields.get('author') || undefined,
    description: fields.get('description') || undefined,
    long_description: fields.get('long_description') || undefined,
    summary: fields.get('summary') || undefined,
    project_url: fields.get('home_page') || undefined,
    license: fields.get('license') || undefined,
    requires_python: fields.get('requires_python') || undefined,
  };
  try {
    await addPackageFile(cx, access, {
      type: 'PYPI',
      name: normalizePypiName(fields.get('name') ?? ''),
      semverCompatible: false,
      version: (fields.get('version') ?? '').trim(),
      metadataJson: JSON.stringify(metadata),
      fileName: filename,
      isLead: false,
      staged,
      addToExistingVersion: true,
    });
  } catch (err) {
    if (err instanceof AlreadyExistsError) throw new AlreadyExistsError('package file already exists');
    throw err;
  }
}

/** One file link of the simple index. */
export interface PypiIndexFile {
  name: string;
  version: string;
  filename: string;
  sha256: string;
  requiresPython: string;
}

/**
 * GET /{owner}/pypi/simple/{name}: every file of every version, oldest version first.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function pypiSimpleIndex(cx: ServiceContext, owner: string, name: string): Promise<{ name: string; files: PypiIndexFile[] }> {
  const access = await packageOwnerAccess(cx, owner);
  requirePackageAccess(cx, access, 'read');
  const pkg = await cx.db.package.findUnique({
    where: { ownerId_type_lowerName: { ownerId: access.owner.id, type: 'PYPI', lowerName: normalizePypiName(name) } },
    include: {
      versions: {
        where: { isInternal: false },
        orderBy: { id: 'asc' },
        include: { files: { include: { blob: true }, orderBy: { id: 'asc' } } },
      },
    },
  });
  if (!pkg || !pkg.versions.length) throw new NotFoundError('package does not exist');
  const files = pkg.versions.flatMap((v) => {
    let requiresPython = '';
    try {
      requiresPython = (JSON.parse(v.metadataJson || '{}') as PypiMetadata).requires_python ?? '';
    } catch {
      requiresPython = '';
    }
    return v.files.map((f) => ({ name: pkg.name, version: v.version, filename: f.name, sha256: f.blob.hashSha256, requiresPython }));
  });
  return { name: pkg.name, files };
}

/** GET /{owner}/pypi/files/{name}/{version}/{filename}. @throws NotFoundError, PermissionDeniedError */
export async function pypiDownload(
  cx: ServiceContext,
  owner: string,
  name: string,
  version: string,
  filename: string,
): Promise<PackageDownload> {
  const access = await packageOwnerAccess(cx, owner);
  requirePackageAccess(cx, access, 'read');
  const row = await cx.db.packageVersion.findFirst({
    where: {
      lowerVersion: version.toLowerCase(),
      isInternal: false,
      package: { ownerId: access.owner.id, type: 'PYPI', lowerName: normalizePypiName(name) },
    },
  });
  if (!row) throw new NotFoundError('package does not exist');
  return openPackageFile(cx, row.id, filename);
}
