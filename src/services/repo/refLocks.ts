import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';

/**
 * Runs `fn` holding the write locks of refs `refs` of `repo` (RepoLocks.runRefs): writers of other refs of the
 * repository run beside it. A write to an empty repository holds the whole repository: its first branch becomes
 * the default one. Every writer of branches and tags (pushes over git, ref moves through the API, merges) takes
 * its locks here.
 */
export function withRefLocks<T>(
  cx: ServiceContext,
  repo: Pick<Models.Repository, 'id' | 'isEmpty'>,
  refs: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  return repo.isEmpty ? cx.repoLocks.run(repo.id, fn) : cx.repoLocks.runRefs(repo.id, refs, fn);
}
