import type { DbTx, Models } from '../../db/client.ts';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  ValidationError,
} from '../../errors.ts';
import { compareCommits } from '../../git/compare.ts';
import { readRefs } from '../../git/readRefs.ts';
import { isSafeRefName } from '../../git/resolveRef.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { requireViewer } from '../access/guards.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { refreshLabels, usableLabelIds } from '../issue/create.ts';
import { editIssue, type Change } from '../issue/edit.ts';
import { issueReadWhere } from '../issue/visibility.ts';
import { findPullByIndex, gitDirOf, loadPullView, pullHeadRef, resolvePullRepo } from './pull.ts';
import type { PullRows, PullView } from './types.ts';

/** PATCH /repos/{o}/{r}/pulls/{index} (Gitea EditPullRequestOption); absent fields do not change. */
export interface EditPullInput {
  /** Empty leaves the title alone. */
  title?: string;
  /** `""` clears the body. */
  body?: string;
  /** The content version the client last read: a different current one is a Conflict (409), body or not. */
  contentVersion?: number;
  /** The new base branch (of the same repository). */
  base?: string;
  assignee?: string;
  /** Replaces the assignees (writers only; `[]` removes them all). */
  assignees?: string[];
  /** Assignees by user id (the graph's assigneeIds), with any `assignees`: together they are the new set. */
  assigneeIds?: number[];
  /** Project ids replacing the pull request's projects (writers only); unknown or unusable ids are a 400. */
  projects?: number[];
  /** A milestone id (writers only); 0 changes nothing (there is no way to remove it here, as in Gitea). */
  milestone?: number;
  /** Label ids replacing the labels (writers only; `[]` removes them all; unknown or foreign ids are dropped). */
  labels?: number[];
  /** `open` or `closed`. */
  state?: string;
  /** RFC 3339; only the date counts (23:59:59 of that day in the given offset). */
  dueDate?: string | null;
  unsetDueDate?: boolean;
  /** Only the poster, with code write on the head repository, may change it. */
  allowMaintainerEdit?: boolean;
}

/** Where a pull request lives, for callers that hold its id (GraphQL). */
export interface PullLocation {
  ref: RepoRef;
  index: number;
}

/** The repository and number of a pull request (by its REST id) whose issue the viewer may see; for any other id a location that answers NotFound. */
export async function locatePullById(cx: ServiceContext, pullId: number): Promise<PullLocation> {
  const row =
    Number.isSafeInteger(pullId) && pullId > 0
      ? await cx.db.pullRequest.findFirst({
          where: { id: pullId, issue: issueReadWhere(cx) },
          select: { index: true, baseRepo: { select: { ownerName: true, name: true } } },
        })
      : null;
  return row
    ? { ref: { owner: row.baseRepo.ownerName, repo: row.baseRepo.name }, index: row.index }
    : { ref: { owner: '', repo: '' }, index: 0 };
}

/** What a base change needs, checked before anything is written. */
interface BaseChange {
  from: string;
  to: string;
  /** PULL_PUSH content for the commits the pull request brings onto the new base. */
  pushContent: string;
}

/**
 * Checks a change of the base branch (Gitea EditPullRequest → ChangeTargetBranch), in Gitea's order: the branch
 * must exist (404 "new base '<b>' not exist"), the pull request must be open once `state` is applied (422 "…
 * is already closed"), the new base must differ from the head (422; Gitea answers 500), and no other open pull
 * request may have the same head and new base (409). Returns what the write needs, or null when nothing changes.
 * @throws NotFoundError, ValidationError, AlreadyExistsError
 */
