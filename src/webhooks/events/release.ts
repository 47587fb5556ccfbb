// release (published, updated, deleted) — Gitea services/webhook/notifier.go sendReleaseHook.
import type { DomainEvent } from '../../notify/events.ts';
import { toApiRelease } from '../../rest/convert/release.ts';
import type { Release } from '../../rest/structs/release.ts';
import { loadReleaseViews, type ReleaseView } from '../../services/release/release.ts';
import type { PayloadContext } from '../payloadContext.ts';
import type { OutgoingEvent } from './outgoing.ts';

type ReleaseEvent = Extract<DomainEvent, { type: 'release.published' | 'release.updated' | 'release.deleted' }>;

/** The release as it is now; for a deletion, as the event kept it (the row is gone, and so are its assets). */
async function releaseView(pc: PayloadContext, e: ReleaseEvent, repo: ReleaseView['repo']): Promise<ReleaseView | null> {
  if (e.type !== 'release.deleted') {
    const row = await pc.cx.db.release.findUnique({ where: { id: e.releaseId } });
    return row ? ((await loadReleaseViews(pc.cx.db, [row]))[0] ?? null) : null;
  }
  const r = e.release;
  return {
    release: {
      id: e.releaseId,
      repoId: e.repoId,
      publisherId: r.publisherId,
      tagName: e.tagName,
      lowerTagName: e.tagName.toLowerCase(),
      target: r.target,
      title: e.title,
      sha1: '',
      numCommits: 0,
      note: r.note,
      isDraft: false,
      isPrerelease: r.isPrerelease,
      isTag: false,
      originalAuthor: '',
      originalAuthorId: 0,
      createdAt: new Date(r.createdAt),
    },
    repo,
    publisher: await pc.userRow(r.publisherId),
    attachments: [],
  };
}

/** Gitea's ReleasePayload {action, release, repository, sender}. */
export async function releaseEvent(pc: PayloadContext, e: ReleaseEvent): Promise<OutgoingEvent[]> {
  const row = await pc.repoRow(e.repoId);
  const repository = await pc.repo(e.repoId);
  if (!row || !repository) return [];
  const view = await releaseView(pc, e, { id: row.id, ownerName: row.ownerName, name: row.name });
  if (!view) return [];
  const release: Release = toApiRelease(view, pc.opts);
  return [{ eventType: 'release', repoId: e.repoId, payload: { action: e.action, release, repository, sender: await pc.user(e.actorId) } }];
}
