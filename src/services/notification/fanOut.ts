// Notification fan-out (Gitea services/uinotification + models/activities createOrUpdateIssueNotifications).
import type { Db, DbLike, Models } from '../../db/client.ts';
import { defineHandler, type JobHandler } from '../../jobs/jobKind.ts';
import { usersRepoPermissions } from '../../loaders/usersRepoPermission.ts';
import { findMentions, mentionedUserIds } from '../../notify/mentions.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { NOTIFICATION_JOB, type NotificationPayload } from '../../notify/notificationJob.ts';
import { canRead } from '../../permissions/repoPermission.ts';
import { createSystemContext, withTx, type AppDeps } from '../context.ts';
import { withRetry } from '../dbErrors.ts';
import { unitOf } from '../issue/issue.ts';
import { isWorkInProgress } from '../issue/wip.ts';
import { PARTICIPATING_COMMENTS } from '../watch/issueWatch.ts';
import { WATCHING_MODES } from '../watch/repoWatch.ts';
import { insertRows } from '../../db/insertRows.ts';
import { readRows } from '../../db/readPath.ts';
import { commentContent } from '../../notify/eventReads.ts';

type Issue = Pick<Models.Issue, 'id' | 'repoId' | 'posterId' | 'isPull' | 'title' | 'content'>;

/** The users the text of the event mentions (resolved as Gitea does: readers of the unit, not the author). */
async function mentioned(db: Db, issue: Issue, p: NotificationPayload): Promise<number[]> {
  if (!p.mentionsIn) return [];
  const content = 'issue' in p.mentionsIn ? issue.content : ((await commentContent(db, p.mentionsIn.commentId)) ?? '');
  const names = findMentions(content);
  return names.length ? mentionedUserIds(db, { issueId: issue.id, content, actorId: p.actorId }, names) : [];
}

/**
 * The receivers of one fan-out, before the read check: Gitea's broadcast set (issue watchers, repository watchers
 * — not for a work-in-progress pull request —, participants; minus explicit unwatchers), the new-pull set, and
 * the targeted users (mentions, assignees, reviewers), who bypass the watch rules. Never the actor.
 */
async function receivers(db: Db, issue: Issue, p: NotificationPayload): Promise<number[]> {
  const out = new Set<number>();
  if (p.audience !== 'targets') {
    const skipRepoWatchers = p.audience === 'broadcast' && issue.isPull && isWorkInProgress(issue.title);
    const [issueWatches, repoWatches, participants] = await Promise.all([
      readRows<'IssueWatch', { userId: number; isWatching: boolean }>(
        db,
        'IssueWatch',
        'SELECT "userId", "isWatching" FROM "IssueWatch" WHERE "issueId" = ?',
        [issue.id],
      ),
      skipRepoWatchers
        ? []
        : readRows<'Watch', { userId: number }>(db, 'Watch', 'SELECT "userId" FROM "Watch" WHERE "repoId" = ? AND "mode" IN (?)', [
            issue.repoId,
            WATCHING_MODES,
          ]),
      readRows<'Comment', { posterId: number | null }>(
        db,
        'Comment',
        'SELECT DISTINCT "posterId" FROM "Comment" WHERE "issueId" = ? AND "type" IN (?) AND "posterId" IS NOT NULL',
        [issue.id, PARTICIPATING_COMMENTS],
      ),
    ]);
    if (p.audience === 'broadcast') for (const w of issueWatches) if (w.isWatching) out.add(w.userId);
    for (const w of repoWatches) out.add(w.userId);
    for (const c of participants) if (c.posterId !== null) out.add(c.posterId);
    if (issue.posterId !== null) out.add(issue.posterId);
    if (p.audience === 'broadcast') {
      for (const w of issueWatches) if (!w.isWatching) out.delete(w.userId);
    } else if (issue.posterId !== null) out.delete(issue.posterId);
  }
  const targets = [...p.targets, ...(await mentioned(db, issue, p))];
  if (p.event === 'issue.created') {
    const assignees = await readRows<'IssueAssignee', { assigneeId: number }>(
      db,
      'IssueAssignee',
      'SELECT "assigneeId" FROM "IssueAssignee" WHERE "issueId" = ?',
      [issue.id],
    );
    targets.push(...assignees.map((a) => a.assigneeId));
  }
  for (const id of targets) out.add(id);
  out.delete(p.actorId);
  return [...out];
}

