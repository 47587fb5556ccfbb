import type { Models } from '../../db/client.ts';
import { ConflictError, isDomainError, NotFoundError, PreconditionFailedError } from '../../errors.ts';
import type { MergeStyle } from '../../git/createMerge.ts';
import type { GitIdentity } from '../../git/identity.ts';
import { readRefs } from '../../git/readRefs.ts';
import type { RepoAccess } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { requireNoOpenDependencies } from '../issue/dependency.ts';
import { isWorkInProgress } from '../issue/wip.ts';
import { adminMayOverride } from '../protection/branchGate.ts';
import { signatureWithEmail } from '../user/gitIdentity.ts';
import type { AutoMergePlan } from './autoMerge.ts';
import { addCommitMessageTrailer, mergeMessage, squashAuthor } from './mergeMessage.ts';
import { isMergeStyleAllowed, loadPullSettings } from './mergeSettings.ts';
import { gitDirOf } from './pull.ts';
import { baseBranchRule, checkPullBranchProtections, isUserAllowedToMerge } from './protectionCheck.ts';
import { storePullState } from './stats.ts';
import { syncPullHead } from './syncPullHead.ts';
import type { MergeDo, MergePullInput, PullRows } from './types.ts';

/*
 * What a merge checks before it takes its refs' locks (merge.ts runs it under them): the pull request's state for
 * its current commits, the merger's rights, the branch protections, dependencies and settings, the message and
 * signatures. Its answers are Gitea's refusals, in Gitea's order.
 */

/**
 * A merge refusal: the pull request's state (or the repository's settings) does not allow this merge. The
 * reason tells it apart from other failed preconditions (Gitea answers these with 405).
 */
export function mergeNotAllowed(message: string, data: Record<string, unknown> = {}): PreconditionFailedError {
  return new PreconditionFailedError(message, { ...data, reason: 'MERGE_NOT_ALLOWED' });
}

/** The head repository row of a pull request, or null once it is deleted. */
async function headRepoOf(cx: ServiceContext, pull: Models.PullRequest, base: Models.Repository): Promise<Models.Repository | null> {
  if (pull.headRepoId === null) return null;
  if (pull.headRepoId === base.id) return base;
  return cx.db.repository.findUnique({ where: { id: pull.headRepoId } });
}

/** Where the two sides of a pull request are now. */
interface Sides {
  baseGitDir: string;
  baseSha: string;
  headRepo: Models.Repository;
  headSha: string;
}

/**
 * The current tips: the base branch, and the head branch in the head repository, whose commit is made
 * available in the base repository as `refs/pull/{index}/head` (as Gitea fetches the head before merging).
 * @throws PreconditionFailedError (405) when a branch or the head repository is gone
 */
async function currentSides(cx: ServiceContext, base: Models.Repository, pull: Models.PullRequest): Promise<Sides> {
  const baseGitDir = gitDirOf(cx, base);
  const headRepo = await headRepoOf(cx, pull, base);
  if (!headRepo) throw mergeNotAllowed('the head repository of this pull request has been deleted', { pullId: pull.id });
  const baseRef = `refs/heads/${pull.baseBranch}`;
  const baseSha = (await readRefs(baseGitDir, [baseRef])).get(baseRef);
  if (!baseSha) throw mergeNotAllowed(`the base branch '${pull.baseBranch}' does not exist`, { pullId: pull.id });
  // Before the merge's locks (planMerge): the pull request's head ref is written under its own.
  const head = await syncPullHead(cx, base, headRepo, pull.headBranch, pull.index);
  if (!head) throw mergeNotAllowed(`the head branch '${pull.headBranch}' does not exist`, { pullId: pull.id });
  return { baseGitDir, baseSha, headRepo, headSha: head.head };
}

/** Refusals for a pull request whose (fresh) status does not allow a merge (Gitea ErrNotMergeableState, 405). */
function requireMergeableStatus(pull: Models.PullRequest): void {
  switch (pull.status) {
    case 'MERGEABLE':
    case 'EMPTY':
      return;
    case 'CONFLICT': {
      let files: string[];
      try {
        const parsed: unknown = JSON.parse(pull.conflictedFiles);
        files = Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string') : [];
      } catch {
        files = [];
      }
      throw mergeNotAllowed(
        `the pull request has merge conflicts${files.length ? ` in ${files.join(', ')}` : ''}; resolve them and try again`,
        { pullId: pull.id, files },
      );
    }
    case 'ANCESTOR':
      throw mergeNotAllowed('the head branch is already part of the base branch: nothing to merge', { pullId: pull.id });
    case 'ERROR':
      throw mergeNotAllowed('the head and base branches have unrelated histories', { pullId: pull.id });
    default:
      throw mergeNotAllowed('Please try again later', { pullId: pull.id, status: pull.status });
  }
}

/** A merge checked and ready to be made under the refs' locks (runMerge). */
export interface MergePlan {
  rows: PullRows;
  sides: Sides;
  style: MergeStyle;
  when: Date;
  author: GitIdentity;
  committer: GitIdentity;
  message: string;
  deleteBranch: boolean;
}

