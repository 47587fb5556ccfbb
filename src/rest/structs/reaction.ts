import { z } from 'zod';
import { User } from './user.ts';

/** Gitea `Reaction` (modules/structs/issue_reaction.go), fields in Gitea's order. */
export const Reaction = z.object({
  user: User,
  content: z.string(),
  created_at: z.string(),
});
/** A Gitea Reaction as sent on the wire. */
export type Reaction = z.infer<typeof Reaction>;

/** Gitea `EditReactionOption`: `content` is the reaction (an absent one is `""`, refused as not allowed). */
export const EditReactionOption = z.object({
  content: z.string().nullish(),
});
