import type { Models } from '../../db/client.ts';
import type { ReactionWithUser } from '../../services/issue/reaction.ts';
import type { Reaction } from '../structs/reaction.ts';
import type { User } from '../structs/user.ts';
import { apiTime, GO_ZERO } from './time.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea's stand-in user of a migrated reaction (`name(service)`, id 0) or of a deleted account (Ghost, id -1). */
function placeholderUser(id: number, name: string, opts: ConvertOptions): User {
  return {
    id,
    login: name,
    login_name: '',
    source_id: 0,
    full_name: '',
    email: '',
    avatar_url: `${opts.rootUrl}assets/img/avatar_default.png`,
    html_url: `${opts.rootUrl}${encodeURIComponent(name)}`,
    language: '',
    is_admin: false,
    last_login: GO_ZERO,
    created: GO_ZERO,
    restricted: false,
    active: false,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: name,
  };
}

/** Gitea's reaction JSON: `{user, content, created_at}`. */
export function toApiReaction(r: ReactionWithUser, viewer: Viewer, opts: ConvertOptions): Reaction {
  const user = r.originalAuthor ? placeholderUser(0, r.originalAuthor, opts) : r.user ? toApiUser(r.user, viewer, opts) : placeholderUser(-1, 'Ghost', opts);
  return { user, content: r.type, created_at: apiTime(r.createdAt) };
}

/** A list of reactions; Gitea answers `null` for none (a nil slice). */
export function toApiReactionList(rows: readonly ReactionWithUser[], viewer: Viewer, opts: ConvertOptions): Reaction[] | null {
  return rows.length ? rows.map((r) => toApiReaction(r, viewer, opts)) : null;
}
