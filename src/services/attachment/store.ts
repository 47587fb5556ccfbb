// The attachment file store: files in <DATA_DIR>/attachments/<uuid[0]>/<uuid[1]>/<uuid> (Gitea's layout).
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AttachmentSettings } from '../../config.ts';
import { NotFoundError, ValidationError } from '../../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `uuid` has the shape of an attachment uuid (anything else names no file). */
export function isAttachmentUuid(uuid: string): boolean {
  return UUID.test(uuid);
}

/** The file of an attachment (Gitea AttachmentRelativePath under the attachments directory). */
export function attachmentFile(settings: AttachmentSettings, uuid: string): string {
  if (!isAttachmentUuid(uuid)) throw new NotFoundError('attachment does not exist', { uuid });
  return path.join(settings.dir, uuid[0]!, uuid[1]!, uuid);
}

/** The error of an upload over the size limit (413 in REST). */
export function tooLarge(limit: number): ValidationError {
  return new ValidationError(`attachment is too large: the limit (ATTACHMENT_MAX_SIZE) is ${limit} bytes`, {
    reason: 'TOO_LARGE',
    limit,
  });
}

/** Counts bytes on the way through and fails past `limit`. */
function sizeLimit(limit: number, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > limit) done(tooLarge(limit));
      else done(null, chunk);
    },
  });
}

/**
 * Streams `content` into a new attachment file: written to a temporary file beside the store and renamed into
 * place (a reader never sees half a file), refused past the size limit. Returns the new uuid and the size.
 * @throws ValidationError (TOO_LARGE)
 */
export async function writeAttachmentFile(settings: AttachmentSettings, content: Readable): Promise<{ uuid: string; size: number }> {
  const uuid = randomUUID();
  const target = attachmentFile(settings, uuid);
  const tmpDir = path.join(settings.dir, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `${uuid}.upload`);
  const counted = { bytes: 0 };
  try {
    await pipeline(content, sizeLimit(settings.maxBytes, counted), createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    // Whatever the client still sends is not wanted.
    content.resume();
    throw err;
  }
  return { uuid, size: counted.bytes };
}

/** Opens an attachment's file for reading. @throws NotFoundError when the file is gone */
export async function openAttachmentFile(settings: AttachmentSettings, uuid: string): Promise<{ stream: ReadStream; size: number }> {
  const file = attachmentFile(settings, uuid);
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new NotFoundError('attachment file does not exist', { uuid });
  }
  return { stream: createReadStream(file), size };
}

/** Removes attachment files (missing files are not an error). */
export async function removeAttachmentFiles(settings: AttachmentSettings, uuids: readonly string[]): Promise<void> {
  await Promise.all(uuids.filter(isAttachmentUuid).map((uuid) => rm(attachmentFile(settings, uuid), { force: true })));
}

/** Every attachment file in the store with its modification time, for the orphan sweep. */
export async function listAttachmentFiles(settings: AttachmentSettings): Promise<Array<{ uuid: string; mtime: Date }>> {
  const out: Array<{ uuid: string; mtime: Date }> = [];
  const dirs = async (dir: string) => (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory());
  for (const a of await dirs(settings.dir)) {
    if (a.name.length !== 1) continue;
    for (const b of await dirs(path.join(settings.dir, a.name))) {
      const dir = path.join(settings.dir, a.name, b.name);
      for (const name of await readdir(dir).catch(() => [])) {
        if (!isAttachmentUuid(name)) continue;
        const s = await stat(path.join(dir, name)).catch(() => null);
        if (s) out.push({ uuid: name, mtime: s.mtime });
      }
    }
  }
  return out;
}
