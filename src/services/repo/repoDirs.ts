import { existsSync } from 'node:fs';
import { renameRepository } from '../../git/renameRepository.ts';
import { repoPath, wikiPath } from '../../git/repoPath.ts';

/** Where a repository's git directories are (the code's and the wiki's) under one owner and name. */
export function repoDirs(repositoriesDir: string, ownerName: string, name: string): string[] {
  return [repoPath(repositoriesDir, ownerName, name), wikiPath(repositoriesDir, ownerName, name)];
}

/**
 * Moves a repository's git directories that exist (the code's, then the wiki's: a rename or a transfer moves
 * both), each `from[i]` to `to[i]`; when one fails, those moved go back and the error is thrown. Returns how to
 * put them all back (a failed transaction after the move).
 * @throws AlreadyExistsError when a target exists
 */
export async function moveRepoDirs(from: readonly string[], to: readonly string[]): Promise<() => Promise<void>> {
  const done: Array<[string, string]> = [];
  const undo = async () => {
    for (const [a, b] of done.reverse()) await renameRepository(b, a).catch(() => undefined);
  };
  try {
    for (const [i, dir] of from.entries()) {
      const target = to[i];
      if (!target || !existsSync(dir)) continue;
      await renameRepository(dir, target);
      done.push([dir, target]);
    }
  } catch (err) {
    await undo();
    throw err;
  }
  return undo;
}
