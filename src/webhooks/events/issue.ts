// issues / pull_request and their assign, label and milestone variants, reviews and review requests
// (Gitea services/webhook/notifier.go).
import type { DomainEvent } from '../../notify/events.ts';
import { toApiIssue } from '../../rest/convert/issue.ts';
import { toApiPullRequest } from '../../rest/convert/pull.ts';
import * as issueService from '../../services/issue/issue.ts';
import * as pullService from '../../services/pull/pull.ts';
import type { PayloadContext } from '../payloadContext.ts';
import type { OutgoingEvent } from './outgoing.ts';

type Ev<T extends DomainEvent['type']> = Extract<DomainEvent, { type: T }>;

/** An issue or pull request event's payload: Gitea's IssuePayload, or PullRequestPayload for pull requests. */
async function issuePayload(
  pc: PayloadContext,
  issueId: number,
  kind: 'issues' | 'assign' | 'label' | 'milestone',
  action: string | ((issue: { milestoneId: number | null; labels: number; assignees: number }) => string),
  actorId: number,
  extra: Record<string, unknown> = {},
): Promise<OutgoingEvent | null> {
  const issue = await pc.cx.db.issue.findUnique({ where: { id: issueId } });
  if (!issue) return null;
  const repository = await pc.repo(issue.repoId);
  if (!repository) return null;
  const sender = await pc.user(actorId);
  const [labels, assignees] =
    typeof action === 'function'
      ? await Promise.all([pc.cx.db.issueLabel.count({ where: { issueId } }), pc.cx.db.issueAssignee.count({ where: { issueId } })])
      : [0, 0];
  const act = typeof action === 'function' ? action({ milestoneId: issue.milestoneId, labels, assignees }) : action;
  const suffix = kind === 'issues' ? '' : `_${kind}`;
  if (issue.isPull) {
    const view = await pullService.loadPullView(pc.cx, issue);
    return {
      eventType: `pull_request${suffix}`,
      repoId: issue.repoId,
      payload: {
        action: act,
        number: issue.index,
        ...extra,
        pull_request: toApiPullRequest(view, null, pc.opts),
        requested_reviewer: null,
        repository,
        sender,
        commit_id: '',
        review: null,
      },
    };
  }
  const view = await issueService.loadIssueView(pc.cx.db, issue);
  return {
    eventType: kind === 'issues' ? 'issues' : `issue${suffix}`,
    repoId: issue.repoId,
    payload: { action: act, number: issue.index, ...extra, issue: toApiIssue(view, null, pc.opts), repository, sender, commit_id: '' },
  };
}

const some = (e: OutgoingEvent | null): OutgoingEvent[] => (e ? [e] : []);

/** issue.created: issues/opened or pull_request/opened. */
export async function issueCreated(pc: PayloadContext, e: Ev<'issue.created'>): Promise<OutgoingEvent[]> {
  return some(await issuePayload(pc, e.issueId, 'issues', 'opened', e.actorId));
}

/** issue.closed / issue.reopened. */
export async function issueStateChanged(pc: PayloadContext, e: Ev<'issue.closed' | 'issue.reopened'>): Promise<OutgoingEvent[]> {
  return some(await issuePayload(pc, e.issueId, 'issues', e.type === 'issue.closed' ? 'closed' : 'reopened', e.actorId));
}

/** pull.merged: pull_request/closed with `merged: true` in the pull request. */
export async function pullMerged(pc: PayloadContext, e: Ev<'pull.merged'>): Promise<OutgoingEvent[]> {
  return some(await issuePayload(pc, e.issueId, 'issues', 'closed', e.actorId));
}

/** Gitea's `changes` of an edit: the previous title, body and ref (omitted when not known). */
function changesOf(e: Ev<'issue.updated'>): Record<string, unknown> {
  const out: Record<string, { from: string }> = {};
  for (const key of ['title', 'body', 'ref'] as const) {
    const from = e.old?.[key];
    if (from !== undefined) out[key] = { from };
  }
  return Object.keys(out).length ? { changes: out } : {};
}

/**
 * issue.updated: title/body/ref (and a pull request's base) → edited, with `changes`; labels → label_updated
 * (label_cleared when none is left); assignees → assigned / unassigned, one delivery per user added or removed;
 * milestone → milestoned / demilestoned. State changes come as issue.closed / issue.reopened; projects and due
 * dates send nothing (as Gitea).
 */
export async function issueUpdated(pc: PayloadContext, e: Ev<'issue.updated'>): Promise<OutgoingEvent[]> {
  const out: OutgoingEvent[] = [];
  const f = new Set(e.fields);
  if (f.has('title') || f.has('body') || f.has('ref') || f.has('base')) {
    out.push(...some(await issuePayload(pc, e.issueId, 'issues', 'edited', e.actorId, changesOf(e))));
  }
  if (f.has('labels')) {
    out.push(...some(await issuePayload(pc, e.issueId, 'label', (i) => (i.labels ? 'label_updated' : 'label_cleared'), e.actorId)));
  }
  if (f.has('assignees')) {
    const changes = e.assignees ?? { added: [], removed: [] };
    const actions = [...changes.added.map(() => 'assigned'), ...changes.removed.map(() => 'unassigned')];
    if (!e.assignees) actions.push('assigned');
    for (const action of actions) {
      out.push(
        ...some(
          await issuePayload(pc, e.issueId, 'assign', e.assignees ? action : (i) => (i.assignees ? 'assigned' : 'unassigned'), e.actorId),
        ),
      );
    }
  }
  if (f.has('milestone')) {
    out.push(...some(await issuePayload(pc, e.issueId, 'milestone', (i) => (i.milestoneId ? 'milestoned' : 'demilestoned'), e.actorId)));
  }
  return out;
}

const REVIEW_TYPES = {
  APPROVE: 'pull_request_review_approved',
  REJECT: 'pull_request_review_rejected',
  COMMENT: 'pull_request_review_comment',
} as const;

/** pull.reviewed: pull_request_review_{approved,rejected,comment} / reviewed, with the review's type and body. */
export async function pullReviewed(pc: PayloadContext, e: Ev<'pull.reviewed'>): Promise<OutgoingEvent[]> {
  const review = await pc.cx.db.review.findUnique({ where: { id: e.reviewId }, select: { content: true } });
  const eventType = REVIEW_TYPES[e.state];
  const base = await issuePayload(pc, e.issueId, 'issues', 'reviewed', e.actorId);
  if (!base) return [];
  return [{ ...base, eventType, payload: { ...base.payload, review: { type: eventType, content: review?.content ?? '' } } }];
}

/** pull.reviewRequested / pull.reviewRequestRemoved for a user (team requests send nothing, as Gitea). */
export async function reviewRequest(
  pc: PayloadContext,
  e: Ev<'pull.reviewRequested' | 'pull.reviewRequestRemoved'>,
): Promise<OutgoingEvent[]> {
  if (e.reviewerId === null) return [];
  const action = e.type === 'pull.reviewRequested' ? 'review_requested' : 'review_request_removed';
  const base = await issuePayload(pc, e.issueId, 'issues', action, e.actorId);
  if (!base) return [];
  return [
    {
      ...base,
      eventType: 'pull_request_review_request',
      payload: { ...base.payload, requested_reviewer: await pc.user(e.reviewerId) },
    },
  ];
}
