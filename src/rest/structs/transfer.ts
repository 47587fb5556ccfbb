// Gitea TransferRepoOption (modules/structs/repo.go).
import { z } from 'zod';

/** Gitea `TransferRepoOption`: `new_owner` required; `team_ids` only for an organization. */
export const TransferRepoOption = z.object({
  new_owner: z.string().min(1),
  team_ids: z.array(z.number().int()).nullish(),
});
