// Which domain events reach webhooks, and how: the repositories whose hooks may receive it (checked in the
// emitting transaction, so nothing is queued when no hook exists) and the builder of its payloads (run by the
// prepare job). A new event is one entry here.
import type { DomainEvent } from '../notify/events.ts';
import { workflowJobEvent, workflowRunEvent } from './events/actions.ts';
import { commentEvent } from './events/comment.ts';
import { issueCreated, issueStateChanged, issueUpdated, pullMerged, pullReviewed, reviewRequest } from './events/issue.ts';
import type { OutgoingEvent } from './events/outgoing.ts';
import { pushEvents } from './events/push.ts';
import { releaseEvent } from './events/release.ts';
import { repoCreated, repoForked } from './events/repo.ts';
import { commitStatusEvent } from './events/status.ts';
import { wikiEvent } from './events/wiki.ts';
import type { PayloadContext } from './payloadContext.ts';

type Type = DomainEvent['type'];
type Ev<T extends Type> = Extract<DomainEvent, { type: T }>;

/** How one kind of domain event becomes webhook payloads. */
interface Entry<T extends Type> {
  /** Repositories whose hooks (and their owners' hooks, and system hooks) may receive it. */
  targets(e: Ev<T>): number[];
  build(pc: PayloadContext, e: Ev<T>): Promise<OutgoingEvent[]>;
}

type Table = { [T in Type]?: Entry<T> };

const inRepo = (e: { repoId: number }): number[] => [e.repoId];

const TABLE: Table = {
  'repo.pushed': { targets: inRepo, build: (pc, e) => pushEvents(pc, e.repoId, e.pusherId, e.updates) },
  'repo.created': { targets: inRepo, build: repoCreated },
  'repo.forked': { targets: (e) => [e.parentId, e.repoId], build: repoForked },
  'issue.created': { targets: inRepo, build: issueCreated },
  'issue.closed': { targets: inRepo, build: issueStateChanged },
  'issue.reopened': { targets: inRepo, build: issueStateChanged },
  'issue.updated': { targets: inRepo, build: issueUpdated },
  'pull.merged': { targets: inRepo, build: pullMerged },
  'pull.reviewed': { targets: inRepo, build: pullReviewed },
  'pull.reviewRequested': { targets: inRepo, build: reviewRequest },
  'pull.reviewRequestRemoved': { targets: inRepo, build: reviewRequest },
  'comment.created': { targets: inRepo, build: commentEvent },
  'comment.updated': { targets: inRepo, build: commentEvent },
  'comment.deleted': { targets: inRepo, build: commentEvent },
  'release.published': { targets: inRepo, build: releaseEvent },
  'release.updated': { targets: inRepo, build: releaseEvent },
  'release.deleted': { targets: inRepo, build: releaseEvent },
  'actions.jobStatus': { targets: inRepo, build: workflowJobEvent },
  'actions.runStatus': { targets: inRepo, build: workflowRunEvent },
  'commitStatus.created': { targets: inRepo, build: commitStatusEvent },
  'wiki.changed': { targets: inRepo, build: wikiEvent },
};

/** The repositories whose hooks may want this event; empty when webhooks ignore it. */
export function webhookTargets(event: DomainEvent): number[] {
  const entry = TABLE[event.type] as Entry<Type> | undefined;
  return entry ? entry.targets(event) : [];
}

/** The payloads of an event. */
export function buildOutgoing(pc: PayloadContext, event: DomainEvent): Promise<OutgoingEvent[]> {
  const entry = TABLE[event.type] as Entry<Type> | undefined;
  return entry ? entry.build(pc, event) : Promise.resolve([]);
}
