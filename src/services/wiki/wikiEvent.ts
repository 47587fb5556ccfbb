// The `wiki` webhook of a page write (Gitea notify NewWikiPage, EditWikiPage, DeleteWikiPage): a job held before the
// wiki's branch moves, run once it moved, so a write whose branch moved always gets its event, even across a crash
// (the job is then replayed and asks git whether the branch got there). No feed row: Gitea has no wiki action.
import { z } from 'zod';
import { readRef } from '../../git/readRefs.ts';
import { wikiPath } from '../../git/repoPath.ts';
import { defineHandler, jobKind, type JobHandler } from '../../jobs/jobKind.ts';
import { createSystemContext, withTx, type AppDeps } from '../context.ts';

/** Gitea HookWikiAction. */
export type WikiAction = 'created' | 'edited' | 'deleted';

const WikiChangedPayload = z.object({
  repoId: z.number().int(),
  actorId: z.number().int(),
  action: z.enum(['created', 'edited', 'deleted']),
  /** The page's web path (Gitea's WikiPayload `page`). */
  page: z.string(),
  comment: z.string(),
  branch: z.string(),
  newSha: z.string(),
  /** Whether the branch moved; absent after a crash (then read back from git). */
  applied: z.boolean().optional(),
  /** Checkpoint: the event is committed. */
  done: z.boolean().optional(),
});
/** The event job's payload. */
export type WikiChangedPayload = z.infer<typeof WikiChangedPayload>;

/** A page write's event, held by the writer. */
export const WIKI_CHANGED = jobKind('wiki.changed', WikiChangedPayload, { maxAttempts: 5 });

/** Emits `wiki.changed` once for a write whose branch moved (the checkpoint commits with the event's outbox rows). */
export function wikiEventHandler(deps: AppDeps): JobHandler<WikiChangedPayload> {
  return defineHandler(WIKI_CHANGED, async (payload, run) => {
    if (payload.done || payload.applied === false) return;
    const cx = createSystemContext(deps);
    if (payload.applied === undefined) {
      const repo = await deps.db.repository.findUnique({ where: { id: payload.repoId }, select: { ownerName: true, name: true } });
      const dir = repo ? wikiPath(deps.config.repositoriesDir, repo.ownerName, repo.name) : null;
      if (!dir || (await readRef(dir, `refs/heads/${payload.branch}`)) !== payload.newSha) return;
    }
    await withTx(cx, async (tx, emit) => {
      const { repoId, actorId, action, page, comment } = payload;
      emit({ type: 'wiki.changed', repoId, actorId, action, page, comment });
      await run.checkpoint(tx, { ...payload, done: true });
    });
  });
}
