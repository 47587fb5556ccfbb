import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** The on-disk size of a repository directory in bytes (files, not following symlinks); 0 when absent. */
export async function repoSize(gitdir: string): Promise<bigint> {
  let total = 0n;
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    await Promise.all(
      entries.map(async (e) => {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) return walk(p);
        if (!e.isFile()) return;
        const { size } = await lstat(p);
        total += BigInt(size);
      }),
    );
  };
  await walk(gitdir);
  return total;
}
