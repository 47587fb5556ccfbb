import { z } from 'zod';

/** Gitea `WatchInfo` (modules/structs/repo_watch.go), fields in Gitea's order; `reason` is always null. */
export const WatchInfo = z.object({
  subscribed: z.boolean(),
  ignored: z.boolean(),
  reason: z.null(),
  created_at: z.string(),
  url: z.string(),
  repository_url: z.string(),
});
export type WatchInfo = z.infer<typeof WatchInfo>;
