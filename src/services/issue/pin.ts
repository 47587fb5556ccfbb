// Pinned issues and pull requests (Gitea issue_pin.go): up to MAX_PINNED of each kind per repository, ordered by
// pin_order 1..n; repository admins pin, unpin and move them.
import type { DbLike, Models } from '../../db/client.ts';
import { InvalidArgumentError } from '../../errors.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { requireTokenScope } from '../access/guards.ts';
import { requireRepo, requireRepoAdmin, requireUnitRead, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { findIssueByIndex, loadIssueViews, type IssueView } from './issue.ts';

/** Gitea's [repository.issue] MAX_PINNED default. */
export const MAX_PINNED = 3;

/** The pinned issues (or pull requests) of a repository in pin order. */
export function pinnedIssues(db: DbLike, repoId: number, isPull: boolean): Promise<Models.Issue[]> {
  return db.issue.findMany({ where: { repoId, isPull, pinOrder: { gt: 0 } }, orderBy: { pinOrder: 'asc' } });
}

async function pinCount(db: DbLike, repoId: number, isPull: boolean): Promise<number> {
  return db.issue.count({ where: { repoId, isPull, pinOrder: { gt: 0 } } });
}

/** The issue, for a repository admin (Gitea reqToken + reqAdmin on /pin). */
async function adminIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<Models.Issue> {
  const access = await resolveIssueRepo(cx, ref, 'write');
  requireRepoAdmin(cx, access, 'write:issue');
  return findIssueByIndex(cx, access, index);
}

/**
 * Pins an issue or pull request last (POST …/issues/{index}/pin); pinning a pinned one changes nothing.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, InvalidArgumentError (the maximum is reached)
 */
export async function pinIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<Models.Issue> {
  const issue = await adminIssue(cx, ref, index);
  if (issue.pinOrder > 0) return issue;
  const actorId = cx.viewer?.id ?? 0;
  return withTx(cx, async (tx, emit) => {
    if ((await pinCount(tx, issue.repoId, issue.isPull)) >= MAX_PINNED) {
      throw new InvalidArgumentError('the max number of pinned issues has been readched');
    }
    const max = await tx.issue.aggregate({ where: { repoId: issue.repoId, isPull: issue.isPull }, _max: { pinOrder: true } });
    const updated = await tx.issue.update({ where: { id: issue.id }, data: { pinOrder: (max._max.pinOrder ?? 0) + 1 } });
    await tx.comment.create({ data: { type: 'PIN', posterId: actorId || null, issueId: issue.id } });
    emit({ type: 'issue.updated', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId, fields: ['pinned'] });
    return updated;
  });
}

/**
 * Unpins an issue or pull request (DELETE …/issues/{index}/pin); those after it move up. Unpinned: nothing.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function unpinIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<Models.Issue> {
  const issue = await adminIssue(cx, ref, index);
  if (issue.pinOrder === 0) return issue;
  const actorId = cx.viewer?.id ?? 0;
  return withTx(cx, async (tx, emit) => {
    const updated = await tx.issue.update({ where: { id: issue.id }, data: { pinOrder: 0 } });
    await tx.issue.updateMany({
      where: { repoId: issue.repoId, isPull: issue.isPull, pinOrder: { gt: issue.pinOrder } },
      data: { pinOrder: { decrement: 1 } },
    });
    await tx.comment.create({ data: { type: 'UNPIN', posterId: actorId || null, issueId: issue.id } });
    emit({ type: 'issue.updated', issueId: issue.id, repoId: issue.repoId, index: issue.index, actorId, fields: ['pinned'] });
    return updated;
  });
}

/**
 * Moves a pinned issue to `position` (PATCH …/issues/{index}/pin/{position}; past the end means last). An
 * unpinned issue is left alone. @throws NotFoundError, PermissionDeniedError, InvalidArgumentError (position < 1)
 */
export async function moveIssuePin(cx: ServiceContext, ref: RepoRef, index: number, position: number): Promise<void> {
  const issue = await adminIssue(cx, ref, index);
  if (issue.pinOrder === 0) return;
  if (!Number.isSafeInteger(position) || position < 1) throw new InvalidArgumentError("The Position can't be lower than 1");
  await withTx(cx, async (tx) => {
    const scope = { repoId: issue.repoId, isPull: issue.isPull };
    const max = (await tx.issue.aggregate({ where: scope, _max: { pinOrder: true } }))._max.pinOrder ?? 0;
    const target = Math.min(position, max);
    await tx.issue.updateMany({ where: { ...scope, pinOrder: { gt: issue.pinOrder } }, data: { pinOrder: { decrement: 1 } } });
    await tx.issue.updateMany({
      where: { ...scope, pinOrder: { gte: target }, id: { not: issue.id } },
      data: { pinOrder: { increment: 1 } },
    });
    await tx.issue.update({ where: { id: issue.id }, data: { pinOrder: target } });
  });
}

/**
 * The repository's pinned issues in pin order (GET /repos/{o}/{r}/issues/pinned; issues readable).
 * @throws NotFoundError
 */
export async function listPinnedIssues(cx: ServiceContext, ref: RepoRef): Promise<IssueView[]> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  requireUnitRead(access, 'ISSUES');
  return loadIssueViews(cx.db, await pinnedIssues(cx.db, access.repo.id, false));
}

/**
 * Whether another issue and another pull request may be pinned (GET /repos/{o}/{r}/new_pin_allowed).
 * @throws NotFoundError
 */
export async function newPinAllowed(cx: ServiceContext, ref: RepoRef): Promise<{ issues: boolean; pullRequests: boolean }> {
  requireTokenScope(cx, 'repository', 'read');
  const access = await requireRepo(cx, ref.owner, ref.repo);
  const [issues, pulls] = await Promise.all([pinCount(cx.db, access.repo.id, false), pinCount(cx.db, access.repo.id, true)]);
  return { issues: issues < MAX_PINNED, pullRequests: pulls < MAX_PINNED };
}
