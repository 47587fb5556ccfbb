import type { Db, Models } from '../db/client.ts';
import { UnauthenticatedError } from '../errors.ts';
import { actionsUserRow, findRunningTask } from './actionsUser.ts';
import type { AuthInfo } from './authInfo.ts';
import type { Credentials } from './credentials.ts';
import type { LoginThrottle } from './loginThrottle.ts';
import { loadOAuthAccessToken } from './oauthAccess.ts';
import type { OAuthKeys } from './oauthKeys.ts';
import { verifySignInPassword } from './password.ts';
import type { PasswordHashParams } from './passwordHashSettings.ts';
import { parseScope } from './scope.ts';
import { hashToken } from './token.ts';
import type { CachedToken, TokenCache } from './tokenCache.ts';

type User = Models.User;

/** Who the credentials identify, and how. `user` is null for anonymous requests. */
export interface AuthOutcome {
  user: User | null;
  auth: AuthInfo;
}

/** Where a credential comes from: the client address and the throttle that counts its failures. */
export interface SignInAttempt {
  clientIp: string;
  throttle: LoginThrottle;
  /** Successful token lookups, invalidated across instances (absent: every lookup reads the database). */
  tokenCache?: TokenCache | undefined;
  /** The key OAuth2 access tokens (JWTs) are verified with. */
  oauthKeys: OAuthKeys;
  /** PASSWORD_HASH_ALGO: an unknown account's attempt costs one verification of a hash of these parameters. */
  passwordHash: PasswordHashParams;
}

const INVALID = 'invalid username, password or token';
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Resolves credentials to a user as Gitea does: a token containing `.` is an OAuth2 access token (a JWT), others
 * are looked up by hash (an access token, else a running task's token,
 * which signs in the `gitea-actions` user); Basic with an empty or
 * `x-oauth-basic` password treats the username as a token; otherwise the password is tried as a
 * token first, then as the password of the user named by login or e-mail.
 * Failed credentials are throttled through `attempt.throttle` (see LoginThrottle); unknown users cost one
 * argon2 verification like wrong passwords.
 * @throws UnauthenticatedError for any credential that does not resolve (even on public routes).
 * @throws LoginThrottledError when the account or address has failed too often.
 */
export async function authenticate(db: Db, creds: Credentials, attempt: SignInAttempt): Promise<AuthOutcome> {
  switch (creds.kind) {
    case 'none':
    case 'malformed':
      return { user: null, auth: { method: 'anonymous', scope: null, tokenId: null, sudoerId: null } };
    case 'token':
      return requireToken(db, creds.token, attempt);
    case 'basic': {
      if (creds.password === '' || creds.password === 'x-oauth-basic') return requireToken(db, creds.username, attempt);
      const asToken = await findByToken(db, creds.password, attempt);
      if (asToken) return asToken;
      const user = await signInWithPassword(db, creds.username, creds.password, attempt);
      return { user, auth: { method: 'password', scope: null, tokenId: null, sudoerId: null } };
    }
  }
}

/**
 * A password sign-in by login name or e-mail address (Gitea UserSignIn), for Basic credentials and the OAuth2
 * sign-in page alike: throttled per account and address (see LoginThrottle).
 * @throws UnauthenticatedError for a wrong password, an unknown account or a prohibited user
 * @throws LoginThrottledError when the account or address has failed too often
 */
export async function signInWithPassword(db: Db, login: string, password: string, attempt: SignInAttempt): Promise<User> {
  const user = await findByLoginOrEmail(db, login);
  const usable = user && user.type === 'INDIVIDUAL' && user.passwordHash ? user : null;
  // Keyed by account when it exists, so a name and its e-mail addresses share one counter.
  const account = usable ? `id:${usable.id}` : `login:${login.toLowerCase()}`;
  await attempt.throttle.check(attempt.clientIp, account);
  if (!(await verifySignInPassword(usable?.passwordHash ?? null, password, attempt.passwordHash)) || !usable) {
    await attempt.throttle.failed(attempt.clientIp, account);
    throw new UnauthenticatedError(INVALID);
  }
  await attempt.throttle.succeeded(attempt.clientIp, account);
  // Gitea's UserSignIn refuses prohibited users outright (401, not the 403 account gate).
  if (usable.prohibitLogin) throw new UnauthenticatedError(INVALID);
  return usable;
}

