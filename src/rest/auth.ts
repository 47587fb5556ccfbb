import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCredentials, queryOf } from '../auth/credentials.ts';
import { formatScope, scopeAllows } from '../auth/scope.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import type { RouteConfig } from './route.ts';

const DEPRECATION_WARNING =
  'token and access_token API authentication is deprecated and will be removed in gitea 1.23. Please use AuthorizationHeaderToken instead. Existing queries will continue to work but without authorization.';

/**
 * The /api/v1 onRequest hook, in Gitea's order: authenticate (bad credentials → 401 on every route,
 * throttled ones → 429 with Retry-After),
 * account gates (403), Sudo, then the route's declarative gates (token scope, reqToken, reqSiteAdmin).
 * Leaves `req.cx` set for the handler.
 */
export function apiAuthHook(deps: AppDeps, swaggerUrl: string) {
  const fail = (reply: FastifyReply, status: number, message: string, withUrl = true) =>
    reply.code(status).send(withUrl ? { message, url: swaggerUrl } : { message });

  return async (req: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const query = queryOf(req.url);
    const creds = parseCredentials(req.headers.authorization, query);
    if (creds.kind === 'token' && creds.viaQuery) reply.header('X-Gitea-Warning', DEPRECATION_WARNING);
    const resolved = await resolveViewer(deps, creds, {
      clientIp: req.ip,
      sudo: query.get('sudo') || headerValue(req.headers.sudo),
    });
    if (!resolved.ok) {
      if (resolved.retryAfterSeconds) reply.header('Retry-After', String(resolved.retryAfterSeconds));
      return fail(reply, resolved.status, resolved.message, !resolved.bare);
    }
    const { user, auth } = resolved;
    req.cx = createServiceContext(deps, user, auth);

    const route: RouteConfig | undefined = req.routeOptions.config.api;
    if (!route) return undefined;
    if (route.scopes && auth.method === 'token' && auth.scope) {
      const level = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write';
      if (!scopeAllows(auth.scope, route.scopes, level)) {
        const required = route.scopes.map((c) => `${level}:${c}`).join(' ');
        return fail(
          reply,
          403,
          `token does not have at least one of required scope(s), required=[${required}], token scope=${formatScope(auth.scope)}`,
        );
      }
    }
    if ((route.gate === 'token' || route.gate === 'admin') && !user) return fail(reply, 401, 'token is required');
    if (route.gate === 'admin' && !user?.isAdmin) return fail(reply, 403, 'user should be the site admin');
    return undefined;
  };
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
