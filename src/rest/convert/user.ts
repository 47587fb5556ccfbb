import type { Models } from '../../db/client.ts';
import type { SshSettings } from '../../ssh/settings.ts';
import { canSeePrivateUserFields, visibleEmail } from '../../permissions/userVisibility.ts';
import { avatarUrl } from '../../services/user/avatar.ts';
import { scopeList } from '../../services/user/token.ts';
import type { UserView } from '../../services/user/viewColumns.ts';
import type { EmailWithUser } from '../../services/user/email.ts';
import type { AccessToken, CurrentAccessToken, Email, User, UserSettings } from '../structs/user.ts';
import { apiTime, GO_ZERO, UNIX_ZERO } from './time.ts';

/** What converters need to know about the server. */
export interface ConvertOptions {
  rootUrl: string;
  noReplyAddress: string;
  /** What SSH clone URLs are made of (SSH_USER, SSH_DOMAIN, SSH_PORT). */
  ssh: Pick<SshSettings, 'user' | 'domain' | 'port'>;
}

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/**
 * Gitea's convert.ToUser: private fields (is_admin, login_name, source_id, last_login, language, active,
 * prohibit_login) only for the user itself and site admins; the e-mail hidden behind a placeholder for
 * anonymous viewers and for users who keep it private.
 */
export function toApiUser(user: UserView, viewer: Viewer, opts: ConvertOptions): User {
  const authed = canSeePrivateUserFields(viewer, user);
  const email = visibleEmail(viewer, user) ?? `${user.id}+${user.lowerName}@${opts.noReplyAddress}`;
  return {
    id: user.id,
    login: user.name,
    login_name: authed ? user.loginName : '',
    source_id: authed ? user.loginSource : 0,
    full_name: user.fullName,
    email,
    avatar_url: avatarUrl(user, opts.rootUrl),
    html_url: `${opts.rootUrl}${encodeURIComponent(user.name)}`,
    language: authed ? user.language : '',
    is_admin: authed ? user.isAdmin : false,
    last_login: authed ? (user.lastLoginAt ? apiTime(user.lastLoginAt) : UNIX_ZERO) : GO_ZERO,
    created: apiTime(user.createdAt),
    restricted: user.isRestricted,
    active: authed ? user.isActive : false,
    prohibit_login: authed ? user.prohibitLogin : false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: user.visibility.toLowerCase() as User['visibility'],
    followers_count: user.numFollowers,
    following_count: user.numFollowing,
    starred_repos_count: user.numStars,
    username: user.name,
  };
}

/**
 * A user that has no account row: Gitea's Ghost (user.NewGhostUser, id -1) for a deleted account, or the
 * stand-in of migrated content (`name(service)`, id 0). Only id and name are set, as Gitea's ToUser renders them.
 */
export function toApiPlaceholderUser(id: number, name: string, opts: ConvertOptions): User {
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

/** Gitea's Ghost user, shown in place of a deleted poster, commenter or reviewer. */
export function toApiGhostUser(opts: ConvertOptions): User {
  return toApiPlaceholderUser(-1, 'Ghost', opts);
}

/** A list of users, converted for one viewer. */
export function toApiUserList(users: readonly Models.User[], viewer: Viewer, opts: ConvertOptions): User[] {
  return users.map((u) => toApiUser(u, viewer, opts));
}

/** Gitea convert.ToEmail (the viewer's own list: no user id or name). */
export function toApiEmail(email: Models.EmailAddress): Email {
  return { email: email.email, verified: email.isActivated, primary: email.isPrimary, user_id: 0, username: '' };
}

/** Gitea convert.ToEmailSearch (the admin list). */
export function toApiEmailSearch(email: EmailWithUser): Email {
  return { email: email.email, verified: email.isActivated, primary: email.isPrimary, user_id: email.user.id, username: email.user.name };
}

/** An access token; `sha1` carries the secret only in the creation response. */
export function toApiAccessToken(token: Models.AccessToken, secret = ''): AccessToken {
  return {
    id: token.id,
    name: token.name,
    sha1: secret,
    token_last_eight: token.tokenLastEight,
    scopes: scopeList(token),
    created_at: apiTime(token.createdAt),
    last_used_at: apiTime(token.lastUsedAt ?? token.updatedAt),
  };
}

/** Gitea convert.User2UserSettings: the user's own settings. */
export function toApiUserSettings(user: Models.User): UserSettings {
  return {
    full_name: user.fullName,
    website: user.website,
    description: user.description,
    location: user.location,
    language: user.language,
    theme: user.theme,
    diff_view_style: user.diffViewStyle,
    hide_email: user.keepEmailPrivate,
    hide_activity: user.keepActivityPrivate,
  };
}

/** Gitea's CurrentAccessToken for GET /token: the token's metadata and its owner. */
export function toApiCurrentAccessToken(token: Models.AccessToken, owner: Pick<Models.User, 'id' | 'name'>): CurrentAccessToken {
  return {
    id: token.id,
    name: token.name,
    scopes: scopeList(token),
    created_at: apiTime(token.createdAt),
    last_used_at: apiTime(token.lastUsedAt ?? token.updatedAt),
    user: { id: owner.id, login: owner.name },
  };
}
