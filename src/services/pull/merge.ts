import type { Models } from '../../db/client.ts';
import { ConflictError, isDomainError, NotFoundError, PreconditionFailedError, ValidationError } from '../../errors.ts';
import { readCommitInfos } from '../../git/commitInfo.ts';
import { isAncestor } from '../../git/compare.ts';
import { createMerge, type MergeStyle } from '../../git/createMerge.ts';
import type { GitIdentity } from '../../git/identity.ts';
import { readRefs } from '../../git/readRefs.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { requireNoOpenDependencies } from '../issue/dependency.ts';
import { fetchIntoHiddenRef, moveRefs } from '../repo/moveRefs.ts';
import { withRefLocks } from '../repo/refLocks.ts';
import { signatureWithEmail } from '../user/gitIdentity.ts';
import { adminMayOverride } from '../protection/branchGate.ts';
import { scheduleAutoMerge, type AutoMergePlan } from './autoMerge.ts';
import { deleteHeadBranchAfterMerge } from './deleteHeadBranch.ts';
import { markPullMerged } from './markMerged.ts';
import { addCommitMessageTrailer, mergeMessage, squashAuthor } from './mergeMessage.ts';
import { isMergeStyleAllowed, loadPullSettings } from './mergeSettings.ts';
import { isWorkInProgress } from '../issue/wip.ts';
import { findPullByIndex, gitDirOf, pullHeadRef, resolvePullRepo } from './pull.ts';
import { baseBranchRule, checkPullBranchProtections, isUserAllowedToMerge } from './protectionCheck.ts';
import { storePullState } from './stats.ts';
import type { MergeDo, MergePullInput, PullRows } from './types.ts';

/** Every `Do` value, in Gitea's order (MergePullRequestForm `In(…)`). */
export const MERGE_DOS: readonly MergeDo[] = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'];

/** What a merge did: the pull request as stored afterwards, and whether the head branch was deleted (or the merge was scheduled). */
export interface MergeResult extends PullRows {
  branchDeleted: boolean;
  /** merge_when_checks_succeed: the merge was scheduled (Gitea answers 201), nothing merged yet. */
  scheduled?: boolean;
}

/**
 * A merge refusal: the pull request's state (or the repository's settings) does not allow this merge. The
 * reason tells it apart from other failed preconditions (Gitea answers these with 405).
 */
export function mergeNotAllowed(message: string, data: Record<string, unknown> = {}): PreconditionFailedError {
  return new PreconditionFailedError(message, { ...data, reason: 'MERGE_NOT_ALLOWED' });
}

/**
 * Test seams: `afterChecks` runs after a merge's checks and before the refs' locks are taken (planMerge, runMerge);
 * `beforeBaseUpdate` after the merge commit is computed and before the base branch is moved.
 */
export const mergeTestHooks: {
  afterChecks: ((attempt: number) => Promise<void>) | null;
  beforeBaseUpdate: ((attempt: number) => Promise<void>) | null;
} = { afterChecks: null, beforeBaseUpdate: null };

/** `Do`, validated as Gitea's binding does (after the repository gates). @throws ValidationError */
function parseDo(value: string | undefined): MergeDo {
  if (value === undefined || value === '') throw new ValidationError('Required', { field: 'do', rule: 'Required' });
  const style = MERGE_DOS.find((d) => d === value);
  if (!style) throw new ValidationError('In', { field: 'do', rule: 'In' });
  return style;
}

/** Merges of one pull request run one at a time in this process (Gitea's per-pull working lock). */
const pullLocks = new Map<number, Promise<unknown>>();

