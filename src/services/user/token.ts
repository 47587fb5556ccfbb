import { formatScope, hasPermissionScope, InvalidScopeError, parseScope } from '../../auth/scope.ts';
import { generateToken, hashToken } from '../../auth/token.ts';
import type { Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { InvalidArgumentError, NotFoundError, UnauthenticatedError, ValidationError } from '../../errors.ts';
import { requireSelfOrAdmin, requireTokenScope } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { getUserByName } from './user.ts';

type AccessToken = Models.AccessToken;

/** A freshly created token: the row plus the secret, which is shown this once and never stored. */
export interface CreatedAccessToken {
  token: AccessToken;
  secret: string;
}

// Gitea's reqBasicOrRevProxyAuth: a token cannot be used to manage tokens.
function requirePasswordAuth(cx: ServiceContext): void {
  if (cx.auth.method !== 'password' && cx.auth.method !== 'system') throw new UnauthenticatedError('auth required');
}

// In Gitea's order: token scope, the user (404), self or admin (403), then the credential kind (401).
async function tokenOwner(cx: ServiceContext, username: string, level: 'read' | 'write'): Promise<Models.User> {
  requireTokenScope(cx, 'user', level);
  const user = await getUserByName(cx, username);
  requireSelfOrAdmin(cx, user, `${level}:user`);
  requirePasswordAuth(cx);
  return user;
}

/**
 * Creates a personal access token for `username` (self or site admin, password authentication).
 * @throws UnauthenticatedError, PermissionDeniedError, NotFoundError, InvalidArgumentError (name taken, bad or empty scope)
 */
export async function createAccessToken(
  cx: ServiceContext,
  input: { username: string; name: string; scopes: string[] },
): Promise<CreatedAccessToken> {
  const user = await tokenOwner(cx, input.username, 'write');
  if (!input.name) throw new ValidationError('Required', { field: 'name', rule: 'Required' });
  // Gitea checks the name before the scopes (the check inside the transaction covers races).
  if (await cx.db.accessToken.findFirst({ where: { userId: user.id, name: input.name }, select: { id: true } })) {
    throw new InvalidArgumentError('access token name has been used already');
  }
  let scope: string;
  try {
    const parsed = parseScope(input.scopes.join(','));
    scope = hasPermissionScope(parsed) ? formatScope(parsed) : '';
  } catch (err) {
    if (err instanceof InvalidScopeError) throw new InvalidArgumentError(`invalid access token scope provided: ${err.message}`);
    throw err;
  }
  if (!scope) throw new InvalidArgumentError('access token must have a scope');
  const secret = generateToken();
  try {
    const token = await withTx(cx, async (tx, emit) => {
      if (await tx.accessToken.findFirst({ where: { userId: user.id, name: input.name }, select: { id: true } })) {
        throw new InvalidArgumentError('access token name has been used already');
      }
      const row = await tx.accessToken.create({
        data: { userId: user.id, name: input.name, tokenHash: hashToken(secret), tokenLastEight: secret.slice(-8), scope },
      });
      emit({ type: 'accessToken.created', userId: user.id, tokenId: row.id, actorId: cx.viewer?.id ?? null });
      return row;
    });
    return { token, secret };
  } catch (err) {
    if (isUniqueViolation(err)) throw new InvalidArgumentError('access token name has been used already');
    throw err;
  }
}

/** Lists `username`'s tokens, newest first (self or site admin, password authentication). */
export async function listAccessTokens(cx: ServiceContext, username: string, opts: ListOptions | ListWindow): Promise<Page<AccessToken>> {
  const user = await tokenOwner(cx, username, 'read');
  const where = { userId: user.id };
  const [items, total] = await Promise.all([
    cx.db.accessToken.findMany({ where, orderBy: { id: 'desc' }, ...skipTake(opts) }),
    cx.db.accessToken.count({ where }),
  ]);
  return { items, total };
}

/**
 * Lists the tokens of an already-loaded user (GraphQL `User.accessTokens`) with listAccessTokens's rules;
 * batched through `loaders.accessTokensByUser`, so a page of users costs one query, not one per user.
 * Each user's page is cut in memory (a user has few tokens).
 * @throws UnauthenticatedError, PermissionDeniedError
 */
export async function listUserAccessTokens(cx: ServiceContext, user: Models.User, window: ListWindow): Promise<Page<AccessToken>> {
  requireSelfOrAdmin(cx, user, 'read:user');
  requirePasswordAuth(cx);
  const all = await cx.loaders.accessTokensByUser.load(user.id);
  return { items: all.slice(window.skip, window.skip + window.take), total: all.length };
}

/**
 * Deletes one of `username`'s tokens, named by id or else by name.
 * @throws NotFoundError, ValidationError when a name matches several tokens
 */
export async function deleteAccessToken(cx: ServiceContext, input: { username: string; token: string }): Promise<void> {
  const user = await tokenOwner(cx, input.username, 'write');
  const id = /^\d+$/.test(input.token) ? Number(input.token) : 0;
  await withTx(cx, async (tx, emit) => {
    const matches = id
      ? await tx.accessToken.findMany({ where: { id, userId: user.id } })
      : await tx.accessToken.findMany({ where: { name: input.token, userId: user.id } });
    if (matches.length > 1) throw new ValidationError(`multiple matches for token name '${input.token}'`);
    const token = matches[0];
    // Gitea answers APIErrorNotFound() here, whose message is just "not found".
    if (!token) throw new NotFoundError('not found', { token: input.token });
    await tx.accessToken.delete({ where: { id: token.id } });
    emit({ type: 'accessToken.deleted', userId: user.id, tokenId: token.id, actorId: cx.viewer?.id ?? null });
  });
}

/** A token's scopes as a list, the way Gitea shows them. */
export function scopeList(token: Pick<AccessToken, 'scope'>): string[] {
  return token.scope ? token.scope.split(',') : [];
}
