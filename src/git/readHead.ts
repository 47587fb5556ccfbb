import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The branch HEAD points at (`refs/heads/<branch>`, which may not exist yet), read from the files backend our
 * repositories use (initRepository); null when HEAD is detached, unreadable or kept by reftable.
 */
export async function readHeadBranch(gitDir: string): Promise<string | null> {
  const text = await readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => null);
  const m = text === null ? null : /^ref: refs\/heads\/(.+)\n?$/.exec(text);
  // A reftable repository's HEAD file names `.invalid`.
  return m?.[1] && m[1] !== '.invalid' ? m[1] : null;
}
