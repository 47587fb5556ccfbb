import { z } from 'zod';
import { zBool } from '../validation.ts';

/** Gitea `CreateForkOption` (no binding rules: the service validates the name). */
export const CreateForkOption = z.object({
  organization: z.string().nullish(),
  name: z.string().nullish(),
});
export type CreateForkOption = z.infer<typeof CreateForkOption>;

/** Gitea `MergeUpstreamRequest`: the fork's branch to sync (the default branch when empty); `ff_only` refuses a merge commit. */
export const MergeUpstreamRequest = z.object({ branch: z.string().nullish(), ff_only: zBool.nullish() });

/** Gitea `MergeUpstreamResponse`: `merge_type` is `fast-forward` or `merge`. */
export const MergeUpstreamResponse = z.object({ merge_type: z.string() });
