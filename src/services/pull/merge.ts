import type { Models } from '../../db/client.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { readCommitInfos } from '../../git/commitInfo.ts';
import { isAncestor } from '../../git/compare.ts';
import { createMerge } from '../../git/createMerge.ts';
import { readRefs } from '../../git/readRefs.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { moveRefs } from '../repo/moveRefs.ts';
import { withRefLocks } from '../repo/refLocks.ts';
import { scheduleAutoMerge } from './autoMerge.ts';
import { deleteHeadBranchAfterMerge } from './deleteHeadBranch.ts';
import { markPullMerged } from './markMerged.ts';
import { isMergeStyleAllowed, loadPullSettings } from './mergeSettings.ts';
import { mergeNotAllowed, planMerge, requireOpenUnmerged, type ManualPlan, type MergePlan, type SchedulePlan } from './mergePlan.ts';
import { findPullByIndex, gitDirOf, pullHeadRef, resolvePullRepo } from './pull.ts';
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
