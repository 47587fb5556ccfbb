import type { DbLike, Models } from '../../db/client.ts';
import { countDivergence, diffStats, mergeBase, type DiffStats } from '../../git/compare.ts';
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
 * Depends only on the two commits, so the row caches it keyed by (statsHeadSha, statsBaseSha). `stats`: the diff's stats,
 * when the caller has them; `known`: the row, whose stats serve again while its head and merge base are the same (diffOf).
 * @throws NotFoundError when a commit is missing
 */
export async function computePullGitState(
  gitDir: string,
  baseSha: string,
  headSha: string,
  stats?: DiffStats,
  known?: KnownDiff,
): Promise<PullGitState> {
  // The trial merge runs beside the diff and the count, not after them: it is needed unless the head is in the base,
  // the diff is empty or the histories are unrelated (rare; then its answer is dropped). A merge that follows
  // reuses it (commitPairFact).
  const trial = checkMergeable(gitDir, baseSha, headSha);
  trial.catch(() => undefined);
  const [diff, divergence] = await Promise.all([
    stats ?? diffOf(gitDir, baseSha, headSha, known),
    countDivergence(gitDir, baseSha, headSha),
  ]);
  let status: Models.PullRequestStatus = 'MERGEABLE';
  let conflictedFiles: string[] = [];
  if (diff.mergeBase === null) status = 'ERROR';
  else if (diff.mergeBase === headSha) status = 'ANCESTOR';
  else if (diff.changedFiles === 0) status = 'EMPTY';
  else {
    const check = await trial;
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

/** The diff stats a pull request's row holds, and the head and merge base they were computed for. */
type KnownDiff = Pick<Models.PullRequest, 'statsHeadSha' | 'mergeBase' | 'additions' | 'deletions' | 'changedFiles'>;

/**
 * The stats of the three-dot diff base...head: those `known` holds when they were computed for the same head and the
 * merge base is still the one they started from (a base that moved on without the head: `git diff <merge base> <head>`
 * is the same diff), else git's (diffStats, which reuses the merge base just found). Spares the diff, the costliest
 * command of a refresh, for each open pull request into a branch on every push to it, and for a merge after one.
 */
async function diffOf(
  gitDir: string,
  baseSha: string,
  headSha: string,
  known: KnownDiff | undefined,
): Promise<Pick<DiffStats, 'mergeBase' | 'additions' | 'deletions' | 'changedFiles'>> {
  if (
    known?.statsHeadSha === headSha &&
    known.mergeBase &&
    known.additions !== null &&
    known.deletions !== null &&
    known.changedFiles !== null
  ) {
    const base = await mergeBase(gitDir, baseSha, headSha);
    if (base === known.mergeBase) {
      return { mergeBase: base, additions: known.additions, deletions: known.deletions, changedFiles: known.changedFiles };
    }
  }
  return diffStats(gitDir, baseSha, headSha);
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
  const state = await computePullGitState(gitDir, baseSha, headSha, stats, pull);
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
