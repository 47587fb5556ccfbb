import { z } from 'zod';
import { qOneOf, qString } from '../params.ts';
import { Repository } from './repo.ts';
import { User } from './user.ts';

/** Gitea `CommitStatus` (modules/structs/status.go): `id` is the status's index among the commit's statuses. */
export const CommitStatus = z.object({
  id: z.number().int(),
  status: z.string(),
  target_url: z.string(),
  description: z.string(),
  url: z.string(),
  context: z.string(),
  creator: User.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CommitStatus = z.infer<typeof CommitStatus>;

/** Gitea `CombinedStatus`: the latest status of each context and their worst state. */
export const CombinedStatus = z.object({
  state: z.string(),
  sha: z.string(),
  total_count: z.number().int(),
  statuses: z.array(CommitStatus),
  repository: Repository,
  commit_url: z.string(),
  url: z.string(),
});
export type CombinedStatus = z.infer<typeof CombinedStatus>;

/** Gitea `CreateStatusOption`. */
export const CreateStatusOption = z.object({
  state: z.string().nullable().optional(),
  target_url: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  context: z.string().nullable().optional(),
});

/** Query of the status lists (page/limit are added by the list route). */
export const ListStatusesQuery = z.object({
  sort: qOneOf(['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex'], 'type of sort'),
  state: qString('type of state'),
});
