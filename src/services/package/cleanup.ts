// Expired package data (Gitea services/packages/cleanup CleanupExpiredData): packages left without versions,
// blobs no file references (rows, then their files), and upload temp files left by interrupted uploads.
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceContext } from '../context.ts';
import { deleteBlobFile } from './blobStore.ts';

/** What one cleanup removed. */
export interface PackageCleanup {
  packages: number;
  blobs: number;
  tempFiles: number;
}

/** Upload temp files older than `before` (a live upload keeps writing, so its file stays recent). */
async function pruneTemp(dir: string, before: Date): Promise<number> {
  const tmp = path.join(dir, 'tmp');
  const names = await readdir(tmp).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const file = path.join(tmp, name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtime < before) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Removes packages without versions, blobs unreferenced and created before `before` (row first, guarded by
 * "still unreferenced", then the file), and stale upload temp files.
 */
export async function cleanupExpiredPackageData(cx: ServiceContext, before: Date): Promise<PackageCleanup> {
  const { count: packages } = await cx.db.package.deleteMany({ where: { versions: { none: {} } } });
  const candidates = await cx.db.packageBlob.findMany({
    where: { files: { none: {} }, createdAt: { lt: before } },
    select: { id: true, hashSha256: true },
  });
  let blobs = 0;
  for (const blob of candidates) {
    // A file may have started to reference the blob since it was listed: then the row stays.
    const { count } = await cx.db.packageBlob.deleteMany({ where: { id: blob.id, files: { none: {} } } });
    if (!count) continue;
    await deleteBlobFile(cx.config.packages.dir, blob.hashSha256);
    blobs++;
  }
  const tempFiles = await pruneTemp(cx.config.packages.dir, before);
  return { packages, blobs, tempFiles };
}
