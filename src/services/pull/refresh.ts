import type { Models } from '../../db/client.ts';
import { commitsExcluding, diffStats, isAncestor, type DiffFile, type DiffStats } from '../../git/compare.ts';
import { readRefs } from '../../git/readRefs.ts';
import { defineHandler, type JobHandler } from '../../jobs/jobKind.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { createSystemContext, withTx, type AppDeps, type ServiceContext } from '../context.ts';
import { closeIssueBySystem } from '../issue/edit.ts';
import { findBranchRule } from '../protection/rule.ts';
import type { AppliedPush, PushFollowUp } from '../repo/pushJob.ts';
import { pushOpenPullBranches } from './openPullBranches.ts';
import { gitDirOf, pullHeadRef } from './pull.ts';
import { REFRESH_BASE_JOB, type RefreshBasePayload } from './refreshBaseJobKind.ts';
import { storePullState } from './stats.ts';
import { syncPullHead } from './syncPullHead.ts';

const ZERO = /^0+$/;
const BRANCH = 'refs/heads/';

/** An open, unmerged pull request with its repositories, as the refresh works on it. */
export type RefreshedPull = Models.PullRequest & { issue: Models.Issue; baseRepo: Models.Repository; headRepo: Models.Repository | null };

/** What a base-branch hook learns: the branch moved from `oldSha` to `newSha`, and the open pull requests into it. */
export interface BaseUpdate {
  repoId: number;
  branch: string;
  oldSha: string;
  newSha: string;
  pusherId: number;
  pulls: RefreshedPull[];
}

/** A function run after a base branch moved and its pull requests were refreshed. */
export type BaseUpdateHook = (cx: ServiceContext, update: BaseUpdate) => Promise<void>;

const baseUpdateHooks: BaseUpdateHook[] = [];

/**
 * Registers a hook run after a push moved the base branch of open pull requests (their stats and mergeability
 * already recomputed): the place for autodetect_manual_merge (a head that became an ancestor of the base).
 */
export function onPullBaseUpdated(hook: BaseUpdateHook): void {
  if (!baseUpdateHooks.includes(hook)) baseUpdateHooks.push(hook);
}

const OPEN_PULL = { hasMerged: false, flow: 'GITHUB', issue: { isClosed: false } } as const satisfies Models.Prisma.PullRequestWhereInput;
const PULL_INCLUDE = { issue: true, baseRepo: true, headRepo: true } as const satisfies Models.Prisma.PullRequestInclude;

/** A diff's identity: its files with their blob ids and modes on both sides (line positions do not matter). */
function diffKey(files: readonly DiffFile[]): string {
  return files.map((f) => [f.filename, f.previousFilename ?? '', f.status, f.oldSha, f.newSha, f.oldMode, f.newMode].join('\0')).join('\n');
}

/**
 * Gitea checkIfPRContentChanged: whether the pull request's diff against its merge base differs between the
 * old and the new head (a rebase onto a newer base that changes nothing is not a change). Also returns the new
 * head's stats, which the recomputation reuses.
 */
async function contentChanged(
  gitDir: string,
  baseSha: string,
  oldHead: string,
  newHead: string,
): Promise<{ changed: boolean; after?: DiffStats }> {
  const after = await diffStats(gitDir, baseSha, newHead);
  if (!oldHead || ZERO.test(oldHead)) return { changed: true, after };
  try {
    const before = await diffStats(gitDir, baseSha, oldHead);
    return { changed: diffKey(before.files) !== diffKey(after.files), after };
  } catch {
    return { changed: true, after };
  }
}

/**
 * Gitea CreatePushPullComment content: a force push lists the old and new heads; otherwise the new commits
 * (old..new) that are not on the base branch, oldest first. Null when there is nothing to record.
 */
