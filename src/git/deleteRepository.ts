import { rm } from 'node:fs/promises';
import { forgetGitCache } from './cache.ts';

/** Removes a bare repository directory; an absent directory is not an error. */
export async function deleteRepository(gitdir: string): Promise<void> {
  forgetGitCache(gitdir);
  await rm(gitdir, { recursive: true, force: true });
}
