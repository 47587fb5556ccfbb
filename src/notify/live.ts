// Domain events → live events (GraphQL subscriptions), after the change committed.
import type { DomainEvent } from './events.ts';
import { notificationTopic, repoTopic, type LiveAction, type LiveBus } from './liveBus.ts';
import type { Subscriber } from './notifier.ts';

/** The live action of an issue or pull request event, if it is one. */
function issueAction(
  event: DomainEvent,
): { action: LiveAction; issueId: number; repoId: number; actorId: number; commentId: number | null } | null {
  const base = (action: LiveAction, commentId: number | null = null) =>
    'issueId' in event && 'repoId' in event && 'actorId' in event && typeof event.actorId === 'number'
      ? { action, issueId: event.issueId, repoId: event.repoId, actorId: event.actorId, commentId }
      : null;
  switch (event.type) {
    case 'issue.created':
      return base('CREATED');
    case 'issue.updated':
      // A state change reports CLOSED/REOPENED on its own event.
      if (event.fields.length === 1 && event.fields[0] === 'state') return null;
      return base(event.fields.includes('labels') ? 'LABELED' : 'EDITED');
    case 'issue.closed':
      return base('CLOSED');
    case 'issue.reopened':
      return base('REOPENED');
    case 'comment.created':
      return base('COMMENTED', event.commentId);
    case 'pull.merged':
      return base('MERGED');
    case 'pull.reviewed':
      return base('REVIEWED', event.commentId);
    default:
      return null;
  }
}

/**
 * Publishes committed issue and pull request changes on their repository's topic, and new notifications on their
 * user's topic. Permissions are not decided here: each subscription re-checks every event for its viewer.
 */
export function liveSubscriber(bus: LiveBus): Subscriber {
  return {
    name: 'live',
    handle(event) {
      if (event.type === 'notification.created') {
        bus.publish(notificationTopic(event.userId), { kind: 'notification', userId: event.userId, notificationId: event.notificationId });
        return;
      }
      const e = issueAction(event);
      if (e) bus.publish(repoTopic(e.repoId), { kind: 'issue', ...e });
    },
  };
}