async function pushContent(gitDir: string, baseSha: string, oldSha: string, newSha: string): Promise<string | null> {
  if (!oldSha || ZERO.test(oldSha)) return null;
  const force = !(await isAncestor(gitDir, oldSha, newSha).catch(() => false));
  if (force) return JSON.stringify({ is_force_push: true, commit_ids: [oldSha, newSha] });
  // The pushed commits (old..new) that are not on the base branch, newest first.
  const ids = (await commitsExcluding(gitDir, newSha, [oldSha, baseSha], 10_000)).reverse();
  return ids.length ? JSON.stringify({ is_force_push: false, commit_ids: ids }) : null;
}

/**
 * The head branch of pull requests moved (Gitea AddTestPullRequestTask, isSync): for each open
 * pull request from it, `refs/pull/N/head` follows (fetched from a fork), the reviews are marked stale when the
 * diff changed (and reviews of the new head are fresh again; approvals are dismissed when the base branch's rule
 * says dismiss_stale_approvals), the stats and mergeability are recomputed, and a
 * PULL_PUSH comment records the pushed commits.
 */
async function refreshHead(cx: ServiceContext, repoId: number, branch: string, oldSha: string, pusherId: number): Promise<void> {
  const pulls = await cx.db.pullRequest.findMany({
    where: { ...OPEN_PULL, headRepoId: repoId, headBranch: branch },
    include: PULL_INCLUDE,
    orderBy: { id: 'asc' },
  });
  for (const pr of pulls) {
    if (!pr.headRepo) continue;
    const gitDir = gitDirOf(cx, pr.baseRepo);
    // The ref follows the branch's tip as read under its lock: a later push's commits when one landed since
    // (its own refresh then finds nothing to do), never an older commit than a refresh beside this one wrote.
    const moved = await syncPullHead(cx, pr.baseRepo, pr.headRepo, branch, pr.index);
    if (!moved || moved.previous === moved.head) continue;
    const { previous, head: newSha } = moved;
    const baseSha = (await readRefs(gitDir, [`${BRANCH}${pr.baseBranch}`])).get(`${BRANCH}${pr.baseBranch}`) ?? '';
    const before = previous || oldSha;
    const [{ changed, after }, content] = baseSha
      ? await Promise.all([contentChanged(gitDir, baseSha, before, newSha), pushContent(gitDir, baseSha, before, newSha)])
      : [{ changed: true, after: undefined }, null];
    const dismissStale = changed && (await findBranchRule(cx.db, pr.baseRepoId, pr.baseBranch))?.row.dismissStaleApprovals === true;
    await withTx(cx, async (tx, emit) => {
      if (changed)
        await tx.review.updateMany({
          where: { issueId: pr.issueId, type: { not: 'REQUEST' }, stale: false, commitId: { not: newSha } },
          data: { stale: true },
        });
      // Branch protection's dismiss_stale_approvals (Gitea DismissApprovalReviews): approvals stop counting.
      if (dismissStale)
        await tx.review.updateMany({ where: { issueId: pr.issueId, type: 'APPROVE', dismissed: false }, data: { dismissed: true } });
      await tx.review.updateMany({
        where: { issueId: pr.issueId, type: { not: 'REQUEST' }, stale: true, commitId: newSha },
        data: { stale: false },
      });
      if (content) {
        const comment = await tx.comment.create({ data: { type: 'PULL_PUSH', posterId: pusherId, issueId: pr.issueId, content } });
        await tx.issue.update({ where: { id: pr.issueId }, data: { updatedAt: new Date() } });
        emit({
          type: 'pull.pushed',
          issueId: pr.issueId,
          repoId: pr.baseRepoId,
          index: pr.index,
          commentId: comment.id,
          actorId: pusherId,
        });
      }
    });
    if (baseSha) await storePullState(cx.db, gitDir, pr, newSha, baseSha, after);
  }
}

/**
 * The base branch of pull requests moved (Gitea: the base-side half of AddTestPullRequestTask): their
 * divergence, stats and mergeability are recomputed against the branch's tip now (a later push may have moved it
 * again since the job was queued: the newest tip wins), then the base-update hooks run. The REFRESH_BASE_JOB.
 */
