// Serving package files from the blob store (Gitea services/packages GetFileStreamByPackageVersion).
import type { ReadStream } from 'node:fs';
import { NotFoundError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';
import { openBlob } from './blobStore.ts';

/** A file ready to send. */
export interface PackageDownload {
  name: string;
  size: number;
  sha256: string;
  createdAt: Date;
  stream: ReadStream;
}

/**
 * Opens the file `filename` of a version and counts the download on the version.
 * @throws NotFoundError `package file does not exist`
 */
export async function openPackageFile(cx: ServiceContext, versionId: number, filename: string): Promise<PackageDownload> {
  const file = await cx.db.packageFile.findFirst({
    where: { versionId, lowerName: filename.toLowerCase() },
    include: { blob: true },
  });
  if (!file) throw new NotFoundError('package file does not exist');
  const stream = openBlob(cx.config.packages.dir, file.blob.hashSha256);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', () => reject(new NotFoundError('package file does not exist')));
  });
  await cx.db.packageVersion.update({ where: { id: versionId }, data: { downloadCount: { increment: 1 } } });
  return { name: file.name, size: Number(file.blob.size), sha256: file.blob.hashSha256, createdAt: file.createdAt, stream };
}
