import { formatScope, scopeAllows, type ScopeCategory, type ScopeLevel, type TokenScope } from '../../auth/scope.ts';
import type { Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';

/** A token scope an operation needs, spelled as Gitea spells scopes: `read:issue`, `write:repository`. */
export type ScopeNeed = `${ScopeLevel}:${ScopeCategory}`;

/** The token scope a write needs. */
export type WriteNeed = `write:${ScopeCategory}`;

/** What a write acts on, for the public-only rule; `null` for the viewer's own account or a new resource. */
export type WriteTarget =
  | { repo: Pick<Models.Repository, 'id' | 'isPrivate'> }
  | { org: Pick<Models.User, 'id' | 'visibility'> }
  | { user: Pick<Models.User, 'id' | 'visibility'> }
  | null;

const asList = <T>(needs: T | readonly T[]): readonly T[] => (Array.isArray(needs) ? needs : [needs as T]);

const holds = (scope: TokenScope, need: ScopeNeed): boolean => {
  const [level, category] = need.split(':') as [ScopeLevel, ScopeCategory];
  return scopeAllows(scope, [category], level);
};

const refusal = (scope: TokenScope, list: readonly ScopeNeed[]) =>
  new PermissionDeniedError(
    `token does not have at least one of required scope(s), required=[${list.join(' ')}], token scope=${formatScope(scope)}`,
  );

/**
 * The token holds every needed scope (Gitea tokenRequiresScopes; all are required despite the message's
 * wording). Password and CLI callers hold every scope.
 * @throws PermissionDeniedError with Gitea's message
 */
export function requireScopes(cx: ServiceContext, needs: ScopeNeed | readonly ScopeNeed[]): void {
  const scope = cx.auth.method === 'token' ? cx.auth.scope : null;
  if (!scope) return;
  const list = asList(needs);
  if (!list.every((need) => holds(scope, need))) throw refusal(scope, list);
}

/**
 * The token holds every scope of at least one of `alternatives`, for a write whose exact scope depends on what
 * it acts on (a label of a repository or of an organization): checked before anything is read, the exact check
 * follows once the target is known. The message lists every scope that could do (Gitea's "at least one of").
 * @throws PermissionDeniedError with Gitea's message
 */
export function requireScopesOfAny(cx: ServiceContext, alternatives: readonly (readonly ScopeNeed[])[]): void {
  const scope = cx.auth.method === 'token' ? cx.auth.scope : null;
  if (!scope || alternatives.some((needs) => needs.every((need) => holds(scope, need)))) return;
  throw refusal(scope, [...new Set(alternatives.flat())]);
}

/**
 * The token half of the write gate, which every service write passes through the permission checks of
 * `access/` (requireUnitWrite, requireRepoAdmin, requireOrgOwner, requireSiteAdmin, …): the token must hold the
 * write scopes, and a `public-only` token may not write to a private resource (Gitea checkTokenPublicOnly): a
 * private repository does not exist for it (404, as Gitea's repoAssignment hides it), a non-public organization
 * or user is 403 with Gitea's message.
 * @throws PermissionDeniedError, NotFoundError
 */
export function requireWriteScopes(cx: ServiceContext, needs: WriteNeed | readonly WriteNeed[], target: WriteTarget): void {
  requireScopes(cx, needs);
  if (!cx.auth.scope?.publicOnly || target === null) return;
  if ('repo' in target) {
    if (target.repo.isPrivate) throw new NotFoundError('repository does not exist', { repoId: target.repo.id });
  } else if ('org' in target) {
    if (target.org.visibility !== 'PUBLIC')
      throw new PermissionDeniedError('token scope is limited to public orgs', { orgId: target.org.id });
  } else if (target.user.visibility !== 'PUBLIC') {
    throw new PermissionDeniedError('token scope is limited to public users', { userId: target.user.id });
  }
}

const isWriteNeed = (need: ScopeNeed): need is WriteNeed => need.startsWith('write:');

/**
 * For gates shared by reads and writes (repository admin, organization owner or member, self or admin): the
 * scope check of `need`, and for a write the whole write gate on `target`.
 * @throws PermissionDeniedError, NotFoundError
 */
export function requireNeed(cx: ServiceContext, need: ScopeNeed, target: WriteTarget): void {
  if (isWriteNeed(need)) requireWriteScopes(cx, need, target);
  else requireScopes(cx, need);
}
