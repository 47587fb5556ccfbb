import type { Models } from '../../db/client.ts';
import { readRefs } from '../../git/readRefs.ts';
import type { ServiceContext } from '../context.ts';
import { fetchIntoHiddenRef } from '../repo/moveRefs.ts';
import { withRefLocks } from '../repo/refLocks.ts';
import { gitDirOf, pullHeadRef } from './pull.ts';

type Repo = Pick<Models.Repository, 'id' | 'isEmpty' | 'ownerName' | 'name'>;

/** Where `refs/pull/{index}/head` was (empty when it did not exist) and the head branch's tip it now points at. */
export interface PullHeadSync {
  previous: string;
  head: string;
}

/** The pull request's head ref in the base repository and its head branch's tip in the head repository. */
async function readSides(cx: ServiceContext, base: Repo, headRepo: Repo, headBranch: string, index: number): Promise<PullHeadSync | null> {
  const pullRef = pullHeadRef(index);
  const branchRef = `refs/heads/${headBranch}`;
  const same = headRepo.id === base.id;
  const [baseRefs, headRefs] = await Promise.all([
    readRefs(gitDirOf(cx, base), same ? [pullRef, branchRef] : [pullRef]),
    same ? null : readRefs(gitDirOf(cx, headRepo), [branchRef]),
  ]);
  const head = (headRefs ?? baseRefs).get(branchRef);
  return head ? { previous: baseRefs.get(pullRef) ?? '', head } : null;
}

/**
 * Moves the base repository's `refs/pull/{index}/head` to the head branch's tip (fetched from the head repository:
 * the same one, or a fork). The single writer of that ref after the pull request's creation: the merge's plan
 * and the refresh after a push to the head branch. The write happens under the ref's lock (a merge holds it while
 * it merges, runMerge, so the ref never moves under one), and both sides are read again under it: two refreshes
 * of overlapping pushes never move the ref back to an older commit, and each sees where the other left it.
 * Null when the head branch does not exist.
 */
export async function syncPullHead(
  cx: ServiceContext,
  base: Repo,
  headRepo: Repo,
  headBranch: string,
  index: number,
): Promise<PullHeadSync | null> {
  const seen = await readSides(cx, base, headRepo, headBranch, index);
  if (!seen || seen.previous === seen.head) return seen;
  return withRefLocks(cx, base, [pullHeadRef(index)], async () => {
    const now = await readSides(cx, base, headRepo, headBranch, index);
    if (now && now.previous !== now.head)
      await fetchIntoHiddenRef(gitDirOf(cx, base), gitDirOf(cx, headRepo), now.head, pullHeadRef(index));
    return now;
  });
}
