import type { Models } from '../../db/client.ts';
import type { ReactionWithUser } from '../../services/issue/reaction.ts';
import type { Reaction } from '../structs/reaction.ts';
import { apiTime } from './time.ts';
import { toApiPlaceholderUser, toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea's reaction JSON: `{user, content, created_at}`. */
export function toApiReaction(r: ReactionWithUser, viewer: Viewer, opts: ConvertOptions): Reaction {
  const user = r.originalAuthor
    ? toApiPlaceholderUser(0, r.originalAuthor, opts)
    : r.user
      ? toApiUser(r.user, viewer, opts)
      : toApiPlaceholderUser(-1, 'Ghost', opts);
  return { user, content: r.type, created_at: apiTime(r.createdAt) };
}

/** A list of reactions; Gitea answers `null` for none (a nil slice). */
export function toApiReactionList(rows: readonly ReactionWithUser[], viewer: Viewer, opts: ConvertOptions): Reaction[] | null {
  return rows.length ? rows.map((r) => toApiReaction(r, viewer, opts)) : null;
}
