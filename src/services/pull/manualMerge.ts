import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { readCommitInfos } from '../../git/commitInfo.ts';
import { isAncestor } from '../../git/compare.ts';
import { findMergeCommit } from '../../git/mergeCommit.ts';
import { readRefs } from '../../git/readRefs.ts';
import type { ServiceContext } from '../context.ts';
import type { PushFollowUp } from '../repo/pushJob.ts';
import { markPullMerged } from './markMerged.ts';
import { loadPullSettings } from './mergeSettings.ts';
import { pushOpenPullBranches } from './openPullBranches.ts';
import { gitDirOf, pullHeadRef } from './pull.ts';

const BRANCH = 'refs/heads/';
const ZERO = /^0+$/;

/** The head commit of a pull request now: its head branch's tip, else `refs/pull/{index}/head` (undefined when neither exists). */
async function currentHead(
  cx: ServiceContext,
  pull: Models.PullRequest & { headRepo: Models.Repository | null },
  baseRefs: ReadonlyMap<string, string>,
  base: Models.Repository,
): Promise<string | undefined> {
  const headRef = `${BRANCH}${pull.headBranch}`;
  if (pull.headRepo) {
    const refs =
      pull.headRepo.id === base.id
        ? baseRefs
        : await readRefs(gitDirOf(cx, pull.headRepo), [headRef]).catch(() => new Map<string, string>());
    const tip = refs.get(headRef);
    if (tip) return tip;
  }
  return baseRefs.get(pullHeadRef(pull.index));
}

/**
 * Gitea's manuallyMerged check for the open pull requests into branches of `repo` that a push just moved:
 * when the repository has autodetect_manual_merge on, each pull request whose head commit (its head branch's
 * tip, else `refs/pull/{index}/head`) is now an ancestor of its base branch is marked merged with status
 * MANUALLY_MERGED (markPullMerged: closed, MERGE_PULL comment, counters, `pull.merged`). The merge commit is
 * found as Gitea does (the oldest merge commit on the ancestry path, or the head itself after a
 * fast-forward); the merge time is that commit's author time and the merger the pusher. Returns the numbers
 * of the pull requests marked merged.
 */
export async function detectManualMerges(
  cx: ServiceContext,
  repoId: number,
  branches: readonly string[],
  pusherId: number,
): Promise<number[]> {
  // Most repositories leave the detection off.
  if (!branches.length) return [];
  if (!(await loadPullSettings(cx.db, repoId)).autodetectManualMerge) return [];
  const pulls = await cx.db.pullRequest.findMany({
    where: { baseRepoId: repoId, baseBranch: { in: [...branches] }, hasMerged: false, flow: 'GITHUB', issue: { isClosed: false } },
    include: { issue: true, headRepo: true, baseRepo: true },
    orderBy: { index: 'asc' },
  });
  const base = pulls[0]?.baseRepo;
  if (!base) return [];
  const gitDir = gitDirOf(cx, base);
  const baseRefs = await readRefs(gitDir, [
    ...new Set(
      pulls.flatMap((p) => [
        `${BRANCH}${p.baseBranch}`,
        pullHeadRef(p.index),
        ...(p.headRepoId === repoId ? [`${BRANCH}${p.headBranch}`] : []),
      ]),
    ),
  ]);
  const merged: number[] = [];
  for (const p of pulls) {
    const baseSha = baseRefs.get(`${BRANCH}${p.baseBranch}`);
    const headSha = await currentHead(cx, p, baseRefs, base);
    if (!baseSha || !headSha) continue;
    let commitId: string;
    try {
      // A fork's head that never reached the base repository is not found there: not merged.
      if (!(await isAncestor(gitDir, headSha, baseSha))) continue;
      commitId = await findMergeCommit(gitDir, headSha, baseSha);
    } catch (err) {
      if (err instanceof NotFoundError) continue;
      throw err;
    }
    const [commit] = await readCommitInfos(gitDir, [commitId]);
    const { issue, headRepo: _head, baseRepo: _base, ...pull } = p;
    const stored = await markPullMerged(
      cx,
      { issue, pull },
      {
        commitId,
        mergedAt: commit ? new Date(commit.author.when) : new Date(),
        mergerId: pusherId,
        status: 'MANUALLY_MERGED',
        how: 'autodetected',
      },
    );
    if (stored) merged.push(p.index);
  }
  return merged;
}

/**
 * The push follow-up that marks pull requests merged by a push made outside the API (Gitea
 * autodetect_manual_merge). Registered after the pull request refresh, so head refs are current.
 */
export const manualMergeFollowUp: PushFollowUp = async (cx, push) => {
  // Only the moved branches open pull requests go into (most pushes move none).
  const { base } = await pushOpenPullBranches(cx.db, push);
  const branches = push.updates
    .filter((u) => u.ref.startsWith(BRANCH) && !ZERO.test(u.newSha))
    .map((u) => u.ref.slice(BRANCH.length))
    .filter((b) => base.has(b));
  await detectManualMerges(cx, push.repoId, branches, push.pusherId);
};