/** A token that must resolve; a failure counts against the client address. */
async function requireToken(db: Db, token: string, attempt: SignInAttempt): Promise<AuthOutcome> {
  const found = await findByToken(db, token, attempt);
  if (found) return found;
  await attempt.throttle.failedToken(attempt.clientIp);
  throw new UnauthenticatedError(INVALID);
}

async function findByToken(db: Db, token: string, attempt: SignInAttempt): Promise<AuthOutcome | null> {
  if (!token) return null;
  const { tokenCache: cache } = attempt;
  const tokenHash = hashToken(token);
  const now = Date.now();
  let entry = cache?.get(tokenHash);
  if (!entry) {
    const generation = cache ? cache.generation() : null;
    // Gitea tells them apart the same way: only an OAuth2 token (a JWT) contains a dot.
    const jwt = token.includes('.');
    const loaded = jwt ? await loadOAuthAccessToken(db, attempt.oauthKeys, token) : await loadAccessToken(db, tokenHash);
    if (!loaded) return jwt ? null : findByTaskToken(db, token);
    entry = loaded;
    cache?.set(tokenHash, entry, generation);
  }
  if (entry.expiresAt !== null && entry.expiresAt <= now) return null;
  if (entry.tokenId !== null && now - entry.lastUsedAt > LAST_USED_RESOLUTION_MS) {
    // lastUsedAt is not watched by the invalidation triggers, so writing it keeps the cache warm.
    entry.lastUsedAt = now;
    await db.accessToken.update({ where: { id: entry.tokenId }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  }
  // Copies: callers may not change what later requests receive.
  return { user: { ...entry.user }, auth: { method: 'token', scope: parseScope(entry.scope), tokenId: entry.tokenId, sudoerId: null } };
}

async function loadAccessToken(db: Db, tokenHash: string): Promise<CachedToken | null> {
  const row = await db.accessToken.findUnique({ where: { tokenHash }, include: { user: true } });
  if (!row) return null;
  return { tokenId: row.id, scope: row.scope, user: row.user, lastUsedAt: row.lastUsedAt?.getTime() ?? 0, expiresAt: null };
}

/** Gitea oauth2.go userIDFromToken: a running task's token is the `gitea-actions` user, for that task only. */
async function findByTaskToken(db: Db, token: string): Promise<AuthOutcome | null> {
  const task = await findRunningTask(db, token);
  if (!task) return null;
  return { user: await actionsUserRow(db), auth: { method: 'actions', scope: null, tokenId: null, sudoerId: null, actionsTask: task } };
}

async function findByLoginOrEmail(db: Db, login: string): Promise<User | null> {
  const lower = login.toLowerCase();
  if (login.includes('@')) {
    const email = await db.emailAddress.findUnique({ where: { lowerEmail: lower }, include: { user: true } });
    // Gitea's UserSignIn: an address that is not activated does not sign anyone in.
    if (email) return email.isActivated ? email.user : null;
  }
  return db.user.findUnique({ where: { lowerName: lower } });
}

/** Why a signed-in account may not use the API (Gitea's verifyAuthWithOptions), or null when it may. */
export function accountBlock(user: User, rootUrl: string): string | null {
  if (!user.isActive || user.prohibitLogin) {
    return 'This account is prohibited from signing in, please contact your site administrator.';
  }
  // Gitea concatenates AppURL (which ends in '/') and '/user/change_password'; the double slash is its.
  if (user.mustChangePassword) return `You must change your password. Change it at: ${rootUrl}/user/change_password`;
  return null;
}