async function refreshBase(cx: ServiceContext, update: RefreshBasePayload): Promise<void> {
  const { repoId, branch, oldSha, pusherId } = update;
  const pulls = await cx.db.pullRequest.findMany({
    where: { ...OPEN_PULL, baseRepoId: repoId, baseBranch: branch },
    include: PULL_INCLUDE,
    orderBy: { id: 'asc' },
  });
  if (!pulls.length) return;
  const gitDir = gitDirOf(cx, pulls[0]?.baseRepo ?? { ownerName: '', name: '' });
  const refs = await readRefs(gitDir, [`${BRANCH}${branch}`, ...pulls.map((p) => pullHeadRef(p.index))]);
  const newSha = refs.get(`${BRANCH}${branch}`);
  if (newSha === undefined) return;
  const refreshed: RefreshedPull[] = [];
  for (const pr of pulls) {
    const head = refs.get(pullHeadRef(pr.index));
    refreshed.push(head ? { ...pr, ...(await storePullState(cx.db, gitDir, pr, head, newSha)) } : pr);
  }
  for (const hook of baseUpdateHooks) await hook(cx, { repoId, branch, oldSha, newSha, pusherId, pulls: refreshed });
}

/**
 * A branch was deleted (Gitea CloseBranchPulls): the open pull requests from it and into it are closed by the
 * pusher. Their `refs/pull/N/head` stays, so they can still be fetched.
 */
async function closeBranchPulls(cx: ServiceContext, repoId: number, branch: string, pusherId: number): Promise<void> {
  const pulls = await cx.db.pullRequest.findMany({
    where: {
      ...OPEN_PULL,
      OR: [
        { headRepoId: repoId, headBranch: branch },
        { baseRepoId: repoId, baseBranch: branch },
      ],
    },
    select: { issueId: true },
    orderBy: { id: 'asc' },
  });
  for (const pr of pulls) await closeIssueBySystem(cx, pr.issueId, pusherId);
}

/**
 * Refreshes the pull requests a push touched: head branches first (so a push that moves both sides of a
 * same-repository pull request is seen whole), then base branches (queued: refreshBase); deleted branches close
 * theirs. Only the branches open pull requests involve are looked at (openPullBranches: one statement).
 */
export async function refreshPullsAfterPush(cx: ServiceContext, push: AppliedPush): Promise<void> {
  const { repoId, pusherId } = push;
  const pushed = push.updates.filter((u) => u.ref.startsWith(BRANCH)).map((u) => ({ ...u, branch: u.ref.slice(BRANCH.length) }));
  const open = await pushOpenPullBranches(cx.db, push);
  const moved = pushed.filter((u) => !ZERO.test(u.newSha));
  for (const u of moved) if (open.head.has(u.branch)) await refreshHead(cx, repoId, u.branch, u.oldSha, pusherId);
  // Pull requests into the moved branches: one background job per branch that has any (REFRESH_BASE_JOB).
  for (const u of moved) {
    if (open.base.has(u.branch))
      await enqueue(cx.db, REFRESH_BASE_JOB, { repoId, branch: u.branch, oldSha: u.oldSha, newSha: u.newSha, pusherId });
  }
  const deleted = pushed.filter((u) => ZERO.test(u.newSha) && (open.head.has(u.branch) || open.base.has(u.branch)));
  for (const u of deleted) await closeBranchPulls(cx, repoId, u.branch, pusherId);
}

/** The push follow-up keeping pull requests fresh (part of the durable push job; registered in src/app.ts). */
export const refreshPullsFollowUp: PushFollowUp = (cx, push) => refreshPullsAfterPush(cx, push);

/** The handler of REFRESH_BASE_JOB (registered in src/app.ts). */
export function refreshBaseJobHandler(deps: AppDeps): JobHandler<RefreshBasePayload> {
  return defineHandler(REFRESH_BASE_JOB, (payload) => refreshBase(createSystemContext(deps), payload));
}
