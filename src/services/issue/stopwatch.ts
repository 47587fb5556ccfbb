import type { DbTx, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { ConflictError, InvalidArgumentError, PermissionDeniedError } from '../../errors.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { resolveIssueRepo } from '../access/issueAccess.ts';
import { requireRepoWrite, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { canWriteIssue, findIssueByIndex, locateIssueById, unitOf } from './issue.ts';
import { requireTimetracker } from './trackedTime.ts';

/** A running stopwatch with what Gitea's StopWatch JSON shows. */
export interface StopwatchView {
  stopwatch: Models.Stopwatch;
  issue: Pick<Models.Issue, 'index' | 'title'>;
  repo: Pick<Models.Repository, 'ownerName' | 'name'>;
}

/** Gitea util.SecToHours: "1 hour 2 minutes", "5 minutes", "42 seconds" (seconds only under a minute). */
export function secToHours(seconds: number): string {
  const hours = Math.trunc(seconds / 3600);
  const minutes = Math.trunc(seconds / 60) % 60;
  const part = (n: number, name: string) => (n === 1 ? `1 ${name}` : n > 1 ? `${n} ${name}s` : '');
  const text = [part(hours, 'hour'), part(minutes, 'minute')].filter(Boolean).join(' ');
  return text === '' && seconds > 0 ? part(seconds, 'second') : text;
}

/** Whole seconds a stopwatch has been running. */
export function stopwatchSeconds(sw: Pick<Models.Stopwatch, 'createdAt'>, now = new Date()): number {
  return Math.max(0, Math.floor((now.getTime() - sw.createdAt.getTime()) / 1000));
}

/**
 * Gitea's prepareIssueForStopwatch: visible repository and unit (404), the write gate (issue scope), signed in (401), issue (404),
 * then bare 403s for non-writers and for anyone who may not use the time tracker (a disabled tracker included).
 */
async function stopwatchIssue(cx: ServiceContext, ref: RepoRef, index: number): Promise<{ issue: Models.Issue; viewer: Models.User }> {
  const access = await resolveIssueRepo(cx, ref, 'read');
  requireRepoWrite(cx, access, 'write:issue');
  const viewer = requireViewer(cx);
  const issue = await findIssueByIndex(cx, access, index);
  if (!canWriteIssue(access, issue))
    throw new PermissionDeniedError('user should have a permission to write to a repo', { reason: 'ISSUE_WRITE_REQUIRED' });
  try {
    await requireTimetracker(cx, access, issue, viewer);
  } catch (err) {
    if (err instanceof InvalidArgumentError || err instanceof PermissionDeniedError)
      throw new PermissionDeniedError('time tracking not allowed', { reason: 'TIME_TRACKING_NOT_ALLOWED' });
    throw err;
  }
  return { issue, viewer };
}

/** Books a stopwatch's running time (STOP_TRACKING comment with Gitea's human duration) and removes it. */
async function finish(tx: DbTx, sw: Models.Stopwatch, emit: (e: DomainEvent) => void): Promise<void> {
  const seconds = stopwatchSeconds(sw);
  const issue = await tx.issue.findUniqueOrThrow({ where: { id: sw.issueId }, select: { id: true, repoId: true } });
  const time = await tx.trackedTime.create({ data: { issueId: sw.issueId, userId: sw.userId, time: seconds } });
  await tx.comment.create({
    data: { type: 'STOP_TRACKING', posterId: sw.userId, issueId: sw.issueId, content: secToHours(seconds), timeId: time.id },
  });
  await tx.stopwatch.delete({ where: { id: sw.id } });
  emit({
    type: 'trackedTime.added',
    trackedTimeId: time.id,
    issueId: issue.id,
    repoId: issue.repoId,
    userId: sw.userId,
    seconds,
    actorId: sw.userId,
  });
}

/**
 * POST /repos/{o}/{r}/issues/{index}/stopwatch/start (Gitea CreateIssueStopwatch): a running stopwatch on another
 * issue is stopped (its time booked) first; one already running on this issue → 409.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ConflictError
 */
export async function startStopwatch(cx: ServiceContext, ref: RepoRef, index: number): Promise<void> {
  const { issue, viewer } = await stopwatchIssue(cx, ref, index);
  const again = new ConflictError('cannot start a stopwatch again if it already exists', { issueId: issue.id });
  try {
    await withTx(cx, async (tx, emit) => {
      const running = await tx.stopwatch.findMany({ where: { userId: viewer.id } });
      if (running.some((sw) => sw.issueId === issue.id)) throw again;
      for (const sw of running) await finish(tx, sw, emit);
      await tx.stopwatch.create({ data: { userId: viewer.id, issueId: issue.id } });
      await tx.comment.create({ data: { type: 'START_TRACKING', posterId: viewer.id, issueId: issue.id } });
    });
  } catch (err) {
    throw isUniqueViolation(err) ? again : err;
  }
}

/**
 * POST /repos/{o}/{r}/issues/{index}/stopwatch/stop (Gitea FinishIssueStopwatch): books the elapsed time; no
 * stopwatch → 409. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ConflictError
 */
export async function stopStopwatch(cx: ServiceContext, ref: RepoRef, index: number): Promise<void> {
  const { issue, viewer } = await stopwatchIssue(cx, ref, index);
  await withTx(cx, async (tx, emit) => {
    const sw = await tx.stopwatch.findUnique({ where: { userId_issueId: { userId: viewer.id, issueId: issue.id } } });
    if (!sw) throw new ConflictError('cannot stop a non-existent stopwatch', { issueId: issue.id });
    await finish(tx, sw, emit);
  });
}

/**
 * DELETE /repos/{o}/{r}/issues/{index}/stopwatch/delete (Gitea CancelStopwatch): drops it without booking time
 * (CANCEL_TRACKING comment); no stopwatch → 409. @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ConflictError
 */
export async function cancelStopwatch(cx: ServiceContext, ref: RepoRef, index: number): Promise<void> {
  const { issue, viewer } = await stopwatchIssue(cx, ref, index);
  await withTx(cx, async (tx) => {
    const { count } = await tx.stopwatch.deleteMany({ where: { userId: viewer.id, issueId: issue.id } });
    if (count === 0) throw new ConflictError('cannot cancel a non-existent stopwatch', { issueId: issue.id });
    await tx.comment.create({ data: { type: 'CANCEL_TRACKING', posterId: viewer.id, issueId: issue.id } });
  });
}

/**
 * GET /user/stopwatches (Gitea GetStopwatches): the viewer's running stopwatches, paginated; those on issues the
 * viewer can no longer read are left out of the page (the total counts them, as Gitea).
 * @throws UnauthenticatedError, PermissionDeniedError
 */
export async function listMyStopwatches(cx: ServiceContext, page: ListOptions): Promise<Page<StopwatchView>> {
  requireTokenScope(cx, 'user', 'read');
  const viewer = requireViewer(cx);
  const where = { userId: viewer.id };
  const [rows, total] = await Promise.all([
    cx.db.stopwatch.findMany({
      where,
      orderBy: { id: 'asc' },
      ...skipTake(page),
      include: {
        issue: { select: { index: true, title: true, isPull: true, repoId: true, repo: { select: { ownerName: true, name: true } } } },
      },
    }),
    cx.db.stopwatch.count({ where }),
  ]);
  const perms = await Promise.all(rows.map((r) => cx.loaders.repoPermission.load(r.issue.repoId)));
  const items = rows.flatMap(({ issue, ...stopwatch }, i) => {
    const perm = perms[i];
    return perm && canRead(perm, unitOf(issue)) ? [{ stopwatch, issue: { index: issue.index, title: issue.title }, repo: issue.repo }] : [];
  });
  return { items, total };
}

/** The stopwatch actions on an issue named by database id (GraphQL), with the REST rules. */
export const STOPWATCH_ACTIONS = { start: startStopwatch, stop: stopStopwatch, cancel: cancelStopwatch } as const;

/**
 * Starts, stops or cancels the viewer's stopwatch on an issue named by id (GraphQL startStopwatch, stopStopwatch,
 * cancelStopwatch). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ConflictError
 */
export async function stopwatchActionById(cx: ServiceContext, action: keyof typeof STOPWATCH_ACTIONS, issueId: number): Promise<void> {
  const { ref, index } = await locateIssueById(cx, issueId);
  await STOPWATCH_ACTIONS[action](cx, ref, index);
}
