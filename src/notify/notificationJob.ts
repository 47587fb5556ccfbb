// The notification fan-out outbox: events that notify users become a job row in the emitting transaction.
import { z } from 'zod';
import { enqueue } from '../jobs/enqueue.ts';
import { jobKind } from '../jobs/jobKind.ts';
import { keptCommentContent, keptEventIssue } from './eventReads.ts';
import type { DomainEvent } from './events.ts';
import { mayMention } from './mentions.ts';
import type { TxSubscriber } from './notifier.ts';

/**
 * Who a fan-out reaches (Gitea services/uinotification): `broadcast` = issue watchers, repository watchers (not
 * for a work-in-progress pull request) and participants, minus explicit unwatchers; `newPull` = repository
 * watchers and participants, minus the poster, unwatching not consulted; `targets` only = the listed users
 * (assignees, requested reviewers). Mentions in `mentionsIn` are added as targets. Never the actor.
 */
const NotificationPayload = z.object({
  event: z.string(),
  issueId: z.number().int(),
  actorId: z.number().int(),
  commentId: z.number().int().nullable(),
  audience: z.enum(['broadcast', 'newPull', 'targets']),
  targets: z.array(z.number().int()),
  /** Whose text to scan for @mentions: the issue's body or a comment's. */
  mentionsIn: z.union([z.object({ issue: z.literal(true) }), z.object({ commentId: z.number().int() })]).nullable(),
  /**
   * Only when the latest title change took a pull request out of work in progress (Gitea IssueChangeTitle): set by
   * the jobs of title changes written before `pull.readyForReview` had its own fan-out, still honoured for those.
   */
  onlyIfReadyForReview: z.boolean().optional(),
  /** Checkpoint: the threads are written (a replay does nothing). */
  done: z.boolean().optional(),
});
/** The fan-out job's payload. */
export type NotificationPayload = z.infer<typeof NotificationPayload>;

/** The notification fan-out job (handler: services/notification/fanOut.ts). */
export const NOTIFICATION_JOB = jobKind('notification.fanOut', NotificationPayload, { maxAttempts: 8 });

/** The fan-out an event asks for, or null when it notifies nobody. */
export function notificationPayloadOf(event: DomainEvent): NotificationPayload | null {
  const base = { event: event.type, commentId: null, targets: [], mentionsIn: null };
  switch (event.type) {
    case 'issue.created':
      return event.isPull
        ? { ...base, issueId: event.issueId, actorId: event.actorId, audience: 'newPull', mentionsIn: { issue: true } }
        : { ...base, issueId: event.issueId, actorId: event.actorId, audience: 'broadcast', mentionsIn: { issue: true } };
    case 'comment.created':
      return {
        ...base,
        issueId: event.issueId,
        actorId: event.actorId,
        commentId: event.commentId,
        audience: 'broadcast',
        mentionsIn: { commentId: event.commentId },
      };
    case 'pull.reviewed':
      return {
        ...base,
        issueId: event.issueId,
        actorId: event.actorId,
        commentId: event.commentId,
        audience: 'broadcast',
        mentionsIn: { commentId: event.commentId },
      };
    // Gitea IssueChangeTitle notifies only when the new title takes a pull request out of work in progress: the
    // edit says so with its own event, so other title changes (every issue's) write no job.
    case 'pull.readyForReview':
    case 'issue.closed':
    case 'issue.reopened':
    case 'pull.merged':
      return { ...base, issueId: event.issueId, actorId: event.actorId, audience: 'broadcast' };
    case 'pull.pushed':
      return { ...base, issueId: event.issueId, actorId: event.actorId, commentId: event.commentId, audience: 'broadcast' };
    case 'pull.reviewDismissed':
      return event.dismissed
        ? { ...base, issueId: event.issueId, actorId: event.actorId, commentId: event.commentId, audience: 'broadcast' }
        : null;
    case 'issue.assigned':
      return { ...base, issueId: event.issueId, actorId: event.actorId, audience: 'targets', targets: event.assigneeIds };
    case 'pull.reviewRequested':
      return event.reviewerId === null
        ? null
        : {
            ...base,
            issueId: event.issueId,
            actorId: event.actorId,
            commentId: event.commentId,
            audience: 'targets',
            targets: [event.reviewerId],
          };
    default:
      return null;
  }
}

/**
 * Whether the text a job would scan for mentions (`mentionsIn`: the new issue's body or a comment's) may mention
 * someone, judged from the text its writer kept with the event (nothing is read); true when it kept none.
 */
async function mayMentionIn(event: object, mentionsIn: NonNullable<NotificationPayload['mentionsIn']>): Promise<boolean> {
  const content = 'issue' in mentionsIn ? (await keptEventIssue(event))?.content : await keptCommentContent(event);
  return typeof content !== 'string' || mayMention(content);
}

/**
 * The in-transaction subscriber that writes the fan-out job of each notifying event (an outbox row). A text that,
 * as its writer kept it with the event, has no `@` mentions nobody: its job does not read the text again.
 */
export function notificationOutbox(): TxSubscriber {
  return {
    name: 'notifications',
    async handle(tx, event) {
      const payload = notificationPayloadOf(event);
      if (!payload) return;
      if (payload.mentionsIn && !(await mayMentionIn(event, payload.mentionsIn))) payload.mentionsIn = null;
      await enqueue(tx, NOTIFICATION_JOB, payload);
    },
  };
}
