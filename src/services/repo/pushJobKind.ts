import { z } from 'zod';
import { jobKind } from '../../jobs/jobKind.ts';

const RefUpdateSchema = z.object({ ref: z.string(), oldSha: z.string(), newSha: z.string() });
const PushPayload = z.object({
  repoId: z.number().int(),
  pusherId: z.number().int().nullable(),
  /** What the push asked for (pre-receive). */
  updates: z.array(RefUpdateSchema),
  /** What git applied (read from the refs once receive-pack exited, or post-receive's report); absent after a crash, then read back from git. */
  applied: z.array(RefUpdateSchema).optional(),
  /** Checkpoint: the rows (Branch, repository, feed) are committed. */
  recorded: z.boolean().optional(),
  /** A pull mirror's sync: feed rows are mirror_sync_push/create/delete (Gitea's SyncPushCommits, SyncCreateRef, SyncDeleteRef). */
  mirror: z.boolean().optional(),
});
/** The push job's payload. */
export type PushPayload = z.infer<typeof PushPayload>;

/**
 * The bookkeeping that follows a ref update (a push over smart HTTP, or the API moving a branch): written
 * before the push is acknowledged, replayed after a crash. Many attempts: a push must not lose its rows.
 */
export const PUSH_JOB = jobKind('repo.push', PushPayload, { maxAttempts: 12 });
