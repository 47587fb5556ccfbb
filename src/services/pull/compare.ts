import type { Readable } from 'node:stream';
import { NotFoundError } from '../../errors.ts';
import { compareCommits, diffStats, type DiffFile, type DiffStats } from '../../git/compare.ts';
import { diffStream, patchStream } from '../../git/patch.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { commitViews, type CommitView } from '../repo/commitView.ts';
import type { ServiceContext } from '../context.ts';
import type { ListOptions } from '../paging.ts';
import { findPullByIndex, gitDirOf, loadPullView, resolvePullRepo } from './pull.ts';
import type { PullView } from './types.ts';

/** The two commits a pull request's diff is taken between, in the base repository. */
export interface PullRange {
  gitDir: string;
  /** The base side: the base branch tip for an unmerged pull request, the stored merge base once merged. */
  base: string;
  /** `refs/pull/{index}/head`'s commit. */
  head: string;
}

/**
 * Gitea's compare range of a pull request: base branch (or, once merged, the merge base) to
 * `refs/pull/{index}/head`. @throws NotFoundError when the refs are gone
 */
export function pullRange(cx: ServiceContext, v: PullView): PullRange {
  const base = v.pull.hasMerged ? v.pull.mergeBase : v.baseSha || v.pull.mergeBase;
  if (!base || !v.pullRefSha) throw new NotFoundError('pull request head or base does not exist', { pullId: v.pull.id });
  return { gitDir: gitDirOf(cx, v.baseRepo.repo), base, head: v.pullRefSha };
}

/** Per-request memo of diff stats by (repository, base, head): they depend only on the two commits. */
const statsMemo = new WeakMap<ServiceContext['loaders'], Map<string, Promise<DiffStats>>>();

/** The diff stats of a range, computed once per request and range (REST files, GraphQL files through loaders). */
export function rangeStats(cx: ServiceContext, range: PullRange): Promise<DiffStats> {
  let memo = statsMemo.get(cx.loaders);
  if (!memo) statsMemo.set(cx.loaders, (memo = new Map()));
  const key = `${range.gitDir}\0${range.base}\0${range.head}`;
  let stats = memo.get(key);
  if (!stats) memo.set(key, (stats = diffStats(range.gitDir, range.base, range.head)));
  return stats;
}

/** The pull request of a route, loaded with its relations. @throws NotFoundError, PermissionDeniedError */
async function loadPull(cx: ServiceContext, ref: RepoRef, index: number): Promise<PullView> {
  const access = await resolvePullRepo(cx, ref, 'read');
  const { issue } = await findPullByIndex(cx, access, index);
  return loadPullView(cx, issue);
}

/** A page of a pull request's changed files, with the total. */
export interface PullFilesPage {
  view: PullView;
  /** The head commit the files are shown at. */
  head: string;
  files: DiffFile[];
  total: number;
}

/**
 * GET …/pulls/{index}/files (Gitea GetPullRequestFiles): the files of the three-dot diff, in git's order,
 * starting at `skipTo` when given, one page; `total` counts every file.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function listPullFiles(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  opts: { skipTo?: string; page: ListOptions },
): Promise<PullFilesPage> {
  const view = await loadPull(cx, ref, index);
  const range = pullRange(cx, view);
  const stats = await rangeStats(cx, range);
  const from = opts.skipTo
    ? Math.max(
        0,
        stats.files.findIndex((f) => f.filename === opts.skipTo),
      )
    : 0;
  const start = from + (opts.page.page - 1) * opts.page.pageSize;
  return { view, head: range.head, files: stats.files.slice(start, start + opts.page.pageSize), total: stats.files.length };
}

/** A commit of a pull request with what Gitea's Commit JSON shows of it. */
export type PullCommitView = CommitView;

/** A page of a pull request's commits, newest first, with the total. */
export interface PullCommitsPage {
  view: PullView;
  commits: PullCommitView[];
  total: number;
}

/**
 * GET …/pulls/{index}/commits (Gitea GetPullRequestCommits): the commits of base..head (from the merge base
 * once merged), newest first, one page, with the total; each with the users matching its author and committer
 * e-mails and, when `files` (or `stat`) is asked, the files it changed.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function listPullCommits(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  opts: { page: ListOptions; files: boolean; verification?: boolean },
): Promise<PullCommitsPage> {
  const view = await loadPull(cx, ref, index);
  const range = pullRange(cx, view);
  const { total, commits } = await compareCommits(range.gitDir, range.base, range.head, {
    skip: (opts.page.page - 1) * opts.page.pageSize,
    limit: opts.page.pageSize,
  });
  return { view, total, commits: await commitViews(cx, range.gitDir, commits, opts.files, opts.verification ?? false) };
}

/**
 * GET …/pulls/{index}.diff and .patch (Gitea DownloadPullDiffOrPatch): the three-dot diff, or the commits as
 * a mailbox, streamed from git. The range is checked before the stream starts, so errors are still 404.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function pullDiffStream(cx: ServiceContext, ref: RepoRef, index: number, kind: 'diff' | 'patch'): Promise<Readable> {
  const range = pullRange(cx, await loadPull(cx, ref, index));
  return kind === 'diff' ? diffStream(range.gitDir, range.base, range.head) : patchStream(range.gitDir, range.base, range.head);
}
