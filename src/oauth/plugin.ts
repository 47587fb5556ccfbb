import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../services/context.ts';
import { authorizeRoutes } from './authorizeRoutes.ts';
import { tokenRoutes } from './tokenRoutes.ts';

function formFields(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) (out[k] ??= []).push(v);
  return out;
}

/**
 * The OAuth2 and OpenID Connect provider (Gitea's /login/oauth/* and /.well-known/openid-configuration): form or
 * JSON bodies; a body that cannot be read is RFC 6749's invalid_request.
 */
export async function oauthProvider(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, formFields(String(body))),
  );
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, String(body).trim() ? JSON.parse(String(body)) : {});
    } catch (err) {
      (err as FastifyError).statusCode = 400;
      done(err as FastifyError, undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, _body, done) => done(null, {}));
  app.setErrorHandler(async (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ error: 'invalid_request', error_description: err.message });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ error: 'server_error', error_description: 'internal error' });
  });
  authorizeRoutes(app, deps);
  tokenRoutes(app, deps);
}