async function withPullLock<T>(pullId: number, fn: (waited: boolean) => Promise<T>): Promise<T> {
  const previous = pullLocks.get(pullId);
  const run = (previous ?? Promise.resolve()).catch(() => undefined).then(() => fn(previous !== undefined));
  const tail = run.catch(() => undefined);
  pullLocks.set(pullId, tail);
  try {
    return await run;
  } finally {
    if (pullLocks.get(pullId) === tail) pullLocks.delete(pullId);
  }
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
  const headRef = `refs/heads/${pull.headBranch}`;
  const pullRef = pullHeadRef(pull.index);
  const baseRefs = await readRefs(baseGitDir, headRepo.id === base.id ? [baseRef, pullRef, headRef] : [baseRef, pullRef]);
  const headSha = headRepo.id === base.id ? baseRefs.get(headRef) : (await readRefs(gitDirOf(cx, headRepo), [headRef])).get(headRef);
  const baseSha = baseRefs.get(baseRef);
  if (!baseSha) throw mergeNotAllowed(`the base branch '${pull.baseBranch}' does not exist`, { pullId: pull.id });
  if (!headSha) throw mergeNotAllowed(`the head branch '${pull.headBranch}' does not exist`, { pullId: pull.id });
  // Before the merge's locks (planMerge): the pull request's head ref is written under its own.
  if (baseRefs.get(pullRef) !== headSha) {
    await withRefLocks(cx, base, [pullRef], () => fetchIntoHiddenRef(baseGitDir, gitDirOf(cx, headRepo), headSha, pullRef));
  }
  return { baseGitDir, baseSha, headRepo, headSha };
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

/**
 * POST /repos/{o}/{r}/pulls/{index}/merge (Gitea MergePullRequest → CheckPullMergeable → Merge). Gates in
 * Gitea's order: token scope, 404 invisible repository or pull requests unit, 403 unreadable code, 401
 * anonymous, 423 archived, 422 `Do` missing or unknown, 404 no such pull request; then (405 unless said)
 * already merged, closed (404), no code write on the base ("User not allowed to merge PR"), work in progress,
 * not mergeable (conflicts, nothing to merge, unrelated histories), open dependencies, a style the repository
 * does not allow, `head_commit_id` not the current head (409 "head out of date").
 * The merge commit is computed without a work tree (createMerge: merge, rebase, rebase-merge, squash,
 * fast-forward-only) and the base branch moved by compare-and-swap: a push landing in between is never lost;
 * the merge is recomputed once on the new base, and a second lost race is a 409. The checks run before the refs'
 * locks are taken (planMerge), which are held only while the merge is computed and the base moved (runMerge):
 * merges into one branch wait for each other's git work, not for each other's checks. Rebase conflicts found while
 * replaying (which the trial merge cannot see) are a 409 as in Gitea. The pull request is then marked merged
 * (markPullMerged), the base branch update recorded as a push by the merger (Branch row, `repo.pushed`), and
 * the head branch deleted when asked or by default and allowed (deleteHeadBranchAfterMerge).
 * `manually-merged` only records a merge done elsewhere (markManuallyMerged).
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError, ValidationError, PreconditionFailedError (the merge is refused), ConflictError
 */
export async function mergePullRequest(
  cx: ServiceContext,
  ref: RepoRef,
  index: number,
  input: MergePullInput,
  opts: { auto?: boolean } = {},
): Promise<MergeResult> {
  const access = await resolvePullRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const style = parseDo(input.do);
  const found = await findPullByIndex(cx, access, index);
  const outcome = await withPullLock(found.pull.id, async (waited) => {
    for (let attempt = 1; ; attempt++) {
      // Read again after another merge of it here, or after a moved head; else the rows read before are current.
      const rows = attempt === 1 && !waited ? found : await findPullByIndex(cx, access, index);
      const plan = await planMerge(cx, access, rows, style, input, opts, viewer);
      if (mergeTestHooks.afterChecks) await mergeTestHooks.afterChecks(attempt);
      const done = await withRefLocks(cx, access.repo, mergeRefsOf(plan.rows.pull, access.repo), () =>
        'manual' in plan
          ? recordManualMerge(cx, access, index, plan)
          : 'schedule' in plan
            ? scheduleMerge(cx, access, index, plan, viewer)
            : runMerge(cx, access, index, plan, opts, viewer),
      );
      if (done !== 'head moved') return done;
      // The head branch moved after the checks: they are run again for the new head, once.
      if (attempt === 2) throw new ConflictError('head out of date', { pullId: plan.rows.pull.id });
    }
  });
  // Outside the base repository's lock: the head branch may live in another repository (whose lock it takes).
  const { result, deleteHead, scheduled } = outcome;
  if (scheduled) return { ...result, branchDeleted: false, scheduled: true };
  const branchDeleted = deleteHead ? await deleteHeadBranchAfterMerge(cx, access, result, deleteHead.headRepo, deleteHead.headSha) : false;
  return { ...result, branchDeleted };
}

/**
 * The refs a merge reads and moves, one writer of each at a time across instances (writers of the repository's
 * other refs go on): the base branch, the pull request's head ref and a head branch of the same repository.
 */
function mergeRefsOf(pull: Models.PullRequest, base: Models.Repository): string[] {
  const refs = [`refs/heads/${pull.baseBranch}`, pullHeadRef(pull.index)];
  if (pull.headRepoId === base.id) refs.push(`refs/heads/${pull.headBranch}`);
  return refs;
}

interface MergeOutcome {
  result: PullRows;
  deleteHead: { headRepo: Models.Repository; headSha: string } | null;
  scheduled: boolean;
}

/** A merge checked and ready to be made under the refs' locks (runMerge). */
interface MergePlan {
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
interface ManualPlan {
  rows: PullRows;
  manual: string;
}

/** merge_when_checks_succeed, checked, to be scheduled under the refs' locks (a merge made meanwhile is found). */
interface SchedulePlan {
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
async function planMerge(
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
function requireOpenUnmerged(rows: PullRows): void {
  if (rows.pull.hasMerged) throw mergeNotAllowed('The PR is already merged', { pullId: rows.pull.id });
  if (rows.issue.isClosed) throw new NotFoundError('not found', { pullId: rows.pull.id });
}

/**
 * The pull request as it is under the refs' locks: merged or closed meanwhile is refused as before the checks, and
 * changed branches (an edit of the base) are a 409, the locks held being not its refs any more.
 */
async function lockedRows(
  cx: ServiceContext,
  access: RepoAccess,
  index: number,
  plan: MergePlan | ManualPlan | SchedulePlan,
): Promise<PullRows> {
  const rows = await findPullByIndex(cx, access, index);
  if (rows.pull.baseBranch !== plan.rows.pull.baseBranch || rows.pull.headBranch !== plan.rows.pull.headBranch)
    throw new ConflictError('the branches of the pull request changed during the merge; try again', { pullId: rows.pull.id });
  requireOpenUnmerged(rows);
  return rows;
}

/**
 * The merge itself, under the refs' locks: the merge commit is computed without a work tree on the base branch as
 * it is now (createMerge) and the base moved by compare-and-swap, the pull request marked merged in between.
 * 'head moved' when the head branch is not the commit the checks were made for.
 */
async function runMerge(
  cx: ServiceContext,
  access: RepoAccess,
  index: number,
  plan: MergePlan,
  opts: { auto?: boolean },
  viewer: Models.User,
): Promise<MergeOutcome | 'head moved'> {
  const rows = await lockedRows(cx, access, index, plan);
  const { sides, style } = plan;
  const baseRef = `refs/heads/${rows.pull.baseBranch}`;
  const now = await readRefs(sides.baseGitDir, [baseRef]);
  const headNow = (await readRefs(gitDirOf(cx, sides.headRepo), [`refs/heads/${rows.pull.headBranch}`])).get(
    `refs/heads/${rows.pull.headBranch}`,
  );
  if (headNow !== sides.headSha) return 'head moved';
  let baseSha = now.get(baseRef);
  if (!baseSha) throw mergeNotAllowed(`the base branch '${rows.pull.baseBranch}' does not exist`, { pullId: rows.pull.id });
  let merged: { stored: PullRows | null } | null = null;
  for (let attempt = 1; attempt <= 2 && !merged; attempt++) {
    const outcome = await createMerge(sides.baseGitDir, {
      style,
      base: baseSha,
      head: sides.headSha,
      tips: true,
      author: plan.author,
      committer: plan.committer,
      message: plan.message,
    });
    switch (outcome.status) {
      case 'merged':
        break;
      case 'conflict':
        throw new ConflictError(
          `Merge Conflict Error: ${style} of the pull request conflicts${outcome.commit ? ` at commit ${outcome.commit}` : ''}${outcome.files.length ? ` in ${outcome.files.join(', ')}` : ''}`,
          { style, files: outcome.files, commit: outcome.commit },
        );
      case 'not-fast-forward':
        throw new ConflictError(
          'the base branch has commits that are not in the head branch: it cannot be fast-forwarded (update the head branch first)',
          { style },
        );
      case 'already-merged':
        throw mergeNotAllowed('the head branch is already part of the base branch: nothing to merge', { pullId: rows.pull.id });
      case 'unrelated-histories':
        throw new ConflictError('Merge UnrelatedHistories Error: the head and base branches have unrelated histories', { style });
    }
    if (mergeTestHooks.beforeBaseUpdate) await mergeTestHooks.beforeBaseUpdate(attempt);
    // Marked merged before the push job runs, so its follow-ups do not take the merge for a manual one.
    const marked: { stored: PullRows | null } = { stored: null };
    const markMerged = async () => {
      marked.stored = await markPullMerged(cx, rows, {
        commitId: outcome.sha,
        mergedAt: plan.when,
        mergerId: viewer.id,
        status: plan.rows.pull.status,
        how: style,
        mergeBase: outcome.mergeBase,
        auto: opts.auto === true,
        repoFacts: access.facts,
      });
    };
    const update = await moveRefs(
      cx,
      access.repo,
      [{ ref: baseRef, oldSha: baseSha, newSha: outcome.sha }],
      { kind: 'merge' },
      { afterMove: markMerged },
    );
    if (update.moved) {
      merged = marked;
      continue;
    }
    if (update.current === null)
      throw mergeNotAllowed(`the base branch '${rows.pull.baseBranch}' does not exist`, { pullId: rows.pull.id });
    baseSha = update.current;
  }
  if (!merged) throw new ConflictError('merge push out of date', { pullId: rows.pull.id });
  const result = merged.stored ?? (await findPullByIndex(cx, access, index));
  return { result, deleteHead: plan.deleteBranch ? { headRepo: sides.headRepo, headSha: sides.headSha } : null, scheduled: false };
}

/** merge_when_checks_succeed under the refs' locks: scheduled (Gitea answers 201), nothing merged yet. */
async function scheduleMerge(
  cx: ServiceContext,
  access: RepoAccess,
  index: number,
  plan: SchedulePlan,
  viewer: Models.User,
): Promise<MergeOutcome> {
  const rows = await lockedRows(cx, access, index, plan);
  await scheduleAutoMerge(cx, rows, viewer, plan.schedule);
  return { result: rows, deleteHead: null, scheduled: true };
}

/** manually-merged under the refs' locks (the base branch is read to check the commit given). */
async function recordManualMerge(cx: ServiceContext, access: RepoAccess, index: number, plan: ManualPlan): Promise<MergeOutcome> {
  const rows = await lockedRows(cx, access, index, plan);
  return { result: await markManuallyMerged(cx, access, rows, plan.manual), deleteHead: null, scheduled: false };
}

/**
 * Gitea MergedManually: records that the pull request was merged outside Forgegraph by `commitId`, which must
 * be a full commit id of the base branch (409 "Wrong commit ID" otherwise) that contains the head (ours: Gitea
 * does not check this). Needs allow_manual_merge (405). The merge time is the commit's author time.
 * @throws PreconditionFailedError (the merge is refused), ConflictError
 */
async function markManuallyMerged(cx: ServiceContext, access: RepoAccess, rows: PullRows, commitId: string): Promise<PullRows> {
  const viewer = requireViewer(cx);
  const settings = await loadPullSettings(cx.db, access.repo.id);
  if (!isMergeStyleAllowed(settings, 'manually-merged'))
    throw mergeNotAllowed('manually-merged is not allowed an allowed merge style for this repository', { style: 'manually-merged' });
  const wrong = () => new ConflictError('Wrong commit ID', { commitId });
  const gitDir = gitDirOf(cx, access.repo);
  const sha = commitId.toLowerCase();
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) throw wrong();
  const refs = await readRefs(gitDir, [`refs/heads/${rows.pull.baseBranch}`, pullHeadRef(rows.pull.index)]);
  const baseSha = refs.get(`refs/heads/${rows.pull.baseBranch}`);
  const headSha = refs.get(pullHeadRef(rows.pull.index));
  let ok = false;
  try {
    ok =
      baseSha !== undefined &&
      (await isAncestor(gitDir, sha, baseSha)) &&
      (headSha === undefined || (await isAncestor(gitDir, headSha, sha)));
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  if (!ok) throw wrong();
  const [commit] = await readCommitInfos(gitDir, [sha]);
  const mergedAt = commit ? new Date(commit.author.when) : new Date();
  const stored = await markPullMerged(cx, rows, {
    commitId: sha,
    mergedAt,
    mergerId: viewer.id,
    status: 'MANUALLY_MERGED',
    how: 'manually-merged',
    repoFacts: access.facts,
  });
  if (!stored) throw mergeNotAllowed('The PR is already merged', { pullId: rows.pull.id });
  return stored;
}

/**
 * GET /repos/{o}/{r}/pulls/{index}/merge (Gitea IsPullRequestMerged): whether the pull request is merged
 * (REST answers 204, or 404 when not). Readers of the pull requests and code units.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function isPullRequestMerged(cx: ServiceContext, ref: RepoRef, index: number): Promise<boolean> {
  const access = await resolvePullRepo(cx, ref, 'read');
  const { pull } = await findPullByIndex(cx, access, index);
  return pull.hasMerged;
}
