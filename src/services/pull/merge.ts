import type { Models } from '../../db/client.ts';
import { ConflictError, isDomainError, NotFoundError, PreconditionFailedError, ValidationError } from '../../errors.ts';
import { readCommitInfos } from '../../git/commitInfo.ts';
import { isAncestor } from '../../git/compare.ts';
import { createMerge } from '../../git/createMerge.ts';
import { readRefs } from '../../git/readRefs.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { requireNoOpenDependencies } from '../issue/dependency.ts';
import { fetchIntoHiddenRef, moveRefs } from '../repo/moveRefs.ts';
import { withRefLocks } from '../repo/refLocks.ts';
import { signatureWithEmail } from '../user/gitIdentity.ts';
import { adminMayOverride } from '../protection/branchGate.ts';
import { scheduleAutoMerge } from './autoMerge.ts';
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

/** Test seams: `beforeBaseUpdate` runs after the merge commit is computed and before the base branch is moved. */
export const mergeTestHooks: { beforeBaseUpdate: ((attempt: number) => Promise<void>) | null } = { beforeBaseUpdate: null };

/** `Do`, validated as Gitea's binding does (after the repository gates). @throws ValidationError */
function parseDo(value: string | undefined): MergeDo {
  if (value === undefined || value === '') throw new ValidationError('Required', { field: 'do', rule: 'Required' });
  const style = MERGE_DOS.find((d) => d === value);
  if (!style) throw new ValidationError('In', { field: 'do', rule: 'In' });
  return style;
}

/** Merges of one pull request run one at a time in this process (Gitea's per-pull working lock). */
const pullLocks = new Map<number, Promise<unknown>>();

async function withPullLock<T>(pullId: number, fn: () => Promise<T>): Promise<T> {
  const previous = pullLocks.get(pullId) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(fn);
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
  if (baseRefs.get(pullRef) !== headSha) await fetchIntoHiddenRef(baseGitDir, gitDirOf(cx, headRepo), headSha, pullRef);
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
 * the merge is recomputed once on the new base, and a second lost race is a 409. Rebase conflicts found while
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
  // The refs a merge reads and moves, one writer of each at a time across instances (writers of the repository's other
  // refs go on): the base branch, the pull request's head ref and a head branch of the same repository. And one merge
  // of this pull request here.
  const mergeRefs = [`refs/heads/${found.pull.baseBranch}`, pullHeadRef(found.pull.index)];
  if (found.pull.headRepoId === access.repo.id) mergeRefs.push(`refs/heads/${found.pull.headBranch}`);
  const outcome = await withRefLocks(cx, access.repo, mergeRefs, () =>
    withPullLock(found.pull.id, async () => {
      const rows = await findPullByIndex(cx, access, index);
      if (rows.pull.hasMerged) throw mergeNotAllowed('The PR is already merged', { pullId: rows.pull.id });
      // Its branches were changed meanwhile (an edit of the base): the locks held are not its refs any more.
      if (rows.pull.baseBranch !== found.pull.baseBranch || rows.pull.headBranch !== found.pull.headBranch)
        throw new ConflictError('the branches of the pull request changed during the merge; try again', { pullId: rows.pull.id });
      if (rows.issue.isClosed) throw new NotFoundError('not found', { pullId: rows.pull.id });
      const rule = await baseBranchRule(cx.db, rows.pull);
      if (!(await isUserAllowedToMerge(cx.db, rule, viewer, access.perm)))
        throw mergeNotAllowed('User not allowed to merge PR', { pullId: rows.pull.id });
      if (style === 'manually-merged')
        return { result: await markManuallyMerged(cx, access, rows, input.mergeCommitId ?? ''), deleteHead: null, scheduled: false };

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
      if (authorEmail) await signatureWithEmail(cx, viewer, new Date(), authorEmail);
      if (input.headCommitId && input.headCommitId !== sides.headSha) {
        throw new ConflictError('head out of date', { given: input.headCommitId, current: sides.headSha });
      }
      if (input.mergeWhenChecksSucceed && !opts.auto) {
        await scheduleAutoMerge(cx, rows, viewer, { style, message, deleteBranchAfterMerge: deleteBranch, authorEmail });
        return { result: rows, deleteHead: null, scheduled: true };
      }

      const when = new Date();
      const committer = await signatureWithEmail(cx, viewer, when, authorEmail);
      const author = style === 'squash' ? await squashAuthor(cx, sides, rows.issue, viewer, when) : committer;
      const squashMessage =
        style === 'squash' && `${author.name} <${author.email}>` !== `${committer.name} <${committer.email}>`
          ? addCommitMessageTrailer(message, 'Co-authored-by', `${author.name} <${author.email}>`)
          : message;
      const baseRef = `refs/heads/${rows.pull.baseBranch}`;
      let baseSha = sides.baseSha;
      let merged: { stored: PullRows | null } | null = null;
      for (let attempt = 1; attempt <= 2 && !merged; attempt++) {
        const outcome = await createMerge(sides.baseGitDir, {
          style,
          base: baseSha,
          head: sides.headSha,
          tips: true,
          author,
          committer,
          message: squashMessage,
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
            mergedAt: when,
            mergerId: viewer.id,
            status: rows.pull.status,
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
      const stored = merged.stored;
      const result = stored ?? (await findPullByIndex(cx, access, index));
      return { result, deleteHead: deleteBranch ? { headRepo: sides.headRepo, headSha: sides.headSha } : null, scheduled: false };
    }),
  );
  // Outside the base repository's lock: the head branch may live in another repository (whose lock it takes).
  const { result, deleteHead, scheduled } = outcome;
  if (scheduled) return { ...result, branchDeleted: false, scheduled: true };
  const branchDeleted = deleteHead ? await deleteHeadBranchAfterMerge(cx, access, result, deleteHead.headRepo, deleteHead.headSha) : false;
  return { ...result, branchDeleted };
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
