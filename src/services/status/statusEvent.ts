import { z } from 'zod';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import { createSystemContext, withTx, type AppDeps } from '../context.ts';

/**
 * A commit status was written (Gitea notify CreateCommitStatus): enqueued in the status's own transaction by
 * createCommitStatus, whatever wrote it (the REST door, Actions jobs), so the event is never lost; the handler
 * emits `commitStatus.created`, which webhooks turn into the `status` event.
 */
export const COMMIT_STATUS_CREATED = jobKind(
  'status.created',
  z.object({ statusId: z.number().int(), repoId: z.number().int(), sha: z.string(), done: z.boolean().optional() }),
  { maxAttempts: 5 },
);

/** Emits the domain event of a created status once (the checkpoint commits with the event's outbox rows). */
export function commitStatusEventHandler(deps: AppDeps): JobHandler<z.infer<typeof COMMIT_STATUS_CREATED.payload>> {
  return defineHandler(COMMIT_STATUS_CREATED, async (payload, run) => {
    if (payload.done) return;
    await withTx(createSystemContext(deps), async (tx, emit) => {
      const status = await tx.commitStatus.findUnique({ where: { id: payload.statusId }, select: { creatorId: true } });
      if (status)
        emit({
          type: 'commitStatus.created',
          statusId: payload.statusId,
          repoId: payload.repoId,
          sha: payload.sha,
          actorId: status.creatorId,
        });
      await run.checkpoint(tx, { ...payload, done: true });
    });
  });
}
