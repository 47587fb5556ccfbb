// Content-addressed package blob files: `<packages dir>/<sha256[0:2]>/<sha256[2:4]>/<sha256>` (Gitea's layout).
// Uploads stream into a temp file while all four hashes are computed, then move into place with a rename.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PermissionDeniedError } from '../../errors.ts';

/** The hashes and size of a stored upload. */
export interface BlobDigest {
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

/** An upload written to a temp file, not yet in the store. */
export interface StagedBlob extends BlobDigest {
  tempPath: string;
}

/** The path of a blob in the store. */
export function blobPath(dir: string, sha256: string): string {
  return path.join(dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

/** Gitea's message when a file is larger than the type's limit. */
export const TYPE_SIZE_MESSAGE = 'maximum allowed package type size exceeded';

/**
 * Streams `source` into a temp file under `dir/tmp`, hashing as it goes; refuses (and removes the temp file) past
 * `maxBytes` (-1 = no limit).
 * @throws PermissionDeniedError (quota: the file is larger than the limit)
 */
export async function stageBlob(dir: string, source: Readable | AsyncIterable<Buffer>, maxBytes: number): Promise<StagedBlob> {
  const tmpDir = path.join(dir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const tempPath = path.join(tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  const hashes = { md5: createHash('md5'), sha1: createHash('sha1'), sha256: createHash('sha256'), sha512: createHash('sha512') };
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (maxBytes >= 0 && size > maxBytes) {
        done(new PermissionDeniedError(TYPE_SIZE_MESSAGE, { limit: maxBytes }));
        return;
      }
      for (const h of Object.values(hashes)) h.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(tempPath, { flags: 'wx' }));
  } catch (err) {
    await rm(tempPath, { force: true });
    throw err;
  }
  return {
    tempPath,
    size,
    md5: hashes.md5.digest('hex'),
    sha1: hashes.sha1.digest('hex'),
    sha256: hashes.sha256.digest('hex'),
    sha512: hashes.sha512.digest('hex'),
  };
}

/** Moves a staged upload to its place in the store (an identical blob already there is kept; the temp file goes). */
export async function commitBlob(dir: string, staged: StagedBlob): Promise<void> {
  const target = blobPath(dir, staged.sha256);
  const existing = await stat(target).catch(() => null);
  if (existing?.size === staged.size) {
    await rm(staged.tempPath, { force: true });
    return;
  }
  await mkdir(path.dirname(target), { recursive: true });
  await rename(staged.tempPath, target);
}

/** Removes a staged upload that will not be stored. */
export async function discardBlob(staged: StagedBlob): Promise<void> {
  await rm(staged.tempPath, { force: true });
}

/** A stream of a stored blob. */
export function openBlob(dir: string, sha256: string): ReadStream {
  return createReadStream(blobPath(dir, sha256));
}

/** Deletes a blob's file (absent is fine). */
export async function deleteBlobFile(dir: string, sha256: string): Promise<void> {
  await rm(blobPath(dir, sha256), { force: true });
}
