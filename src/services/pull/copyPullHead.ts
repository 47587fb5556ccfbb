import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { fetchIntoHiddenRef } from '../repo/moveRefs.ts';
import { withRefLocks } from '../repo/refLocks.ts';
import { gitDirOf, pullHeadRef } from './pull.ts';

/**
 * Sets the base repository's `refs/pull/{index}/head` to `sha`, fetched from the head repository's `headGitDir` (the
 * same repository's, or a fork's), under that ref's lock: a merge holds it while it merges (runMerge), so the ref
 * never moves under one.
 */
export function copyPullHead(
  cx: ServiceContext,
  base: Pick<Models.Repository, 'id' | 'isEmpty' | 'ownerName' | 'name'>,
  headGitDir: string,
  sha: string,
  index: number,
): Promise<void> {
  const ref = pullHeadRef(index);
  return withRefLocks(cx, base, [ref], () => fetchIntoHiddenRef(gitDirOf(cx, base), headGitDir, sha, ref));
}
