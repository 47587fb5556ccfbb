import fs from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { AlreadyExistsError, NotFoundError } from '../errors.ts';
import { forgetGitCache } from './cache.ts';

/**
 * Moves a bare repository directory (rename or owner change). Same path (e.g. a case-only rename, paths
 * being lower-case) is a no-op.
 * @throws NotFoundError when `from` is missing; AlreadyExistsError when `to` exists
 */
export async function renameRepository(from: string, to: string): Promise<void> {
  if (path.resolve(from) === path.resolve(to)) return;
  if (!fs.existsSync(from)) throw new NotFoundError('repository files do not exist', { gitdir: from });
  if (fs.existsSync(to)) throw new AlreadyExistsError('repository files already exist', { gitdir: to });
  await mkdir(path.dirname(to), { recursive: true });
  forgetGitCache(from);
  forgetGitCache(to);
  await rename(from, to);
}
