// The avatar file store: one PNG per avatar, `<DATA_DIR>/avatars/<hash>` for accounts and
// `<DATA_DIR>/repo-avatars/<hash>` for repositories (Gitea's layout, the file named by the row's `avatar`).
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AvatarSettings } from '../../config.ts';

/** Whose avatar: an account's (user or organization) or a repository's. */
export type AvatarKind = 'user' | 'repo';

const HASH = /^[0-9a-f]{64}$/;

/** Gitea's HashAvatar: sha256 of "<owner id>-" and the uploaded bytes, so equal images of two owners get two files. */
export function hashAvatar(ownerId: number, upload: Buffer): string {
  return createHash('sha256').update(`${ownerId}-`).update(upload).digest('hex');
}

/** Whether `hash` can name a stored avatar (anything else names no file). */
export function isStoredAvatarHash(hash: string): boolean {
  return HASH.test(hash);
}

function dirOf(settings: AvatarSettings, kind: AvatarKind): string {
  return kind === 'user' ? settings.dir : settings.repoDir;
}

/** Writes an avatar file whole: a temporary file beside it, renamed into place (a reader never sees half a file). */
export async function writeAvatarFile(settings: AvatarSettings, kind: AvatarKind, hash: string, png: Buffer): Promise<void> {
  const dir = dirOf(settings, kind);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${hash}.${randomUUID()}.tmp`);
  try {
    await writeFile(tmp, png, { mode: 0o644 });
    await rename(tmp, path.join(dir, hash));
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Removes an avatar file (a missing one is not an error; a hash of another shape names none). */
export async function removeAvatarFile(settings: AvatarSettings, kind: AvatarKind, hash: string): Promise<void> {
  if (!isStoredAvatarHash(hash)) return;
  await rm(path.join(dirOf(settings, kind), hash), { force: true });
}

/** Opens a stored avatar for streaming; null when there is none under that hash. */
export async function openAvatarFile(
  settings: AvatarSettings,
  kind: AvatarKind,
  hash: string,
): Promise<{ stream: ReadStream; size: number; mtime: Date } | null> {
  if (!isStoredAvatarHash(hash)) return null;
  const file = path.join(dirOf(settings, kind), hash);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  return { stream: createReadStream(file), size: info.size, mtime: info.mtime };
}

/**
 * Copies a stored avatar for another owner (Gitea GenerateAvatar): the same image under the new owner's hash.
 * Returns the new hash, '' when `hash` names no stored file.
 */
export async function copyAvatarFile(settings: AvatarSettings, kind: AvatarKind, hash: string, ownerId: number): Promise<string> {
  if (!isStoredAvatarHash(hash)) return '';
  const data = await readFile(path.join(dirOf(settings, kind), hash)).catch(() => null);
  if (!data) return '';
  const next = hashAvatar(ownerId, data);
  await writeAvatarFile(settings, kind, next, data);
  return next;
}
