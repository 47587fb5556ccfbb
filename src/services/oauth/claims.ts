// What OAuth2 clients learn about the user (Gitea services/oauth2_provider, InfoOAuth): ID token claims by
// OpenID Connect scope, the userinfo answer, and the `groups` claim (organizations and "org:team").
import { parseScope } from '../../auth/scope.ts';
import { splitScope, tokenScopeOf } from '../../auth/oauthScope.ts';
import type { Models } from '../../db/client.ts';
import { UnauthenticatedError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { createServiceContext, type ServiceContext } from '../context.ts';
import { orgReadWhere, teamReadWhere } from '../org/visibility.ts';
import { avatarUrl } from '../user/avatar.ts';

type User = Models.User;

/**
 * Gitea's getOAuthGroupsForUser: the organizations the user belongs to, each followed by "org:team" for the user's
 * teams in it, as the user reads them with the token's scope (a public-only token: public organizations only).
 */
async function groupsOf(cx: ServiceContext, user: User): Promise<string[]> {
  const orgs = await cx.db.user.findMany({
    where: { AND: [orgReadWhere(cx), { orgMembers: { some: { userId: user.id } } }] },
    select: { id: true, name: true },
    orderBy: { lowerName: 'asc' },
  });
  const teams = await cx.db.team.findMany({
    where: { AND: [teamReadWhere(cx), { orgId: { in: orgs.map((o) => o.id) }, members: { some: { userId: user.id } } }] },
    select: { orgId: true, lowerName: true },
    orderBy: { lowerName: 'asc' },
  });
  return orgs.flatMap((org) => [org.name, ...teams.filter((t) => t.orgId === org.id).map((t) => `${org.name}:${t.lowerName}`)]);
}

/** The user acting through a token of `oauthScope`: whose organizations `groups` may name. */
function subjectContext(cx: ServiceContext, user: User, oauthScope: string): ServiceContext {
  return createServiceContext(cx, user, { method: 'token', scope: parseScope(tokenScopeOf(oauthScope)), tokenId: null, sudoerId: null });
}

/** Gitea's display name: the full name when set, else the login. */
const displayName = (user: User): string => user.fullName || user.name;

/**
 * The user's claims in an ID token, as Gitea's OIDCToken has them: `profile` adds name, preferred_username,
 * profile, picture, website, locale and updated_at; `email` adds email and email_verified (Gitea: the account is
 * active); `groups` adds the groups.
 */
export async function identityClaims(cx: ServiceContext, user: User, oauthScope: string): Promise<Record<string, unknown>> {
  const scopes = new Set(splitScope(oauthScope));
  const rootUrl = cx.config.rootUrl;
  const claims: Record<string, unknown> = {};
  if (scopes.has('profile')) {
    Object.assign(claims, {
      name: displayName(user),
      preferred_username: user.name,
      profile: `${rootUrl}${encodeURIComponent(user.name)}`,
      picture: avatarUrl(user, rootUrl),
      website: user.website || undefined,
      locale: user.language || undefined,
      updated_at: Math.floor(user.updatedAt.getTime() / 1000),
    });
  }
  if (scopes.has('email')) Object.assign(claims, { email: user.email, email_verified: user.isActive });
  if (scopes.has('groups')) claims.groups = await groupsOf(subjectContext(cx, user, oauthScope), user);
  return claims;
}

/** Gitea's userInfoResponse. */
export interface UserInfo {
  sub: string;
  name: string;
  preferred_username: string;
  email: string;
  picture: string;
  groups: string[];
}

/**
 * The userinfo endpoint's answer for the token's user (Gitea InfoOAuth); `groups` as the token reads them.
 * @throws UnauthenticatedError when the request is not signed in by a token
 */
export async function userInfo(cx: ServiceContext): Promise<UserInfo> {
  const user = requireViewer(cx);
  // Gitea answers only requests its OAuth2 method signed in: a bearer token, not a password.
  if (cx.auth.method !== 'token') throw new UnauthenticatedError('no valid authorization');
  return {
    sub: String(user.id),
    name: displayName(user),
    preferred_username: user.name,
    email: user.email,
    picture: avatarUrl(user, cx.config.rootUrl),
    groups: await groupsOf(cx, user),
  };
}
