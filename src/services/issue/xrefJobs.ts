// The durable follow-ups of references: an in-transaction subscriber writes a job row with the change, the job
// scans the text (Gitea does it inside the change's transaction; here it runs right after, and survives a crash).
import { z } from 'zod';
import { readRows } from '../../db/readPath.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import { usersByIds } from '../../loaders/usersByIds.ts';
import { keptCommentContent, keptEventIssue } from '../../notify/eventReads.ts';
import type { DomainEvent } from '../../notify/events.ts';
import type { TxSubscriber } from '../../notify/notifier.ts';
import { createSystemContext, type AppDeps } from '../context.ts';
import { issueById } from './issue.ts';
import {
  addCommentCrossReferences,
  addIssueCrossReferences,
  namesReferences,
  neuterCommentCrossReferences,
  resolvePullReferences,
} from './xref.ts';

const XrefPayload = z.discriminatedUnion('source', [
  // `created`: a new issue or comment, which has no references of its own yet.
  z.object({ source: z.literal('issue'), issueId: z.number().int(), actorId: z.number().int(), created: z.boolean().optional() }),
  z.object({ source: z.literal('comment'), commentId: z.number().int(), actorId: z.number().int(), created: z.boolean().optional() }),
  z.object({ source: z.literal('commentDeleted'), issueId: z.number().int(), commentId: z.number().int() }),
  z.object({ source: z.literal('review'), reviewId: z.number().int(), actorId: z.number().int() }),
  z.object({ source: z.literal('merge'), issueId: z.number().int(), actorId: z.number().int(), commitId: z.string() }),
]);
type XrefPayload = z.infer<typeof XrefPayload>;

/** Cross references of a new or edited issue, pull request or comment, and the references a merge resolves. */
export const XREF_JOB = jobKind('issue.xref', XrefPayload);

/** The job a domain event asks for, if any. */
function payloadOf(event: DomainEvent): XrefPayload | null {
  switch (event.type) {
    case 'issue.created':
      return { source: 'issue', issueId: event.issueId, actorId: event.actorId, created: true };
    case 'issue.updated':
      return event.fields.includes('title') || event.fields.includes('body')
        ? { source: 'issue', issueId: event.issueId, actorId: event.actorId }
        : null;
    case 'comment.created':
      return { source: 'comment', commentId: event.commentId, actorId: event.actorId, created: true };
    case 'comment.updated':
      return { source: 'comment', commentId: event.commentId, actorId: event.actorId };
    case 'comment.deleted':
      return { source: 'commentDeleted', issueId: event.issueId, commentId: event.commentId };
    case 'pull.reviewed':
      return { source: 'review', reviewId: event.reviewId, actorId: event.actorId };
    case 'pull.merged':
      return { source: 'merge', issueId: event.issueId, actorId: event.actorId, commitId: event.commitId };
    default:
      return null;
  }
}

/**
 * Whether `event`'s text may change the references of its source, by the text its writer kept with it: a new issue
 * or comment that names no issue has none to add; an edit of an issue's title or body whose text named none
 * before and names none after has none to add or replace (an earlier text's references were replaced by the job
 * of the edit that removed them, which reads the text as it is when it runs). Without the text at hand: true.
 */
async function mayReference(rootUrl: string, event: DomainEvent): Promise<boolean> {
  switch (event.type) {
    case 'issue.created':
    case 'issue.updated': {
      const issue = await keptEventIssue(event);
      if (!issue) return true;
      if (namesReferences(rootUrl, issue.title, issue.content)) return true;
      if (event.type === 'issue.created') return false;
      return namesReferences(rootUrl, event.old?.title ?? issue.title, event.old?.body ?? issue.content);
    }
    case 'comment.created': {
      const content = await keptCommentContent(event);
      return content === undefined || content === null || namesReferences(rootUrl, '', content);
    }
    default:
      return true;
  }
}

/**
 * Enqueues the reference job of every event that writes or removes referencing text, or merges a pull request;
 * not for a text that names no issue and replaces none that did (mayReference).
 */
export function xrefTxSubscriber(rootUrl: string): TxSubscriber {
  return {
    name: 'references',
    async handle(tx, event) {
      const payload = payloadOf(event);
      if (payload && (await mayReference(rootUrl, event))) await enqueue(tx, XREF_JOB, payload);
    },
  };
}

/**
 * The reference job: acts as the event's actor, whose permissions decide which references count. It always
 * replaces the source's earlier references ("remove old"): a new text has none, and a replayed job adds no duplicates.
 */
export function xrefJobHandler(deps: AppDeps): JobHandler<XrefPayload> {
  return defineHandler(XREF_JOB, async (payload) => {
    const cx = createSystemContext(deps);
    switch (payload.source) {
      case 'issue': {
        const issue = await issueById(cx.db, payload.issueId);
        // A new text that names no issue adds nothing and has no references of its own to replace (a later edit
        // that removes references made by an earlier run of this job has a job of its own, which replaces them).
        if (!issue || (payload.created && !namesReferences(cx.config.rootUrl, issue.title, issue.content))) return;
        const [doer] = await usersByIds(cx.db, [payload.actorId]);
        if (doer) await addIssueCrossReferences(cx, issue, doer);
        return;
      }
      case 'comment': {
        const [comment] = await readRows(cx.db, 'Comment', 'SELECT * FROM "Comment" WHERE "id" = ?', [payload.commentId]);
        if (!comment || (payload.created && !namesReferences(cx.config.rootUrl, '', comment.content))) return;
        const [doer] = await usersByIds(cx.db, [payload.actorId]);
        if (doer) await addCommentCrossReferences(cx, comment, doer);
        return;
      }
      case 'review': {
        // Gitea adds references for the code comments of a review (its REVIEW comment itself makes none).
        const [codes, doer] = await Promise.all([
          cx.db.comment.findMany({ where: { reviewId: payload.reviewId, type: 'CODE' }, orderBy: { id: 'asc' } }),
          cx.db.user.findUnique({ where: { id: payload.actorId } }),
        ]);
        if (doer) for (const c of codes) await addCommentCrossReferences(cx, c, doer);
        return;
      }
      case 'commentDeleted':
        return neuterCommentCrossReferences(cx, payload.issueId, payload.commentId);
      case 'merge':
        return resolvePullReferences(cx, payload.issueId, payload.actorId, payload.commitId);
    }
  });
}
