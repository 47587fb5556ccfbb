import type { Db } from '../db/client.ts';
import { verifyAccessToken } from './oauthJwt.ts';
import type { OAuthKeys } from './oauthKeys.ts';
import { tokenScopeOf } from './oauthScope.ts';
import type { CachedToken } from './tokenCache.ts';

/**
 * An OAuth2 access token as a token lookup (Gitea oauth2.go CheckOAuthAccessToken): a JWT this installation signed,
 * of the access type, unexpired, whose grant still exists. It acts as its grant's user with the Gitea token scope
 * its OAuth scopes map to (tokenScopeOf). Null when any of that fails.
 */
export async function loadOAuthAccessToken(db: Db, keys: OAuthKeys, token: string): Promise<CachedToken | null> {
  const claims = await verifyAccessToken(keys, token);
  if (!claims) return null;
  const grant = await db.oAuth2Grant.findUnique({ where: { id: claims.grantId }, include: { user: true } });
  if (!grant) return null;
  return { tokenId: null, scope: tokenScopeOf(claims.scope), user: grant.user, lastUsedAt: 0, expiresAt: claims.expiresAt };
}
