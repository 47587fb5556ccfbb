import type { Db, Models } from '../db/client.ts';
import { isDomainError } from '../errors.ts';
import type { AuthInfo } from './authInfo.ts';
import { accountBlock, authenticate } from './authenticate.ts';
import type { Credentials } from './credentials.ts';
import { LoginThrottledError, type LoginThrottle } from './loginThrottle.ts';
import type { OAuthKeys } from './oauthKeys.ts';
import type { PasswordHashParams } from './passwordHashSettings.ts';
import type { TokenCache } from './tokenCache.ts';

/** What resolving a viewer needs from the application. */
export interface ViewerDeps {
  db: Db;
  config: { rootUrl: string; passwordHash: PasswordHashParams };
  loginThrottle: LoginThrottle;
  /** Token → user cache (see TokenCache); without it every token is looked up. */
  tokenCache?: TokenCache | undefined;
  /** Verifies OAuth2 access tokens. */
  oauthKeys: OAuthKeys;
}

/** The request facts besides its credentials. */
export interface ViewerRequest {
  /** The client address (Fastify's `req.ip`, honouring TRUST_PROXY). */
  clientIp: string;
  /** The `Sudo` query parameter or header, when the transport supports it. */
  sudo?: string | undefined;
}

/** The viewer of a request, or why the request must be refused before routing. */
export type ViewerResolution =
  | { ok: true; user: Models.User | null; auth: AuthInfo }
  /**
   * `bare`: Gitea sends these bodies without the `url` field. `retryAfterSeconds` comes with 429
   * (failed sign-ins throttled); transports send it as `Retry-After`.
   */
  | { ok: false; status: number; message: string; bare: boolean; retryAfterSeconds?: number };

/**
 * Shared by every transport, in Gitea's order: throttled credentials (429), authenticate (bad credentials
 * → 401), account gates (inactive, prohibited, must change password → 403), then Sudo (site admins only →
 * 403; unknown user → 404).
 */
export async function resolveViewer(deps: ViewerDeps, creds: Credentials, request: ViewerRequest): Promise<ViewerResolution> {
  const { db } = deps;
  let outcome;
  try {
    outcome = await authenticate(db, creds, {
      clientIp: request.clientIp,
      throttle: deps.loginThrottle,
      tokenCache: deps.tokenCache,
      oauthKeys: deps.oauthKeys,
      passwordHash: deps.config.passwordHash,
    });
  } catch (err) {
    if (err instanceof LoginThrottledError) {
      return { ok: false, status: 429, message: err.message, bare: false, retryAfterSeconds: err.refusal.retryAfterSeconds };
    }
    if (isDomainError(err)) return { ok: false, status: 401, message: err.message, bare: false };
    throw err;
  }
  const auth = { ...outcome.auth };
  let user = outcome.user;
  if (user) {
    const blocked = accountBlock(user, deps.config.rootUrl);
    if (blocked) return { ok: false, status: 403, message: blocked, bare: true };
  }
  const { sudo } = request;
  if (sudo) {
    if (!user?.isAdmin) return { ok: false, status: 403, message: 'Only administrators allowed to sudo.', bare: true };
    const target = await db.user.findUnique({ where: { lowerName: sudo.toLowerCase() } });
    if (!target) return { ok: false, status: 404, message: 'not found', bare: false };
    auth.sudoerId = user.id;
    user = target;
  }
  return { ok: true, user, auth };
}
