import { z } from 'zod';
import { jobKind } from '../../jobs/jobKind.ts';

const RefreshBasePayload = z.object({
  repoId: z.number().int(),
  branch: z.string(),
  oldSha: z.string(),
  newSha: z.string(),
  pusherId: z.number().int(),
});
/** The base-refresh job's payload: the branch that moved, as the push recorded it. */
export type RefreshBasePayload = z.infer<typeof RefreshBasePayload>;

/**
 * The base branch of open pull requests moved (Gitea's AddTestPullRequestTask, base side, which Gitea queues too):
 * their divergence, stats and mergeability are recomputed in the background, one job per moved branch, so a push
 * or a merge costs the same whatever the number of open pull requests into the branch, and holds no repository
 * lock while they are tested.
 */
export const REFRESH_BASE_JOB = jobKind('pull.refreshBase', RefreshBasePayload, { maxAttempts: 5 });