async function checkBaseChange(
  cx: ServiceContext,
  access: RepoAccess,
  rows: PullRows,
  base: string,
  closedAfter: boolean,
): Promise<BaseChange | null> {
  const { pull, issue } = rows;
  if (pull.hasMerged || base === '' || base === pull.baseBranch) return null;
  const gitDir = gitDirOf(cx, access.repo);
  const refs = isSafeRefName(base) ? await readRefs(gitDir, [`refs/heads/${base}`, pullHeadRef(pull.index)]) : new Map<string, string>();
  const baseSha = refs.get(`refs/heads/${base}`);
  if (!baseSha) throw new NotFoundError(`new base '${base}' not exist`, { base });
  if (closedAfter)
    throw new ValidationError(`Pull Request [id: ${issue.id}, repo_id: ${issue.repoId}, index: ${issue.index}] is already closed`, {
      pullId: pull.id,
    });
  const headSha = refs.get(pullHeadRef(pull.index)) ?? '';
  if ((pull.headRepoId === access.repo.id && pull.headBranch === base) || headSha === baseSha) {
    throw new ValidationError(`branches are equal [head: ${pull.headBranch}, base: ${base}]`, { base });
  }
  const existing = await cx.db.pullRequest.findFirst({
    where: {
      headRepoId: pull.headRepoId,
      baseRepoId: pull.baseRepoId,
      headBranch: pull.headBranch,
      baseBranch: base,
      hasMerged: false,
      flow: pull.flow,
      issue: { isClosed: false },
    },
  });
  if (existing) {
    throw new AlreadyExistsError(
      `pull request already exists for these targets [id: ${existing.id}, issue_id: ${existing.index}, head_repo_id: ${existing.headRepoId}, base_repo_id: ${existing.baseRepoId}, head_branch: ${existing.headBranch}, base_branch: ${existing.baseBranch}]`,
      { pullId: existing.id },
    );
  }
  const commits = headSha ? (await compareCommits(gitDir, baseSha, headSha, { limit: 250 })).commits : [];
  return {
    from: pull.baseBranch,
    to: base,
    pushContent: JSON.stringify({ is_force_push: false, commit_ids: commits.map((c) => c.sha).reverse() }),
  };
}

/**
 * Gitea SetAllowEdits: only the poster, with code write on the head repository, may change allow_maintainer_edit.
 * @throws PermissionDeniedError ("SetAllowEdits: user not allowed to do this action")
 */
async function checkAllowEdits(cx: ServiceContext, rows: PullRows, viewer: Models.User): Promise<void> {
  const denied = () => new PermissionDeniedError('SetAllowEdits: user not allowed to do this action', { pullId: rows.pull.id });
  if (rows.issue.posterId !== viewer.id || rows.pull.headRepoId === null) throw denied();
  const perm = await cx.loaders.repoPermission.load(rows.pull.headRepoId);
  if (!canWrite(perm, 'CODE')) throw denied();
}

/** Replaces the issue's labels inside `tx` (LABEL comments: content "1" added, "" removed; exact counters). */
async function replaceLabels(tx: DbTx, issue: Models.Issue, labelIds: readonly number[], actorId: number, c: Change): Promise<void> {
  const have = new Set((await tx.issueLabel.findMany({ where: { issueId: issue.id }, select: { labelId: true } })).map((r) => r.labelId));
  const want = new Set(labelIds);
  const removed = [...have].filter((id) => !want.has(id));
  const added = [...want].filter((id) => !have.has(id));
  if (!removed.length && !added.length) return;
  if (removed.length) await tx.issueLabel.deleteMany({ where: { issueId: issue.id, labelId: { in: removed } } });
  if (added.length) await tx.issueLabel.createMany({ data: added.map((labelId) => ({ issueId: issue.id, labelId })) });
  for (const labelId of removed) c.comments.push({ type: 'LABEL', posterId: actorId, issueId: issue.id, labelId, content: '' });
  for (const labelId of added) c.comments.push({ type: 'LABEL', posterId: actorId, issueId: issue.id, labelId, content: '1' });
  await refreshLabels(tx, [...removed, ...added]);
  c.fields.push('labels');
}

/**
 * Edits a pull request (Gitea EditPullRequest). Gates: token scope, 404 invisible repository or pull requests
 * unit, 403 unreadable code, 401 anonymous, 423 archived (Gitea has no archived check here), 404 no such pull
 * request, a bare 403 for callers who are neither its poster nor writers of pull requests, 409 a stale
 * `content_version` (checked first, body or not). Then as PATCH /issues (editIssue): title (CHANGE_TITLE
 * comment), body (content version + 1), due date (the poster too), and for writers only assignees (422/403),
 * milestone (0 changes nothing; unknown 422, Gitea 500) and labels (replaced; unknown and foreign ids
 * dropped; organization labels allowed); `state` open/closed (412 when merged, unknown, or closing with open
 * dependencies; numClosedPulls stays exact); `base` (checkBaseChange: 404/422/409; a CHANGE_TARGET_BRANCH
 * comment, the PULL_PUSH comments redone for the new base, the diff stats recomputed); `allow_maintainer_edit`
 * (poster with code write on the head repository, 403 otherwise). Unlike Gitea, which applies the steps one
 * by one, every check runs before anything is written and the edit is one transaction.
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError, ConflictError, ValidationError, PreconditionFailedError, AlreadyExistsError
 */
