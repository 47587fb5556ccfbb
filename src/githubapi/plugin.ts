// GitHub's REST v3, the few calls GitHub clients make beside GraphQL (`gh`'s token check, a repository's README,
// deleting a pull request's head branch), at GitHub Enterprise's path /api/v3. Same credentials and services as
// /api/v1; GitHub's shapes, statuses and error body. Everything else under /api/v3 is GitHub's 404.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCredentials } from '../auth/credentials.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { scopeAllows } from '../auth/scope.ts';
import { isDomainError } from '../errors.ts';
import { BUSY_RETRY_AFTER_SECONDS, busyMessageOf } from '../services/dbErrors.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import { githubErrorOf, sendGithubError } from './errors.ts';
import type { GithubRouteConfig } from './routeConfig.ts';
import { githubRoutes } from './routes.ts';
import { githubScopes } from './scopes.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    github?: GithubRouteConfig;
  }
}

/** Mounts GitHub's REST v3 subset (call inside a plugin registered with prefix `/api/v3`). */
export async function githubApi(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // GitHub reads an empty JSON body as none (gh sends `DELETE …/git/refs/heads/x` typed as JSON with no body) and
  // answers 400 `Problems parsing JSON` for one it cannot read.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (!text.trim()) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('Problems parsing JSON'), { statusCode: 400 }), undefined);
    }
  });
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(req.url, 'http://x');
    const resolved = await resolveViewer(deps, parseCredentials(req.headers.authorization, url.searchParams), { clientIp: req.ip });
    if (!resolved.ok) {
      if (resolved.retryAfterSeconds) reply.header('Retry-After', String(resolved.retryAfterSeconds));
      return sendGithubError(reply, resolved.status, resolved.status === 401 ? 'Bad credentials' : resolved.message);
    }
    const { user, auth } = resolved;
    req.cx = createServiceContext(deps, user, auth);
    // GitHub reports the token's scopes on every answer to a token, and what the route accepts.
    if (auth.method === 'token' || auth.method === 'password') reply.header('X-OAuth-Scopes', githubScopes(auth.scope).join(', '));
    const route = req.routeOptions.config.github;
    if (!route?.scope) return undefined;
    reply.header('X-Accepted-OAuth-Scopes', route.scope.accepted);
    // The token's scope first, before anything is looked up (as /api/v1): a token that may not learns nothing.
    if (auth.method === 'token' && auth.scope && !scopeAllows(auth.scope, [route.scope.category], route.scope.level)) {
      return sendGithubError(reply, 403, 'Resource not accessible by personal access token');
    }
    return undefined;
  });
  app.setErrorHandler(async (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (isDomainError(err)) {
      const { status, message } = githubErrorOf(err);
      return sendGithubError(reply, status, message);
    }
    const busy = busyMessageOf(err, deps.config.transactionTimeoutMs);
    if (busy) return sendGithubError(reply.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS)), 503, busy);
    if (err.statusCode && err.statusCode < 500) return sendGithubError(reply, err.statusCode, err.message);
    req.log.error({ err }, 'GitHub API request failed');
    return sendGithubError(reply, 500, 'Server Error');
  });
  app.setNotFoundHandler((_req, reply) => sendGithubError(reply, 404, 'Not Found'));
  githubRoutes(app);
}
