import type { ScopeCategory, ScopeLevel } from '../../auth/scope.ts';
import type { Models } from '../../db/client.ts';
import { PermissionDeniedError, UnauthenticatedError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';
import { requireNeed, requireScopes, requireWriteScopes, type ScopeNeed, type WriteNeed, type WriteTarget } from './writeGate.ts';

/** True for site admins and for the operator's CLI. */
export function isSiteAdmin(cx: ServiceContext): boolean {
  return cx.auth.method === 'system' || cx.viewer?.isAdmin === true;
}

/** The signed-in viewer. @throws UnauthenticatedError when anonymous. */
export function requireViewer(cx: ServiceContext): Models.User {
  if (!cx.viewer) throw new UnauthenticatedError('token is required');
  return cx.viewer;
}

/**
 * The write gate for writes to the viewer's own things or to new resources (blocks, e-mail addresses, a new
 * organization): the write scope (public-only rule on `target`), then a signed-in viewer.
 * @throws PermissionDeniedError, NotFoundError, UnauthenticatedError
 */
export function requireWriter(cx: ServiceContext, need: WriteNeed | readonly WriteNeed[], target: WriteTarget = null): Models.User {
  requireWriteScopes(cx, need, target);
  return requireViewer(cx);
}

/**
 * Site admins (and the CLI), with the token's `admin` scope at `level` checked first (Gitea's /admin routes).
 * @throws PermissionDeniedError, UnauthenticatedError when anonymous
 */
export function requireSiteAdmin(cx: ServiceContext, level: ScopeLevel): void {
  if (cx.auth.method === 'system') return;
  requireScopes(cx, `${level}:admin`);
  const viewer = requireViewer(cx);
  if (!viewer.isAdmin) throw new PermissionDeniedError('user should be the site admin');
}

/**
 * The viewer is `user` or a site admin (Gitea reqSelfOrAdmin; anonymous too), with the token scope checked first.
 * @throws PermissionDeniedError
 */
export function requireSelfOrAdmin(cx: ServiceContext, user: Models.User, need: ScopeNeed): void {
  requireNeed(cx, need, { user });
  if (isSiteAdmin(cx)) return;
  if (cx.viewer?.id !== user.id) throw new PermissionDeniedError('doer should be the site admin or be same as the contextUser');
}

/**
 * Token scopes, enforced in services so every transport honours them (REST also gates whole routes
 * first, with Gitea's message). Password and CLI callers have every scope. Writes go through the write gate
 * (writeGate.ts) instead, by way of the permission checks of access/.
 * @throws PermissionDeniedError
 */
export function requireTokenScope(cx: ServiceContext, category: ScopeCategory, level: ScopeLevel): void {
  requireScopes(cx, `${level}:${category}`);
}
