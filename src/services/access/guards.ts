import { formatScope, scopeAllows, type ScopeCategory, type ScopeLevel } from '../../auth/scope.ts';
import type { Models } from '../../db/client.ts';
import { PermissionDeniedError, UnauthenticatedError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';

/** True for site admins and for the operator's CLI. */
export function isSiteAdmin(cx: ServiceContext): boolean {
  return cx.auth.method === 'system' || cx.viewer?.isAdmin === true;
}

/** The signed-in viewer. @throws UnauthenticatedError when anonymous. */
export function requireViewer(cx: ServiceContext): Models.User {
  if (!cx.viewer) throw new UnauthenticatedError('token is required');
  return cx.viewer;
}

/** @throws UnauthenticatedError when anonymous; PermissionDeniedError when not a site admin. */
export function requireSiteAdmin(cx: ServiceContext): void {
  if (cx.auth.method === 'system') return;
  const viewer = requireViewer(cx);
  if (!viewer.isAdmin) throw new PermissionDeniedError('user should be the site admin');
}

/** @throws PermissionDeniedError unless the viewer is `user` or a site admin (Gitea reqSelfOrAdmin; anonymous too). */
export function requireSelfOrAdmin(cx: ServiceContext, user: Pick<Models.User, 'id'>): void {
  if (isSiteAdmin(cx)) return;
  if (cx.viewer?.id !== user.id) throw new PermissionDeniedError('doer should be the site admin or be same as the contextUser');
}

/**
 * Token scopes, enforced in services so every transport honours them (REST also gates whole routes
 * first, with Gitea's message). Password and CLI callers have every scope.
 * @throws PermissionDeniedError
 */
export function requireTokenScope(cx: ServiceContext, category: ScopeCategory, level: ScopeLevel): void {
  const scope = cx.auth.method === 'token' ? cx.auth.scope : null;
  if (!scope || scopeAllows(scope, [category], level)) return;
  throw new PermissionDeniedError(
    `token does not have at least one of required scope(s), required=[${level}:${category}], token scope=${formatScope(scope)}`,
  );
}
