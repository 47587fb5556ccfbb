import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, ValidationError, type ErrorReason } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import type { RepoAccess, RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { findUserByName } from '../user/user.ts';
import { canBeAssigned } from './create.ts';
import { withRetry } from '../dbErrors.ts';
import { emitChange, replaceAssignees, type Change } from './edit.ts';
import { canWriteIssue, findIssueByIndex, loadIssueView, locateIssueById, type IssueView } from './issue.ts';
import { insertRows } from '../../db/insertRows.ts';

/** An issue as REST names it (repository and number) or as GraphQL does (its database id). */
export type IssueTarget = { ref: RepoRef; index: number } | { issueId: number };

/**
 * The repository and number of an issue target. An id the viewer cannot see maps to a target that does not
 * exist, so the caller's gates answer NotFound exactly as the REST path does.
 */
export async function locateIssue(cx: ServiceContext, target: IssueTarget): Promise<{ ref: RepoRef; index: number }> {
  return 'ref' in target ? target : locateIssueById(cx, target.issueId);
}

/**
 * Gitea's gates for changing an issue's assignees or labels: 404 invisible repository, unit or issue;
 * 401 anonymous; 423 archived; then 403 (reason ISSUE_WRITE_REQUIRED unless the caller names another) unless
 * the viewer can write the issue's unit (issues, or pull requests for a pull request). The poster alone may not.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError
 */
export async function requireIssueWriter(
  cx: ServiceContext,
  target: IssueTarget,
  denied: { message: string; reason?: ErrorReason } = {
    message: 'user should have write permission on the issue',
    reason: 'ISSUE_WRITE_REQUIRED',
  },
): Promise<{ access: RepoAccess; issue: Models.Issue }> {
  const { ref, index } = await locateIssue(cx, target);
  const access = await resolveIssueRepo(cx, ref, 'write');
  const issue = await findIssueByIndex(cx, access, index);
  if (!canWriteIssue(access, issue)) throw new PermissionDeniedError(denied.message, { issueId: issue.id, reason: denied.reason });
  return { access, issue };
}

/** Users by name, unique, in the order given; an unknown name is a 422 (Gitea GetUserIDsByNames). @throws ValidationError */
async function usersByName(cx: ServiceContext, names: readonly string[]): Promise<Models.User[]> {
  const users: Models.User[] = [];
  for (const name of new Set(names)) {
    const user = name === '' ? null : await findUserByName(cx.db, name);
    if (!user) throw new ValidationError(`user does not exist [uid: 0, name: ${name}]`, { name });
    if (!users.some((u) => u.id === user.id)) users.push(user);
  }
  return users;
}

/** The users named by `names` and by `ids` (the graph's assigneeIds), each once. @throws ValidationError for an unknown one */
async function usersByNameOrId(cx: ServiceContext, names: readonly string[], ids: readonly number[]): Promise<Models.User[]> {
  const users = await usersByName(cx, names);
  const wanted = [...new Set(ids)].filter((id) => !users.some((u) => u.id === id));
  const found = wanted.length ? await cx.db.user.findMany({ where: { id: { in: wanted } } }) : [];
  const byId = new Map(found.map((u) => [u.id, u]));
  const missing = wanted.find((id) => !byId.has(id));
  if (missing !== undefined) throw new ValidationError(`user does not exist [uid: ${missing}]`, { id: missing });
  // In the order given: assignees are added in that order.
  return [...users, ...wanted.map((id) => byId.get(id)!)];
}

/**
 * Gitea AddAssignees' checks, per user: the user blocked the viewer (403 `user is blocked`), the user is an
 * organization (400), the user cannot be assigned in this repository (403, where issue creation answers 422;
 * assignability is the same rule: write on some unit, or read on pull requests).
 * @throws PermissionDeniedError, InvalidArgumentError
 */
async function requireAssignable(cx: ServiceContext, access: RepoAccess, users: readonly Models.User[]): Promise<void> {
  const viewer = requireViewer(cx);
  const blocks = users.length
    ? await cx.db.block.findMany({
        where: { blockerId: { in: users.map((u) => u.id) }, blockeeId: viewer.id },
        select: { blockerId: true },
      })
    : [];
  for (const user of users) {
    if (blocks.some((b) => b.blockerId === user.id)) throw new PermissionDeniedError('user is blocked', { userId: user.id });
    if (user.type === 'ORGANIZATION') {
      throw new InvalidArgumentError(`organization can't be added as assignee [user_id: ${user.id}, repo_id: ${access.repo.id}]`, {
        userId: user.id,
      });
    }
  }
  for (const user of users) {
    if (!(await canBeAssigned(cx, access.repo.id, user))) {
      throw new PermissionDeniedError(`user doesn't have access to repo [user_id: ${user.id}, repo_name: ${access.repo.name}]`, {
        userId: user.id,
      });
    }
  }
}

/** Applies the new assignee set in one transaction: ASSIGNEES comments, and `issue.updated` when anything changed. */
async function applyAssignees(cx: ServiceContext, issue: Models.Issue, next: (current: number[]) => number[]): Promise<IssueView> {
  const viewer = requireViewer(cx);
  const updated = await withRetry(() =>
    withTx(cx, async (tx, emit) => {
      const current = await tx.issueAssignee.findMany({
        where: { issueId: issue.id },
        select: { assigneeId: true },
        orderBy: { id: 'asc' },
      });
      const c: Change = { fields: [], comments: [], events: [] };
      await replaceAssignees(
        tx,
        issue,
        next(current.map((r) => r.assigneeId)).map((id) => ({ id })),
        viewer.id,
        c,
      );
      if (c.comments.length) await insertRows(tx, 'Comment', c.comments);
      emitChange(emit, issue, viewer.id, c);
      return tx.issue.findUniqueOrThrow({ where: { id: issue.id } });
    }),
  );
  return loadIssueView(cx.db, updated);
}

/**
 * Adds assignees to an issue or pull request (POST …/issues/{index}/assignees, Gitea AddIssueAssignees).
 * Already-assigned users are skipped; all or nothing: any error leaves the assignees unchanged. Errors in
 * Gitea's order: gates of requireIssueWriter, 422 unknown user, then per user 403 blocked, 400 organization,
 * 403 not assignable.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError, InvalidArgumentError
 */
export async function addAssignees(
  cx: ServiceContext,
  target: IssueTarget,
  names: readonly string[],
  ids: readonly number[] = [],
): Promise<IssueView> {
  const { access, issue } = await requireIssueWriter(cx, target);
  const users = await usersByNameOrId(cx, names, ids);
  await requireAssignable(cx, access, users);
  return applyAssignees(cx, issue, (current) => [...new Set([...current, ...users.map((u) => u.id)])]);
}

/**
 * Removes assignees from an issue or pull request (DELETE …/issues/{index}/assignees, Gitea
 * DeleteIssueAssignees). Users who are not assigned are skipped; an unknown name is a 422.
 * @throws NotFoundError, UnauthenticatedError, RepoArchivedError, PermissionDeniedError, ValidationError
 */
export async function removeAssignees(
  cx: ServiceContext,
  target: IssueTarget,
  names: readonly string[],
  ids: readonly number[] = [],
): Promise<IssueView> {
  const { issue } = await requireIssueWriter(cx, target);
  const gone = new Set((await usersByNameOrId(cx, names, ids)).map((u) => u.id));
  return applyAssignees(cx, issue, (current) => current.filter((id) => !gone.has(id)));
}

/**
 * Whether a user can be assigned to issues of the repository (GET …/issues/{index}/assignees/{assignee},
 * Gitea CheckIssueAssignee): resolves when assignable. 404 for an unreadable issue, an unknown user or one who
 * cannot be assigned; 400 for an organization.
 * @throws NotFoundError, InvalidArgumentError
 */
export async function checkAssignee(cx: ServiceContext, ref: RepoRef, index: number, name: string): Promise<void> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  await findIssueByIndex(cx, access, index);
  const user = await findUserByName(cx.db, name);
  if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`, { name });
  if (user.type === 'ORGANIZATION') {
    throw new InvalidArgumentError(`organization can't be added as assignee [user_id: ${user.id}, repo_id: ${access.repo.id}]`, {
      userId: user.id,
    });
  }
  if (!(await canBeAssigned(cx, access.repo.id, user))) throw new NotFoundError('not found', { userId: user.id });
}
