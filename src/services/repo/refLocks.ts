import { existsSync } from 'node:fs';
import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { repoPath } from '../../git/repoPath.ts';
import type { ServiceContext } from '../context.ts';

type LockedRepo = Pick<Models.Repository, 'id' | 'isEmpty' | 'ownerName' | 'name'>;

/**
 * Runs `fn` holding the write locks of refs `refs` of `repo` (RepoLocks.runRefs): writers of other refs of the
 * repository run beside it. A write to an empty repository holds the whole repository: its first branch becomes
 * the default one. Every writer of branches and tags (pushes over git, ref moves through the API, merges) takes
 * its locks here.
 * A rename, transfer or deletion holds the whole repository while its directory moves (heldRepo.ts): a writer that
 * read the repository before one and got its locks after finds no directory under the name it was given, and is
 * answered as a request arriving now under that name would be (not found; REST redirects to a new name) before it
 * writes anything. @throws NotFoundError then
 */
export function withRefLocks<T>(cx: ServiceContext, repo: LockedRepo, refs: readonly string[], fn: () => Promise<T>): Promise<T> {
  if (repo.isEmpty) return cx.repoLocks.run(repo.id, fn);
  return cx.repoLocks.runRefs(repo.id, refs, async () => {
    if (!existsSync(repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name))) {
      throw new NotFoundError('repository does not exist', { owner: repo.ownerName, name: repo.name });
    }
    return fn();
  });
}
