import { z } from 'zod';
import { Comment } from './comment.ts';
import { Repository } from './repo.ts';
import { User } from './user.ts';

/** Gitea `Activity` (modules/structs/activity.go): one feed row; `comment` is null and `comment_id` 0 when none. */
export const Activity = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  op_type: z.string(),
  act_user_id: z.number().int(),
  act_user: User,
  repo_id: z.number().int(),
  repo: Repository,
  comment_id: z.number().int(),
  comment: Comment.nullable(),
  ref_name: z.string(),
  is_private: z.boolean(),
  content: z.string(),
  created: z.string(),
});
/** A Gitea Activity as sent on the wire. */
export type Activity = z.infer<typeof Activity>;

/** Gitea `UserHeatmapData` (models/activities/user_heatmap.go): a 15-minute bucket start (Unix seconds) and its count. */
export const UserHeatmapData = z.object({
  timestamp: z.number().int(),
  contributions: z.number().int(),
});