/**
 * Writes the threads of one fan-out in one transaction (with the job's checkpoint, so a replay does nothing):
 * receivers who cannot read the issue's unit are dropped (the access model for all of them at once); one thread
 * per (user, issue) — new ones in one insert, a read one becomes unread with the new comment, an unread or
 * pinned one only records who updated it; every touched thread's `updatedAt` moves (it reorders the list).
 * Statements depend on the shape of the event, not on the number of receivers.
 */
export function notificationJobHandler(deps: AppDeps): JobHandler<NotificationPayload> {
  return defineHandler(NOTIFICATION_JOB, async (payload, run) => {
    if (payload.done) return;
    const db = deps.db;
    const [issue] = await readRows<'Issue', Issue>(
      db,
      'Issue',
      'SELECT "id", "repoId", "posterId", "isPull", "title", "content" FROM "Issue" WHERE "id" = ?',
      [payload.issueId],
    );
    if (!issue || (payload.onlyIfReadyForReview && !(await becameReadyForReview(db, issue)))) return;
    const candidates = await receivers(db, issue, payload);
    const perms = await usersRepoPermissions(db, issue.repoId, candidates);
    const readers = candidates.filter((id) => {
      const perm = perms.get(id);
      return perm !== undefined && canRead(perm, unitOf(issue));
    });
    const cx = createSystemContext(deps);
    // Two fan-outs of one issue may race to insert the same thread: the loser runs again and updates it.
    await withRetry(() =>
      withTx(cx, async (tx, emit) => {
        if (readers.length) await writeThreads(tx, issue, readers, payload, emit);
        await run.checkpoint(tx, { ...payload, done: true });
      }),
    );
  });
}

/** The latest title change of a pull request removed its work-in-progress prefix. */
async function becameReadyForReview(db: Db, issue: Issue): Promise<boolean> {
  if (!issue.isPull) return false;
  const change = await db.comment.findFirst({
    where: { issueId: issue.id, type: 'CHANGE_TITLE' },
    orderBy: { id: 'desc' },
    select: { oldTitle: true, newTitle: true },
  });
  return change !== null && isWorkInProgress(change.oldTitle) && !isWorkInProgress(change.newTitle);
}

/**
 * Creates or updates the threads of `userIds` for `issue`, and emits `notification.created` for each thread that
 * became unread (published after the commit; live subscriptions listen to it).
 */
async function writeThreads(
  tx: DbLike,
  issue: Issue,
  userIds: number[],
  p: NotificationPayload,
  emit: (e: DomainEvent) => void,
): Promise<void> {
  const existing = await readRows<'Notification', Pick<Models.Notification, 'id' | 'userId' | 'status'>>(
    tx,
    'Notification',
    'SELECT "id", "userId", "status" FROM "Notification" WHERE "issueId" = ? AND "userId" IN (?)',
    [issue.id, userIds],
  );
  const have = new Set(existing.map((n) => n.userId));
  const now = new Date();
  const fresh = userIds.filter((id) => !have.has(id));
  const read = existing.filter((n) => n.status === 'READ').map((n) => n.id);
  const kept = existing.filter((n) => n.status !== 'READ').map((n) => n.id);
  if (fresh.length) {
    await insertRows(
      tx,
      'Notification',
      fresh.map((userId) => ({
        userId,
        repoId: issue.repoId,
        status: 'UNREAD' as const,
        source: issue.isPull ? ('PULL_REQUEST' as const) : ('ISSUE' as const),
        issueId: issue.id,
        commentId: p.commentId,
        updatedById: p.actorId,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  if (read.length)
    await tx.notification.updateMany({
      where: { id: { in: read } },
      data: { status: 'UNREAD', commentId: p.commentId, updatedById: p.actorId, updatedAt: now },
    });
  if (kept.length) await tx.notification.updateMany({ where: { id: { in: kept } }, data: { updatedById: p.actorId, updatedAt: now } });
  if (!fresh.length && !read.length) return;
  const unread = await readRows<'Notification', { id: number; userId: number }>(
    tx,
    'Notification',
    'SELECT "id", "userId" FROM "Notification" WHERE "issueId" = ? AND "userId" IN (?)',
    [issue.id, [...fresh, ...existing.filter((n) => n.status === 'READ').map((n) => n.userId)]],
  );
  for (const n of unread)
    emit({ type: 'notification.created', notificationId: n.id, userId: n.userId, repoId: issue.repoId, issueId: issue.id });
}
