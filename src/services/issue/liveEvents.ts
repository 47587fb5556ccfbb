// Live issue and pull request events for one viewer (GraphQL issueEvents / pullRequestEvents, notificationReceived).
import type { Models } from '../../db/client.ts';
import { notificationTopic, repoTopic, type LiveAction } from '../../notify/liveBus.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitRead } from '../access/repoAccess.ts';
import { createServiceContext, type ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';
import { issueReadWhere } from './visibility.ts';

/** One event as a subscriber receives it: the issue (or pull request's issue) as it is now. */
export interface IssueLiveEvent {
  action: LiveAction;
  issue: Models.Issue;
  actorId: number;
  commentId: number | null;
}

/** How a live stream ends early: the client left (`signal`), or its queue overflowed (`queueSize`). */
export interface LiveStreamOptions {
  queueSize: number;
  signal?: AbortSignal;
}

/**
 * A fresh context for the subscriber at the time of an event: the viewer's row re-read (a deleted or deactivated
 * account receives nothing more) and new per-request loaders, so permissions are evaluated anew for each event.
 */
async function contextNow(cx: ServiceContext): Promise<ServiceContext | null> {
  if (!cx.viewer) return createServiceContext(cx, null, cx.auth);
  const viewer = await cx.db.user.findUnique({ where: { id: cx.viewer.id } });
  if (!viewer || !viewer.isActive || viewer.prohibitLogin) return null;
  return createServiceContext(cx, viewer, cx.auth);
}

/**
 * The issue (`kind: 'issue'`) or pull request events of owner/name from now on, each delivered only when the
 * viewer may read that issue at that moment (issueReadWhere, re-evaluated per event: a subscriber who loses
 * access stops receiving). @throws NotFoundError (repository or unit invisible), PermissionDeniedError (token scope)
 */
export async function watchIssueEvents(
  cx: ServiceContext,
  input: { owner: string; name: string; kind: 'issue' | 'pull' },
  opts: LiveStreamOptions,
): Promise<AsyncIterable<IssueLiveEvent>> {
  requireTokenScope(cx, 'issue', 'read');
  const access = await requireRepo(cx, input.owner, input.name);
  requireUnitRead(access, input.kind === 'pull' ? 'PULL_REQUESTS' : 'ISSUES');
  const repoId = access.repo.id;
  const events = await cx.live.open(repoTopic(repoId), opts);
  const isPull = input.kind === 'pull';
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const event of events) {
          // Only this repository's events: an id is read against this subscription's repository, never trusted alone.
          if (event.kind !== 'issue' || event.repoId !== repoId) continue;
          const now = await contextNow(cx);
          if (!now) return;
          const issue = await now.db.issue.findFirst({ where: { id: event.issueId, repoId, isPull, AND: [issueReadWhere(now)] } });
          if (issue) yield { action: event.action, issue, actorId: event.actorId, commentId: event.commentId };
        }
      } finally {
        await events.return?.();
      }
    },
  };
}

/** One new notification of the viewer. */
export interface NotificationLiveEvent {
  notification: Models.Notification;
}

/**
 * The viewer's new notifications from now on; each only while the viewer can still read its subject (the
 * issue, or the repository). @throws UnauthenticatedError, PermissionDeniedError (token scope)
 */
export async function watchNotifications(cx: ServiceContext, opts: LiveStreamOptions): Promise<AsyncIterable<NotificationLiveEvent>> {
  const viewer = requireViewer(cx);
  requireTokenScope(cx, 'notification', 'read');
  const events = await cx.live.open(notificationTopic(viewer.id), opts);
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const event of events) {
          if (event.kind !== 'notification' || event.userId !== viewer.id) continue;
          const now = await contextNow(cx);
          if (!now) return;
          const notification = await now.db.notification.findFirst({
            where: {
              id: event.notificationId,
              userId: viewer.id,
              OR: [{ issueId: null, repo: repoReadWhere(now) }, { issue: issueReadWhere(now) }],
            },
          });
          if (notification) yield { notification };
        }
      } finally {
        await events.return?.();
      }
    },
  };
}
