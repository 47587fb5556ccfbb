// The package registries at /api/packages/{owner}/… (Gitea routers/api/packages/api.go): their own credential
// check (credentials that fail are 401 in the package realm; none = anonymous) and their own body handling
// (uploads stream into the blob store, never buffered).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCredentials } from '../auth/credentials.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import { genericRoutes } from './generic.ts';
import { npmRoutes } from './npm.ts';
import { pypiRoutes } from './pypi.ts';
import { sendError } from './reply.ts';

/** Mounts the registries (call inside a plugin registered with prefix `/api/packages`). */
export async function packageRegistries(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  // Leave bodies in the socket: handlers stream them (generic) or read them within their own limit (npm).
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(req.url, 'http://x');
    const creds = parseCredentials(req.headers.authorization, url.searchParams);
    const resolved = await resolveViewer(deps, creds, { clientIp: req.ip });
    if (!resolved.ok) {
      if (resolved.retryAfterSeconds) reply.header('Retry-After', String(resolved.retryAfterSeconds));
      return sendError(reply, 'text', resolved.status, resolved.status === 401 ? 'Failed to authenticate user' : resolved.message);
    }
    req.cx = createServiceContext(deps, resolved.user, resolved.auth);
    return undefined;
  });
  app.setNotFoundHandler((_req, reply) => sendError(reply, 'text', 404, 'Not found'));
  genericRoutes(app);
  npmRoutes(app, deps);
  await pypiRoutes(app);
}
