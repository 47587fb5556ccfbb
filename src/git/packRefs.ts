import { isReftable, looseRefNames } from './readRefs.ts';
import { runGit } from './run.ts';

/**
 * `git pack-refs --all` (the loose files pruned) when the repository has more than `maxLoose` loose refs, as Gitea's
 * `git gc` does: every pushed branch and tag is a loose file until then, and each one is a file to read when a push
 * lists the refs (receivePackAdvertisement.ts, which hands a repository with too many to git). Git locks what it
 * packs: a ref moved meanwhile keeps its loose file. Returns whether it packed.
 */
export async function packRefsIfMany(gitDir: string, maxLoose: number): Promise<boolean> {
  if (isReftable(gitDir) || (await looseRefNames(gitDir, maxLoose)) !== null) return false;
  await runGit(gitDir, ['pack-refs', '--all']);
  return true;
}