export async function editPullRequest(cx: ServiceContext, ref: RepoRef, index: number, input: EditPullInput): Promise<PullView> {
  const access = await resolvePullRepo(cx, ref, 'write');
  const viewer = requireViewer(cx);
  const rows = await findPullByIndex(cx, access, index);
  const writer = canWrite(access.perm, 'PULL_REQUESTS');
  if (!writer && (rows.issue.posterId !== viewer.id || access.perm.blocked)) {
    throw new PermissionDeniedError('user should be the poster of the pull request or have write permission', {
      pullId: rows.pull.id,
      reason: 'NOT_POSTER_OR_WRITER',
    });
  }
  if (input.contentVersion !== undefined && input.contentVersion !== rows.issue.contentVersion) {
    throw new ConflictError('the issue is already changed', { issueId: rows.issue.id, contentVersion: input.contentVersion });
  }
  let baseChange: BaseChange | null = null;
  let labelIds: number[] | null = null;
  await editIssue(
    cx,
    ref,
    index,
    {
      title: input.title,
      body: input.body,
      contentVersion: input.body !== undefined ? input.contentVersion : undefined,
      assignee: input.assignee,
      assignees: input.assignees,
      assigneeIds: input.assigneeIds,
      projects: input.projects,
      milestone: input.milestone ? input.milestone : undefined,
      state: input.state,
      dueDate: input.dueDate,
      unsetDueDate: input.unsetDueDate,
    },
    {
      access,
      posterSetsDueDate: true,
      check: async (issue, isWriter) => {
        if (input.state !== undefined && input.state !== 'open' && input.state !== 'closed')
          throw new PreconditionFailedError(`unknown state: ${input.state}`, { state: input.state });
        if (isWriter && input.labels !== undefined) labelIds = await usableLabelIds(cx, access.repo, input.labels);
        const closedAfter = input.state === undefined ? issue.isClosed : input.state === 'closed';
        baseChange = await checkBaseChange(cx, access, rows, input.base ?? '', closedAfter);
        if (input.allowMaintainerEdit !== undefined) await checkAllowEdits(cx, rows, viewer);
      },
      write: async (tx, issue, c) => {
        if (labelIds) await replaceLabels(tx, issue, labelIds, viewer.id, c);
        const pullData: Models.Prisma.PullRequestUpdateManyMutationInput = {};
        if (baseChange) pullData.baseBranch = baseChange.to;
        if (input.allowMaintainerEdit !== undefined && input.allowMaintainerEdit !== rows.pull.allowMaintainerEdit)
          pullData.allowMaintainerEdit = input.allowMaintainerEdit;
        if (!Object.keys(pullData).length) return;
        // Conditional on the row as checked: a concurrent merge or base change makes this edit a conflict.
        const done = await tx.pullRequest.updateMany({
          where: { id: rows.pull.id, hasMerged: false, baseBranch: rows.pull.baseBranch },
          data: pullData,
        });
        if (done.count === 0) throw new ConflictError('pull request status has changed', { pullId: rows.pull.id });
        if (pullData.allowMaintainerEdit !== undefined) c.fields.push('allow_maintainer_edit');
        if (baseChange) {
          c.fields.push('base');
          c.comments.push({
            type: 'CHANGE_TARGET_BRANCH',
            posterId: viewer.id,
            issueId: issue.id,
            oldRef: baseChange.from,
            newRef: baseChange.to,
          });
          await tx.comment.deleteMany({ where: { issueId: issue.id, type: 'PULL_PUSH' } });
          c.comments.push({ type: 'PULL_PUSH', posterId: viewer.id, issueId: issue.id, content: baseChange.pushContent });
        }
      },
    },
  );
  // Re-read: loadPullView recomputes the cached stats and mergeability for the new base (or a reopened pull request).
  const { issue } = await findPullByIndex(cx, access, index);
  return loadPullView(cx, issue);
}
