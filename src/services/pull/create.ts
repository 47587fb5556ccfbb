import { shiftLabelCounters } from '../../db/labelCounters.ts';
import { randomBytes } from 'node:crypto';
import type { Models } from '../../db/client.ts';
import { AlreadyExistsError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { compareCommits } from '../../git/compare.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import { canRead, canWrite, isRepoAdmin } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { deleteHiddenRef, fetchIntoHiddenRef, setHiddenRef } from '../repo/moveRefs.ts';
import {
  insertIssueRow,
  issueCreatedEvent,
  normalizeTitle,
  refreshMilestone,
  requireText,
  resolveAssignees,
  usableLabelIds,
  writeInitialRelations,
} from '../issue/create.ts';
import { withRetry } from '../dbErrors.ts';
import { gitDirOf, loadPullView, pullHeadRef, resolvePullRepo } from './pull.ts';
import { requestReviews, resolveReviewers } from './reviewRequest.ts';
import { computePullGitState, pullStateData, type PullGitState } from './stats.ts';
import type { PullView } from './types.ts';
import { withWipPrefix } from '../issue/wip.ts';
import { insertRows } from '../../db/insertRows.ts';

/** POST /repos/{o}/{r}/pulls (Gitea CreatePullRequestOption). */
export interface CreatePullInput {
  /** `branch` (same repository), `owner:branch` (that owner's fork, or the base's parent) or `owner/repo:branch`. */
  head?: string;
  /** The base branch. */
  base?: string;
  title?: string;
  body?: string;
  assignee?: string;
  assignees?: string[];
  labels?: number[];
  milestone?: number;
  dueDate?: Date | null;
  allowMaintainerEdit?: boolean;
  /** Review requests made once the pull request exists (by name or e-mail; team names), as requestReviews. */
  reviewers?: string[];
  teamReviewers?: string[];
  /** Open it as a draft (GitHub's word): Gitea's work in progress, the title prefixed `WIP: ` unless it has a WIP prefix. */
  draft?: boolean;
}

/** Where a pull request comes from: the head repository and branch, resolved and checked. */
interface HeadSide {
  repo: Models.Repository;
  branch: string;
  sha: string;
}

/** Whose repository `head` names (Gitea parseCompareInfo), before the branch is looked at. @throws NotFoundError */
async function resolveHeadRepo(cx: ServiceContext, access: RepoAccess, head: string): Promise<{ repo: Models.Repository; branch: string }> {
  const base = access.repo;
  const parts = head.split(':');
  if (parts.length === 1) return { repo: base, branch: head };
  if (parts.length !== 2) throw new NotFoundError('not found', { head });
  const [owner = '', branch = ''] = parts;
  const slash = owner.indexOf('/');
  const ownerName = slash >= 0 ? owner.slice(0, slash) : owner;
  const headUser = await cx.db.user.findUnique({ where: { lowerName: ownerName.toLowerCase() } });
  if (!headUser) throw new NotFoundError(`user does not exist [uid: 0, name: ${ownerName}]`, { name: ownerName });
  if (slash >= 0) {
    // owner/repo:branch: the base itself, one of its forks, or its parent.
    const repo = await cx.db.repository.findUnique({
      where: { ownerId_lowerName: { ownerId: headUser.id, lowerName: owner.slice(slash + 1).toLowerCase() } },
    });
    if (!repo || !(repo.id === base.id || repo.forkId === base.id || base.forkId === repo.id))
      throw new NotFoundError('not found', { head });
    return { repo, branch };
  }
  if (headUser.id === base.ownerId) return { repo: base, branch };
  const fork = await cx.db.repository.findFirst({ where: { ownerId: headUser.id, forkId: base.id } });
  if (fork) return { repo: fork, branch };
  const parent = base.forkId === null ? null : await cx.db.repository.findUnique({ where: { id: base.forkId } });
  if (parent && parent.ownerId === headUser.id) return { repo: parent, branch };
  throw new NotFoundError('not found', { head });
}

/**
 * The tip of branch `name` in `gitDir`. A tag or commit names something, but not a branch (422, as Gitea's
 * "base and head must be branches"); nothing at all is 404.
 * @throws NotFoundError, ValidationError
 */
async function branchTip(gitDir: string, name: string): Promise<string> {
  const ref = await resolveRef(gitDir, name);
  if (!ref) throw new NotFoundError('not found', { ref: name });
  if (ref.kind !== 'branch') throw new ValidationError('Invalid PullRequest: base and head must be branches', { ref: name });
  return ref.commit;
}

/** The head side, readable by the viewer (Gitea: code read on the head repository, 404 otherwise). */
async function resolveHead(cx: ServiceContext, access: RepoAccess, head: string): Promise<HeadSide> {
  const { repo, branch } = await resolveHeadRepo(cx, access, head);
  if (repo.id !== access.repo.id) {
    const perm = await cx.loaders.repoPermission.load(repo.id);
    if (!canRead(perm, 'CODE')) throw new NotFoundError('not found', { repoId: repo.id });
  }
  return { repo, branch, sha: await branchTip(gitDirOf(cx, repo), branch) };
}

/** Gitea ErrPullRequestAlreadyExists when an open, unmerged pull request has the same targets. @throws AlreadyExistsError */
async function requireNoOpenPull(cx: ServiceContext, baseRepoId: number, head: HeadSide, baseBranch: string): Promise<void> {
  const existing = await cx.db.pullRequest.findFirst({
    where: {
      headRepoId: head.repo.id,
      baseRepoId,
      headBranch: head.branch,
      baseBranch,
      hasMerged: false,
      flow: 'GITHUB',
      issue: { isClosed: false },
    },
  });
  if (existing) {
    throw new AlreadyExistsError(
      `pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.index}, head_repo_id: ${existing.headRepoId}, base_repo_id: ${existing.baseRepoId}, head_branch: ${existing.headBranch}, base_branch: ${existing.baseBranch}]`,
      { pullId: existing.id },
    );
  }
}

/** The commits a new pull request brings (PULL_PUSH content), oldest first, as Gitea's first push comment. */
async function pushCommentContent(gitDir: string, baseSha: string, headSha: string, total: number): Promise<string> {
  const { commits } = await compareCommits(gitDir, baseSha, headSha, { limit: Math.max(1, total) });
  return JSON.stringify({ is_force_push: false, commit_ids: commits.map((c) => c.sha).reverse() });
}

/**
 * Opens a pull request (Gitea CreatePullRequest → pull_service.NewPullRequest). Gates in Gitea's order: 404
 * invisible repository or pull requests unit, 403 unreadable code, 401 anonymous, 423 archived, 422 missing
 * head/base/title, 422 head equal to base, 404 unknown head owner or a head repository that is neither the
 * base, its fork nor its parent (or unreadable code there), 404 unknown branches, 422 tags or commits instead
 * of branches, 409 an open pull request with the same targets, 422 nothing to compare (no commit ahead),
 * 403 a viewer blocked by the owner, 404 an unknown milestone, 422/403 assignees as for issues. Labels,
 * milestone, assignees and due date are taken from writers of pull requests only (Gitea's web rule).
 * The number comes from the repository's shared counter; `refs/pull/{index}/head` is written in the base
 * repository (fetched from the fork when the head is elsewhere); the merge base, divergence, diff stats and
 * mergeability are stored with the row; a PULL_PUSH comment lists the commits; `numPulls` goes up; emits
 * `issue.created` with `isPull`. `reviewers` / `teamReviewers` are then requested as the poster (requestReviews).
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError, ValidationError, AlreadyExistsError
 */
export async function createPullRequest(cx: ServiceContext, ref: RepoRef, input: CreatePullInput): Promise<PullView> {
  const access = await resolvePullRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const head = input.head ?? '';
  const baseBranch = input.base ?? '';
  const title = normalizeTitle(input.draft && input.title ? withWipPrefix(input.title) : (input.title ?? ''));
  for (const [field, value] of [
    ['head', head],
    ['base', baseBranch],
    ['title', title],
  ] as const) {
    if (value === '') throw new ValidationError('Required', { field, rule: 'Required' });
  }
  requireText(title, 'title');
  requireText(input.body, 'body');
  if (head === baseBranch)
    throw new ValidationError('Invalid PullRequest: There are no changes between the head and the base', { head, base: baseBranch });
  const { repo, perm } = access;
  const baseGitDir = gitDirOf(cx, repo);
  const headSide = await resolveHead(cx, access, head);
  const baseSha = await branchTip(baseGitDir, baseBranch);
  if (headSide.repo.id === repo.id && headSide.branch === baseBranch) {
    throw new ValidationError('Invalid PullRequest: There are no changes between the head and the base', { head, base: baseBranch });
  }
  await requireNoOpenPull(cx, repo.id, headSide, baseBranch);
  if (perm.blocked) throw new PermissionDeniedError('user is blocked', { repoId: repo.id });

  const writer = canWrite(perm, 'PULL_REQUESTS') || isRepoAdmin(perm);
  const milestone =
    writer && input.milestone
      ? await cx.db.milestone.findFirst({ where: { id: input.milestone, repoId: repo.id }, select: { id: true } })
      : null;
  if (writer && input.milestone && !milestone) throw new NotFoundError('not found', { milestoneId: input.milestone });
  const labelIds = writer ? await usableLabelIds(cx, repo, input.labels ?? []) : [];
  const assignees = writer
    ? await resolveAssignees(cx, access, [...(input.assignee ? [input.assignee] : []), ...(input.assignees ?? [])])
    : [];
  // Reviewer names are resolved before anything is written, so an unknown one (404) leaves no pull request behind.
  if (input.reviewers?.length || input.teamReviewers?.length)
    await resolveReviewers(cx, repo, { reviewers: input.reviewers ?? [], teamReviewers: input.teamReviewers ?? [] });

  // A fork's head commit is copied into the base repository first (under a temporary ref), so the stats,
  // the trial merge and later refs/pull/N/head all work in the base repository alone.
  const tmpRef = headSide.repo.id === repo.id ? null : `refs/forgegraph/tmp/${randomBytes(8).toString('hex')}`;
  if (tmpRef) await fetchIntoHiddenRef(baseGitDir, gitDirOf(cx, headSide.repo), headSide.sha, tmpRef);
  try {
    const state: PullGitState = await computePullGitState(baseGitDir, baseSha, headSide.sha);
    if (state.commitsAhead === 0)
      throw new ValidationError('Invalid PullRequest: There are no changes between the head and the base', { head, base: baseBranch });
    const pushContent = await pushCommentContent(baseGitDir, baseSha, headSide.sha, state.commitsAhead);
    const issue = await withRetry(() =>
      withTx(cx, async (tx, emit) => {
        const row = await insertIssueRow(tx, {
          repoId: repo.id,
          posterId: viewer.id,
          title,
          content: input.body ?? '',
          isPull: true,
          milestoneId: milestone?.id ?? null,
          deadlineAt: writer && input.dueDate ? input.dueDate : null,
        });
        const { index } = row;
        await tx.pullRequest.create({
          data: {
            issueId: row.id,
            index,
            baseRepoId: repo.id,
            headRepoId: headSide.repo.id,
            baseBranch,
            headBranch: headSide.branch,
            allowMaintainerEdit: input.allowMaintainerEdit ?? false,
            ...pullStateData(state),
          },
        });
        const comments = await writeInitialRelations(tx, row.id, viewer.id, { labelIds, milestoneId: milestone?.id ?? null, assignees });
        comments.push({ type: 'PULL_PUSH', posterId: viewer.id, issueId: row.id, content: pushContent });
        await insertRows(tx, 'Comment', comments);
        await refreshMilestone(tx, row.milestoneId);
        await shiftLabelCounters(tx, labelIds, { issues: 1, closed: row.isClosed ? 1 : 0 });
        // Written last: a rollback gives the number back, and the next pull request overwrites the ref.
        await setHiddenRef(baseGitDir, pullHeadRef(index), headSide.sha);
        emit(issueCreatedEvent(row, viewer.id, access.facts));
        return row;
      }),
    );
    if (input.reviewers?.length || input.teamReviewers?.length) {
      const pull = await cx.db.pullRequest.findUniqueOrThrow({ where: { issueId: issue.id } });
      await requestReviews(cx, { access, issue, pull }, { reviewers: input.reviewers ?? [], teamReviewers: input.teamReviewers ?? [] });
    }
    return await loadPullView(cx, issue);
  } finally {
    if (tmpRef) await deleteHiddenRef(baseGitDir, tmpRef);
  }
}
