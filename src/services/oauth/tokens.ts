// The token endpoint (Gitea AccessTokenOAuth, POST /login/oauth/access_token): authorization codes and refresh
// tokens exchanged for access, refresh and ID tokens; and token introspection (RFC 7662, Gitea IntrospectOAuth).
import { createHash } from 'node:crypto';
import { signAccessToken, signJwt, signRefreshToken, verifyAccessToken, verifyRefreshToken } from '../../auth/oauthJwt.ts';
import { oauthScopeWithin, splitScope } from '../../auth/oauthScope.ts';
import { hashToken } from '../../auth/token.ts';
import type { Models } from '../../db/client.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { clientSecretMatches, findClient, type Application } from './application.ts';
import { identityClaims } from './claims.ts';
import { dropGrant } from './grant.ts';
import { oauthError } from './oauthError.ts';

/** A token request's parameters; the client's credentials from the body or HTTP Basic (absent ones empty). */
export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  refreshToken: string;
  scope: string;
}

/** Gitea's AccessTokenResponse (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  id_token?: string;
}

type GrantWithUser = Models.OAuth2Grant & { user: Models.User };

/**
 * The client a token request is made for; confidential clients must prove it with their secret.
 * @throws DomainError carrying invalid_client
 */
async function authenticateClient(cx: ServiceContext, clientId: string, clientSecret: string): Promise<Application> {
  const app = await findClient(cx, clientId);
  if (!app) throw oauthError('invalid_client', `cannot load client with client_id: '${clientId}'`);
  if (app.confidentialClient && !clientSecretMatches(app, clientSecret)) throw oauthError('invalid_client', 'invalid client secret');
  return app;
}

/** RFC 7636 §4.6: the verifier against the challenge the code was issued with (no challenge: nothing to check). */
function pkceMatches(code: Models.OAuth2AuthorizationCode, verifier: string): boolean {
  if (!code.codeChallenge) return true;
  if (!verifier) return false;
  if (code.codeChallengeMethod === 'plain') return verifier === code.codeChallenge;
  return createHash('sha256').update(verifier).digest('base64url') === code.codeChallenge;
}

/**
 * Issues tokens under `grant` for `scope`: an access token, a refresh token of session `session` at `counter`, and an
 * ID token when `openid` is among the scopes (with the authorization's `nonce`, which refreshes do not repeat).
 */
async function tokensFor(
  cx: ServiceContext,
  app: Application,
  grant: GrantWithUser,
  scope: string,
  refresh: { sessionId: number; counter: number },
  nonce: string,
): Promise<TokenResponse> {
  const { accessTokenSeconds, refreshTokenSeconds } = cx.config.oauth2;
  const response: TokenResponse = {
    access_token: await signAccessToken(cx.oauthKeys, grant.id, scope, accessTokenSeconds),
    token_type: 'bearer',
    expires_in: accessTokenSeconds,
    refresh_token: await signRefreshToken(cx.oauthKeys, { grantId: grant.id, ...refresh }, refreshTokenSeconds),
  };
  if (splitScope(scope).includes('openid')) {
    const claims = {
      iss: cx.config.rootUrl,
      sub: String(grant.userId),
      aud: app.clientId,
      ...(nonce ? { nonce } : {}),
      ...(await identityClaims(cx, grant.user, scope)),
    };
    response.id_token = await signJwt(cx.oauthKeys, claims, accessTokenSeconds);
  }
  return response;
}

/** A new refresh session (token family) for a code's exchange; expired sessions anywhere are deleted on the way. */
async function startSession(cx: ServiceContext, grantId: number, scope: string): Promise<number> {
  const now = Date.now();
  return withTx(cx, async (tx) => {
    await tx.oAuth2RefreshSession.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
    const session = await tx.oAuth2RefreshSession.create({
      data: { grantId, scope, expiresAt: new Date(now + cx.config.oauth2.refreshTokenSeconds * 1000) },
    });
    return session.id;
  });
}

/**
 * grant_type=authorization_code: the code must be this client's, unexpired, unused, sent back with the same
 * redirect URI and, when it was issued with a PKCE challenge, the matching verifier. A second use of a code
 * revokes its grant (RFC 6749 §4.1.2: tokens issued from it must not outlive the replay).
 */
async function exchangeCode(cx: ServiceContext, app: Application, req: TokenRequest): Promise<TokenResponse> {
  const code = req.code
    ? await cx.db.oAuth2AuthorizationCode.findUnique({
        where: { codeHash: hashToken(req.code) },
        include: { grant: { include: { user: true } } },
      })
    : null;
  if (!code || code.grant.applicationId !== app.id) throw oauthError('invalid_grant', 'client is not authorized');
  if (code.usedAt) {
    await dropGrant(cx.db, code.grantId);
    throw oauthError('invalid_grant', 'the authorization code was already used: the grant is revoked');
  }
  if (code.validUntil.getTime() <= Date.now()) throw oauthError('invalid_grant', 'the authorization code has expired');
  if (req.redirectUri !== code.redirectUri) throw oauthError('invalid_grant', 'unexpected redirect URI');
  if (!pkceMatches(code, req.codeVerifier)) throw oauthError('invalid_grant', 'failed PKCE code challenge');
  const { count } = await cx.db.oAuth2AuthorizationCode.updateMany({ where: { id: code.id, usedAt: null }, data: { usedAt: new Date() } });
  if (count !== 1) {
    await dropGrant(cx.db, code.grantId);
    throw oauthError('invalid_grant', 'the authorization code was already used: the grant is revoked');
  }
  const sessionId = await startSession(cx, code.grantId, code.scope);
  return tokensFor(cx, app, code.grant, code.scope, { sessionId, counter: 1 }, code.nonce);
}

