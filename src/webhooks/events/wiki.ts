// wiki (created, edited, deleted) — Gitea services/webhook/notifier.go NewWikiPage, EditWikiPage, DeleteWikiPage.
import type { DomainEvent } from '../../notify/events.ts';
import type { PayloadContext } from '../payloadContext.ts';
import type { OutgoingEvent } from './outgoing.ts';

/** Gitea's WikiPayload {action, repository, sender, page, comment}. */
export async function wikiEvent(pc: PayloadContext, e: Extract<DomainEvent, { type: 'wiki.changed' }>): Promise<OutgoingEvent[]> {
  const repository = await pc.repo(e.repoId);
  if (!repository) return [];
  return [
    {
      eventType: 'wiki',
      repoId: e.repoId,
      payload: { action: e.action, repository, sender: await pc.user(e.actorId), page: e.page, comment: e.comment },
    },
  ];
}
