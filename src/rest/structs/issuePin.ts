// Request and response shapes of issue locks and pins (Gitea modules/structs/issue.go, repo.go).
import { z } from 'zod';

/** Gitea `LockIssueOption`: the reason shown in the LOCK timeline comment (any text, may be empty). */
export const LockIssueOption = z.object({
  lock_reason: z.string().nullish(),
});

/** Gitea `NewIssuePinsAllowed`: whether another issue and another pull request may be pinned. */
export const NewIssuePinsAllowed = z.object({
  issues: z.boolean(),
  pull_requests: z.boolean(),
});