/** manually-merged, checked, to be recorded under the refs' locks: the commit given. */
export interface ManualPlan {
  rows: PullRows;
  manual: string;
}

/** merge_when_checks_succeed, checked, to be scheduled under the refs' locks (a merge made meanwhile is found). */
export interface SchedulePlan {
  rows: PullRows;
  schedule: AutoMergePlan;
}

/**
 * Everything a merge checks, before the refs' locks are taken (a merge holds them only while it computes the merge
 * commit and moves the base branch, runMerge): the pull request's state for its current commits, the merger's
 * rights, the branch protections, dependencies and settings; then the message and signatures. A scheduled merge
 * (merge_when_checks_succeed) is scheduled here. Concurrent writers of the base branch change nothing checked here
 * (the merge is computed on the base as it is under the lock); a moved head is found under the lock (runMerge).
 */
export async function planMerge(
  cx: ServiceContext,
  access: RepoAccess,
  rows: PullRows,
  style: MergeDo,
  input: MergePullInput,
  opts: { auto?: boolean },
  viewer: Models.User,
): Promise<MergePlan | ManualPlan | SchedulePlan> {
  requireOpenUnmerged(rows);
  const rule = await baseBranchRule(cx.db, rows.pull);
  if (!(await isUserAllowedToMerge(cx.db, rule, viewer, access.perm)))
    throw mergeNotAllowed('User not allowed to merge PR', { pullId: rows.pull.id });
  if (style === 'manually-merged') return { rows, manual: input.mergeCommitId ?? '' };

  if (isWorkInProgress(rows.issue.title)) throw mergeNotAllowed('Work in progress PRs cannot be merged', { pullId: rows.pull.id });
  const sides = await currentSides(cx, access.repo, rows.pull);
  rows.pull = await storePullState(cx.db, sides.baseGitDir, rows.pull, sides.headSha, sides.baseSha);
  requireMergeableStatus(rows.pull);
  // Scheduling skips the protection checks (Gitea MergeCheckTypeAuto): the scheduled merge runs them.
  if (!input.mergeWhenChecksSucceed || opts.auto) {
    try {
      await checkPullBranchProtections(cx.db, rule, rows, sides.headSha);
    } catch (err) {
      const overridden = !opts.auto && input.forceMerge === true && rule !== null && adminMayOverride(rule, access.perm);
      if (!overridden || !isDomainError(err) || err.data.notReady !== true) throw err;
    }
  }
  // Gitea isSignedIfRequired (forced merges too): a branch requiring signed commits takes only merges the server
  // signs, and no signing key is configured (Gitea ErrWontSign{nokey}).
  if (rule?.row.requireSignedCommits) throw mergeNotAllowed('wont sign: nokey', { pullId: rows.pull.id, branch: rows.pull.baseBranch });
  try {
    await requireNoOpenDependencies(cx.db, rows.issue);
  } catch (err) {
    if (err instanceof PreconditionFailedError) throw mergeNotAllowed(err.message, err.data);
    throw err;
  }
  const message = await mergeMessage(cx, access, rows, sides.headRepo, style, input);
  const settings = await loadPullSettings(cx.db, access.repo.id);
  const deleteBranch = rows.pull.flow === 'GITHUB' && (input.deleteBranchAfterMerge ?? settings.defaultDeleteBranchAfterMerge === true);
  if (!isMergeStyleAllowed(settings, style))
    throw mergeNotAllowed(`${style} is not allowed an allowed merge style for this repository`, { style });
  const authorEmail = input.authorEmail ?? '';
  // Checked before scheduling too: a scheduled merge must not fail later on an address that was never the merger's.
  const when = new Date();
  if (authorEmail) await signatureWithEmail(cx, viewer, when, authorEmail);
  if (input.headCommitId && input.headCommitId !== sides.headSha) {
    throw new ConflictError('head out of date', { given: input.headCommitId, current: sides.headSha });
  }
  if (input.mergeWhenChecksSucceed && !opts.auto)
    return { rows, schedule: { style, message, deleteBranchAfterMerge: deleteBranch, authorEmail } };
  const committer = await signatureWithEmail(cx, viewer, when, authorEmail);
  const author = style === 'squash' ? await squashAuthor(cx, sides, rows.issue, viewer, when) : committer;
  const squashMessage =
    style === 'squash' && `${author.name} <${author.email}>` !== `${committer.name} <${committer.email}>`
      ? addCommitMessageTrailer(message, 'Co-authored-by', `${author.name} <${author.email}>`)
      : message;
  return { rows, sides, style, when, author, committer, message: squashMessage, deleteBranch };
}

/** Refusals of a pull request merged (405) or closed (404) meanwhile. */
export function requireOpenUnmerged(rows: PullRows): void {
  if (rows.pull.hasMerged) throw mergeNotAllowed('The PR is already merged', { pullId: rows.pull.id });
  if (rows.issue.isClosed) throw new NotFoundError('not found', { pullId: rows.pull.id });
}
