// status — Gitea services/webhook/notifier.go CreateCommitStatus (api.CommitStatusPayload).
import type { DomainEvent } from '../../notify/events.ts';
import type { PayloadContext } from '../payloadContext.ts';
import type { OutgoingEvent } from './outgoing.ts';
import { payloadCommits } from './push.ts';

/** Gitea's CommitStatusPayload {commit, context, created_at, description, id, repository, sender, sha, state, target_url, updated_at}. */
export async function commitStatusEvent(
  pc: PayloadContext,
  e: Extract<DomainEvent, { type: 'commitStatus.created' }>,
): Promise<OutgoingEvent[]> {
  const [status, repository] = await Promise.all([pc.cx.db.commitStatus.findUnique({ where: { id: e.statusId } }), pc.repo(e.repoId)]);
  if (!status || !repository) return [];
  const [commit] = await payloadCommits(pc, e.repoId, [status.sha]);
  const payload = {
    commit: commit ?? null,
    context: status.context,
    created_at: status.createdAt.toISOString(),
    description: status.description,
    id: status.id,
    repository,
    sender: await pc.user(status.creatorId),
    sha: status.sha,
    state: status.state,
    target_url: status.targetUrl,
    updated_at: status.updatedAt.toISOString(),
  };
  return [{ eventType: 'status', repoId: e.repoId, payload }];
}
