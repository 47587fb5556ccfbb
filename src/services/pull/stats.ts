import type { DbLike, Models } from '../../db/client.ts';
import { countDivergence, diffStats, type DiffStats } from '../../git/compare.ts';
import { checkMergeable } from '../../git/mergeTree.ts';
import { repoPath } from '../../git/repoPath.ts';
import type { ServiceContext } from '../context.ts';
import type { PullView } from './types.ts';

/** What a pull request's row caches of git: status, merge base, divergence, diff stats and their key. */
export interface PullGitState {
  status: Models.PullRequestStatus;
  mergeBase: string;
  commitsAhead: number;
  commitsBehind: number;
  conflictedFiles: string[];
  additions: number;
  deletions: number;
  changedFiles: number;
  statsHeadSha: string;
  statsBaseSha: string;
}

/**
 * The git-derived state of a pull request whose head commit `headSha` is in `gitDir` (the base repository)
 * and whose base branch is at `baseSha` (Gitea testPullRequestBranchMergeable + GetDiverging + diff stats):
 * - ANCESTOR when the head is already in the base (the merge base is the head),
 * - EMPTY when the three-dot diff is empty,
 * - CONFLICT (with the conflicted paths) when a trial merge (`git merge-tree`) conflicts,
 * - ERROR for unrelated histories, MERGEABLE otherwise.
 * Depends only on the two commits, so the row caches it keyed by (statsHeadSha, statsBaseSha).
 * @throws NotFoundError when a commit is missing
 */
export async function computePullGitState(gitDir: string, baseSha: string, headSha: string, stats?: DiffStats): Promise<PullGitState> {
  const [diff, divergence] = await Promise.all([stats ?? diffStats(gitDir, baseSha, headSha), countDivergence(gitDir, baseSha, headSha)]);
  let status: Models.PullRequestStatus = 'MERGEABLE';
  let conflictedFiles: string[] = [];
  if (diff.mergeBase === null) status = 'ERROR';
  else if (diff.mergeBase === headSha) status = 'ANCESTOR';
  else if (diff.changedFiles === 0) status = 'EMPTY';
  else {
    const check = await checkMergeable(gitDir, baseSha, headSha);
    if (check.status === 'conflict') {
      status = 'CONFLICT';
      conflictedFiles = check.files;
    } else if (check.status === 'unrelated-histories') status = 'ERROR';
  }
  return {
    status,
    mergeBase: diff.mergeBase ?? '',
    commitsAhead: divergence.ahead,
    commitsBehind: divergence.behind,
    conflictedFiles,
    additions: diff.additions,
    deletions: diff.deletions,
    changedFiles: diff.changedFiles,
    statsHeadSha: headSha,
    statsBaseSha: baseSha,
  };
}

/** The row columns of a PullGitState. */
export function pullStateData(state: PullGitState): Omit<PullGitState, 'conflictedFiles'> & { conflictedFiles: string } {
  return { ...state, conflictedFiles: JSON.stringify(state.conflictedFiles) };
}

/** True when the row's cached state was computed for these commits. */
export function isFresh(
  pull: Pick<Models.PullRequest, 'statsHeadSha' | 'statsBaseSha' | 'additions'>,
  headSha: string,
  baseSha: string,
): boolean {
  return pull.additions !== null && pull.statsHeadSha === headSha && pull.statsBaseSha === baseSha;
}

/**
 * Recomputes and stores the git state of a pull request for the given commits, unless the row already holds it
 * or the pull request is merged (its stats are frozen at the merge). The update is conditional on the row
 * still being unmerged, so a concurrent merge is never overwritten. `stats`, when the caller already has the
 * diff stats of exactly these commits, saves computing them again. Returns the row as stored.
 */
export async function storePullState(
  db: DbLike,
  gitDir: string,
  pull: Models.PullRequest,
  headSha: string,
  baseSha: string,
  stats?: DiffStats,
): Promise<Models.PullRequest> {
  if (pull.hasMerged || !headSha || !baseSha || isFresh(pull, headSha, baseSha)) return pull;
  const state = await computePullGitState(gitDir, baseSha, headSha, stats);
  const done = await db.pullRequest.updateMany({ where: { id: pull.id, hasMerged: false }, data: pullStateData(state) });
  if (!done.count) return (await db.pullRequest.findUnique({ where: { id: pull.id } })) ?? pull;
  return { ...pull, ...state, conflictedFiles: JSON.stringify(state.conflictedFiles) };
}

/**
 * Brings the cached stats of open pull requests up to date with their current commits (`refs/pull/N/head`
 * and the base branch tip); pull requests whose cache matches, closed and merged ones are left alone, so a
 * read recomputes nothing in the usual case (pushes refresh the cache, see refresh.ts).
 */
export async function refreshStaleStats(cx: ServiceContext, views: PullView[]): Promise<PullView[]> {
  for (const v of views) {
    if (v.issue.isClosed || v.pull.hasMerged || !v.pullRefSha || !v.baseSha || isFresh(v.pull, v.pullRefSha, v.baseSha)) continue;
    const gitDir = repoPath(cx.config.repositoriesDir, v.baseRepo.repo.ownerName, v.baseRepo.repo.name);
    v.pull = await storePullState(cx.db, gitDir, v.pull, v.pullRefSha, v.baseSha);
  }
  return views;
}
