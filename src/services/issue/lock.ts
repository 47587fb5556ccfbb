// Locking an issue's conversation (Gitea issue_lock.go): writers lock and unlock; a LOCK comment carries the reason.
import type { Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { canWriteIssue, findIssueByIndex } from './issue.ts';

/** The reason of an issue's active lock: the content of its latest LOCK comment ('' when none was given). */
export async function activeLockReason(cx: ServiceContext, issue: Pick<Models.Issue, 'id' | 'isLocked'>): Promise<string | null> {
  if (!issue.isLocked) return null;
  const row = await cx.db.comment.findFirst({
    where: { issueId: issue.id, type: 'LOCK' },
    orderBy: { id: 'desc' },
    select: { content: true },
  });
  return row?.content ?? '';
}

/** Sets the lock state with its timeline comment and an `issue.updated` event; nothing when already in that state. */
async function setLocked(cx: ServiceContext, access: RepoAccess, issue: Models.Issue, locked: boolean, reason: string): Promise<void> {
  if (!canWriteIssue(access, issue)) {
    throw new PermissionDeniedError(`no permission to ${locked ? 'lock' : 'unlock'} this issue`, { issueId: issue.id });
  }
  if (issue.isLocked === locked) return;
  const actorId = cx.viewer?.id ?? 0;
  await withTx(cx, async (tx, emit) => {
    await tx.issue.update({ where: { id: issue.id }, data: { isLocked: locked } });
    await tx.comment.create({
      data: { type: locked ? 'LOCK' : 'UNLOCK', posterId: actorId || null, issueId: issue.id, content: locked ? reason : '' },
    });
    emit({ type: 'issue.updated', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId, fields: ['locked'] });
  });
}

/**
 * Locks an issue or pull request (PUT /repos/{o}/{r}/issues/{index}/lock): writers of its unit only; a locked
 * issue stays locked (204 either way). Non-writers can no longer comment or react.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError
 */
export async function lockIssue(cx: ServiceContext, ref: RepoRef, index: number, reason: string): Promise<void> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  await setLocked(cx, access, await findIssueByIndex(cx, access, index), true, reason);
}

/**
 * Unlocks an issue or pull request (DELETE /repos/{o}/{r}/issues/{index}/lock): writers of its unit only.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, RepoArchivedError
 */
export async function unlockIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<void> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  await setLocked(cx, access, await findIssueByIndex(cx, access, index), false, '');
}
