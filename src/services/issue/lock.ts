// Locking an issue's conversation (Gitea issue_lock.go): writers lock and unlock; a LOCK comment carries the reason.
import type { Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { canWriteIssue, findIssueByIndex } from './issue.ts';

/** Sets the lock state with its timeline comment and an `issue.updated` event; nothing when already in that state. */
async function setLocked(
  cx: ServiceContext,
  access: RepoAccess,
  issue: Models.Issue,
  locked: boolean,
  reason: string,
): Promise<Models.Issue> {
  if (!canWriteIssue(access, issue)) {
    throw new PermissionDeniedError(`no permission to ${locked ? 'lock' : 'unlock'} this issue`, { issueId: issue.id });
  }
  if (issue.isLocked === locked) return issue;
  const actorId = cx.viewer?.id ?? 0;
  return withTx(cx, async (tx, emit) => {
    const updated = await tx.issue.update({ where: { id: issue.id }, data: { isLocked: locked } });
    await tx.comment.create({
      data: { type: locked ? 'LOCK' : 'UNLOCK', posterId: actorId || null, issueId: issue.id, content: locked ? reason : '' },
    });
    emit({ type: 'issue.updated', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId, fields: ['locked'] });
    return updated;
  });
}

/**
 * Locks an issue or pull request (PUT /repos/{o}/{r}/issues/{index}/lock): writers of its unit only; a locked
 * issue stays locked (204 either way). Non-writers can no longer comment or react. Returns the issue as it now is.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError
 */
export async function lockIssue(cx: ServiceContext, ref: RepoRef, index: number, reason: string): Promise<Models.Issue> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  return setLocked(cx, access, await findIssueByIndex(cx, access, index), true, reason);
}

/**
 * Unlocks an issue or pull request (DELETE /repos/{o}/{r}/issues/{index}/lock): writers of its unit only.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError
 */
export async function unlockIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<Models.Issue> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  return setLocked(cx, access, await findIssueByIndex(cx, access, index), false, '');
}

/**
 * Whether each issue is locked, in one query, for issues (or pull requests' issues) the caller already read through
 * their read policy (GraphQL's Lockable.locked): unknown ids answer false.
 */
export async function lockedIssues(cx: ServiceContext, issueIds: readonly number[]): Promise<boolean[]> {
  const rows = issueIds.length
    ? await cx.db.issue.findMany({ where: { id: { in: [...issueIds] } }, select: { id: true, isLocked: true } })
    : [];
  const locked = new Set(rows.filter((r) => r.isLocked).map((r) => r.id));
  return issueIds.map((id) => locked.has(id));
}
