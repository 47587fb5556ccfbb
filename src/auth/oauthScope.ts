import { formatScope, InvalidScopeError, parseScope, scopeAllows, type ScopeCategory, type TokenScope } from './scope.ts';

/** OpenID Connect's scopes (Gitea's `scopes_supported`): they choose the claims of ID tokens, not API access. */
export const IDENTITY_SCOPES = ['openid', 'profile', 'email', 'groups'] as const;

/** The distinct names of a space-separated OAuth `scope` parameter, in order. */
export function splitScope(scope: string): string[] {
  return [...new Set(scope.split(/\s+/).filter(Boolean))];
}

/**
 * The Gitea access-token scope an OAuth2 access token acts with (Gitea's GrantAdditionalScopes): the Gitea token
 * scopes named among the OAuth scopes (`read:repository`, `write:issue`, `public-only`, `all`…), or `all` when none
 * is named (Gitea ≥ 1.22: OAuth2 tokens have full access unless the client asks for less). Unlike Gitea, which falls
 * back to `all` when any name is unknown, unknown names are ignored, so asking for more names can never widen it.
 */
export function tokenScopeOf(oauthScope: string): string {
  const named = splitScope(oauthScope).filter((s) => {
    if ((IDENTITY_SCOPES as readonly string[]).includes(s)) return false;
    try {
      parseScope(s);
      return true;
    } catch (err) {
      if (err instanceof InvalidScopeError) return false;
      throw err;
    }
  });
  return named.length ? formatScope(parseScope(named.join(','))) : 'all';
}

/** Whether a token of `inner` may do nothing a token of `outer` may not. */
function tokenScopeWithin(inner: TokenScope, outer: TokenScope): boolean {
  if (outer.publicOnly && !inner.publicOnly) return false;
  if (outer.all) return true;
  if (inner.all) return false;
  return Object.entries(inner.levels).every(([category, level]) => scopeAllows(outer, [category as ScopeCategory], level));
}

/**
 * Whether OAuth scope `requested` asks for nothing beyond `granted` (both space-separated): its OpenID scopes are
 * among granted's, and the API access it maps to is within granted's. Compared by effect, not by name: `openid`
 * alone maps to `all`, so it is not within `openid read:repository`.
 */
export function oauthScopeWithin(requested: string, granted: string): boolean {
  const have = new Set(splitScope(granted));
  const identity = splitScope(requested).filter((s) => (IDENTITY_SCOPES as readonly string[]).includes(s));
  return identity.every((s) => have.has(s)) && tokenScopeWithin(parseScope(tokenScopeOf(requested)), parseScope(tokenScopeOf(granted)));
}
