import { PermissionDeniedError } from '../../errors.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { editIssue } from './edit.ts';
import { canWriteIssue, findIssueByIndex } from './issue.ts';

/**
 * Sets or (with null) removes an issue's or pull request's deadline (POST …/issues/{index}/deadline, Gitea
 * UpdateIssueDeadline): writers of its unit only (403 `Not repo writer`). Only the date counts: 23:59:59 of that
 * day in the value's offset. The change goes through the issue edit (its timeline comment and events). Returns
 * the deadline now set.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError
 */
export async function setIssueDeadline(cx: ServiceContext, ref: RepoRef, index: number, dueDate: string | null): Promise<Date | null> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  const issue = await findIssueByIndex(cx, access, index);
  if (!canWriteIssue(access, issue)) throw new PermissionDeniedError('Not repo writer', { issueId: issue.id });
  const view = await editIssue(cx, ref, index, dueDate === null ? { unsetDueDate: true } : { dueDate }, { access });
  return view.issue.deadlineAt;
}