/**
 * grant_type=refresh_token, rotating (Gitea's INVALIDATE_REFRESH_TOKENS): each refresh token works once; the one
 * it returns replaces it. Presenting a replaced one again is taken as theft and revokes the grant. A `scope` may
 * narrow the new access token, never widen it (RFC 6749 §6).
 */
async function refresh(cx: ServiceContext, app: Application, req: TokenRequest): Promise<TokenResponse> {
  const claims = await verifyRefreshToken(cx.oauthKeys, req.refreshToken);
  if (!claims) throw oauthError('invalid_grant', 'unable to parse refresh token');
  const session = await cx.db.oAuth2RefreshSession.findUnique({
    where: { id: claims.sessionId },
    include: { grant: { include: { user: true } } },
  });
  if (!session || session.grantId !== claims.grantId || session.grant.applicationId !== app.id) {
    throw oauthError('invalid_grant', 'grant does not exist');
  }
  if (session.expiresAt.getTime() <= Date.now()) throw oauthError('invalid_grant', 'the refresh token has expired');
  // Before the rotation: a refused request leaves the refresh token usable.
  if (req.scope && !oauthScopeWithin(req.scope, session.scope)) {
    throw oauthError('invalid_scope', 'the requested scope exceeds the scope originally granted');
  }
  const rotated =
    claims.counter === session.counter &&
    (
      await cx.db.oAuth2RefreshSession.updateMany({
        where: { id: session.id, counter: claims.counter },
        data: { counter: claims.counter + 1, expiresAt: new Date(Date.now() + cx.config.oauth2.refreshTokenSeconds * 1000) },
      })
    ).count === 1;
  if (!rotated) {
    await dropGrant(cx.db, session.grantId);
    throw oauthError('invalid_grant', 'token was already used: the grant is revoked');
  }
  const scope = req.scope ? splitScope(req.scope).join(' ') : session.scope;
  return tokensFor(cx, app, session.grant, scope, { sessionId: session.id, counter: claims.counter + 1 }, '');
}

/**
 * The token endpoint: authenticates the client, then exchanges a code or a refresh token.
 * @throws DomainError carrying an OAuthFailure (invalid_client, invalid_grant, invalid_scope, unsupported_grant_type)
 */
export async function exchangeToken(cx: ServiceContext, req: TokenRequest): Promise<TokenResponse> {
  if (req.grantType !== 'authorization_code' && req.grantType !== 'refresh_token') {
    throw oauthError('unsupported_grant_type', 'Only refresh_token or authorization_code grant type is supported');
  }
  const app = await authenticateClient(cx, req.clientId, req.clientSecret);
  return req.grantType === 'authorization_code' ? exchangeCode(cx, app, req) : refresh(cx, app, req);
}

/** RFC 7662's answer; only `active` when the token is not (or not this client's). */
export interface Introspection {
  active: boolean;
  scope?: string;
  client_id?: string;
  username?: string;
  token_type?: string;
  exp?: number;
  iss?: string;
  sub?: string;
  aud?: string[];
}

/**
 * Token introspection for a client authenticated with its secret (every client has one): whether an access or
 * refresh token is live, and for whom. Tokens of other clients are reported inactive (Gitea reports any client's).
 * @throws DomainError carrying invalid_client
 */
export async function introspectToken(
  cx: ServiceContext,
  input: { clientId: string; clientSecret: string; token: string },
): Promise<Introspection> {
  const app = await findClient(cx, input.clientId);
  if (!app || !clientSecretMatches(app, input.clientSecret)) throw oauthError('invalid_client', 'no valid authorization');
  const access = await verifyAccessToken(cx.oauthKeys, input.token);
  const refreshClaims = access ? null : await verifyRefreshToken(cx.oauthKeys, input.token);
  const grantId = access?.grantId ?? refreshClaims?.grantId;
  const grant = grantId ? await cx.db.oAuth2Grant.findUnique({ where: { id: grantId }, include: { user: true } }) : null;
  if (!grant || grant.applicationId !== app.id) return { active: false };
  let scope = access?.scope;
  let exp = access ? Math.floor(access.expiresAt / 1000) : undefined;
  if (refreshClaims) {
    const session = await cx.db.oAuth2RefreshSession.findUnique({ where: { id: refreshClaims.sessionId } });
    if (!session || session.grantId !== grant.id || session.counter !== refreshClaims.counter) return { active: false };
    scope = session.scope;
    exp = Math.floor(session.expiresAt.getTime() / 1000);
  }
  return {
    active: true,
    scope,
    client_id: app.clientId,
    username: grant.user.name,
    token_type: access ? 'access_token' : 'refresh_token',
    exp,
    iss: cx.config.rootUrl,
    sub: String(grant.userId),
    aud: [app.clientId],
  };
}
