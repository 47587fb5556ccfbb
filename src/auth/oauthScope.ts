import { formatScope, InvalidScopeError, parseScope } from './scope.ts';

/** OpenID Connect's scopes (Gitea's `scopes_supported`): they choose the claims of ID tokens, not API access. */
export const IDENTITY_SCOPES = ['openid', 'profile', 'email', 'groups'] as const;

/** The distinct names of a space-separated OAuth `scope` parameter, in order. */
export function splitScope(scope: string): string[] {
  return [...new Set(scope.split(/\s+/).filter(Boolean))];
}

/** True when every scope of `requested` is among `granted` (both space-separated). */
export function scopeWithin(requested: string, granted: string): boolean {
  const have = new Set(splitScope(granted));
  return splitScope(requested).every((s) => have.has(s));
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
