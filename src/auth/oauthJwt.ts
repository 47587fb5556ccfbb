import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { SIGNING_ALGORITHM, type OAuthKeys } from './oauthKeys.ts';

/** Gitea's token types (oauth2_provider.TokenType, the `tt` claim). */
const ACCESS = 0;
const REFRESH = 1;

/** What an OAuth2 access token says: the grant it was issued under, its OAuth scopes, when it expires (ms). */
export interface AccessTokenClaims {
  grantId: number;
  scope: string;
  expiresAt: number;
}

/** What a refresh token says: its grant, its session (token family) and the session counter it was issued at. */
export interface RefreshTokenClaims {
  grantId: number;
  sessionId: number;
  counter: number;
}

/** Signs `claims` with the installation's key, valid `lifetimeSeconds` from now. */
export async function signJwt(keys: OAuthKeys, claims: JWTPayload, lifetimeSeconds: number): Promise<string> {
  const key = await keys.signingKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(key.privateKey);
}

/** Gitea's access token JWT: `{gnt, tt: 0}` plus the token's OAuth scopes. */
export function signAccessToken(keys: OAuthKeys, grantId: number, scope: string, lifetimeSeconds: number): Promise<string> {
  return signJwt(keys, { gnt: grantId, tt: ACCESS, scope }, lifetimeSeconds);
}

/** Gitea's refresh token JWT: `{gnt, tt: 1, cnt}`, plus the session it belongs to. */
export function signRefreshToken(keys: OAuthKeys, claims: RefreshTokenClaims, lifetimeSeconds: number): Promise<string> {
  return signJwt(keys, { gnt: claims.grantId, tt: REFRESH, sid: claims.sessionId, cnt: claims.counter }, lifetimeSeconds);
}

/** The payload of a JWT this installation signed and that has not expired; null otherwise. */
async function verified(keys: OAuthKeys, token: string): Promise<JWTPayload | null> {
  // A key that cannot be opened (SECRET_KEY changed) verifies nothing; signing reports it.
  const key = await keys.verificationKey().catch(() => null);
  if (!key) return null;
  try {
    return (await jwtVerify(token, key.publicKey, { algorithms: [SIGNING_ALGORITHM] })).payload;
  } catch {
    return null;
  }
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** The claims of a valid access token; null for anything else (an ID or refresh token included). */
export async function verifyAccessToken(keys: OAuthKeys, token: string): Promise<AccessTokenClaims | null> {
  const p = await verified(keys, token);
  if (!p || p.tt !== ACCESS || !isId(p.gnt) || typeof p.scope !== 'string' || typeof p.exp !== 'number') return null;
  return { grantId: p.gnt, scope: p.scope, expiresAt: p.exp * 1000 };
}

/** The claims of a valid refresh token; null for anything else. */
export async function verifyRefreshToken(keys: OAuthKeys, token: string): Promise<RefreshTokenClaims | null> {
  const p = await verified(keys, token);
  if (!p || p.tt !== REFRESH || !isId(p.gnt) || !isId(p.sid) || !isId(p.cnt)) return null;
  return { grantId: p.gnt, sessionId: p.sid, counter: p.cnt };
}
