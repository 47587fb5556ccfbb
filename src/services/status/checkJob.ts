import { z } from 'zod';
import { jobKind } from '../../jobs/jobKind.ts';

/**
 * Something that decides whether scheduled auto-merges may happen changed: a commit status of `sha` in the
 * repository, or a review or push on pull request `pullId`. The handler (services/pull/autoMerge.ts)
 * re-checks the affected pull requests; written in the transaction of the change.
 */
export const PULL_CHECKS_CHANGED = jobKind(
  'pull.checksChanged',
  z.object({ repoId: z.number().int(), sha: z.string().optional(), pullId: z.number().int().optional() }),
  { maxAttempts: 5 },
);
