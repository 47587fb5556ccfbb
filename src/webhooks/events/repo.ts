// repository (created) and fork (Gitea services/webhook/notifier.go CreateRepository, ForkRepository).
import type { DomainEvent } from '../../notify/events.ts';
import type { PayloadContext } from '../payloadContext.ts';
import type { OutgoingEvent } from './outgoing.ts';

/** repository/created, with the owner as `organization` (Gitea RepositoryPayload). */
export async function repoCreated(pc: PayloadContext, e: Extract<DomainEvent, { type: 'repo.created' }>): Promise<OutgoingEvent[]> {
  const row = await pc.repoRow(e.repoId);
  const repository = await pc.repo(e.repoId);
  if (!row || !repository) return [];
  return [
    {
      eventType: 'repository',
      repoId: e.repoId,
      payload: { action: 'created', repository, organization: pc.userJson(row.owner), sender: await pc.user(e.actorId) },
    },
  ];
}

/**
 * fork to the source repository's hooks, with Gitea's inverted fields (`forkee` = the source, `repository` =
 * the new fork); and repository/created for the fork when an organization owns it.
 */
export async function repoForked(pc: PayloadContext, e: Extract<DomainEvent, { type: 'repo.forked' }>): Promise<OutgoingEvent[]> {
  const [source, fork, forkRow] = await Promise.all([pc.repo(e.parentId), pc.repo(e.repoId), pc.repoRow(e.repoId)]);
  if (!source || !fork || !forkRow) return [];
  const sender = await pc.user(e.actorId);
  const out: OutgoingEvent[] = [{ eventType: 'fork', repoId: e.parentId, payload: { forkee: source, repository: fork, sender } }];
  if (forkRow.owner.type === 'ORGANIZATION') {
    out.push({
      eventType: 'repository',
      repoId: e.repoId,
      payload: { action: 'created', repository: fork, organization: pc.userJson(forkRow.owner), sender },
    });
  }
  return out;
}
