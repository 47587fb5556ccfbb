import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BUSY_RETRY_AFTER_SECONDS, busyMessageOf } from '../services/dbErrors.ts';
import { isDomainError, NotFoundError } from '../errors.ts';
import { findRepoRedirect } from '../services/repo/redirect.ts';
import { findUserRedirect } from '../services/user/redirect.ts';
import type { AppDeps } from '../services/context.ts';
import { apiAuthHook } from './auth.ts';
import { cut, isBodyless, messageOf, statusOf } from './errors.ts';
import { internalMessage, swaggerUrlOf } from './frameworkErrors.ts';
import { buildOpenApi } from './openapi.ts';
import { registerRoutes } from './route.ts';
import { allRoutes } from './routes/index.ts';

/** Largest request body the server accepts (JSON, forms; git pushes stream past it). */
export const API_BODY_LIMIT = 10 * 1024 * 1024;

/** Gitea's encoder: trailing newline, and <, >, & escaped as \u003c etc. */
function serialize(payload: unknown): string {
  return `${JSON.stringify(payload).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}\n`;
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!text.trim()) return {};
  if (contentType?.includes('application/x-www-form-urlencoded')) return formToObject(text);
  const trimmed = text.trimStart();
  // Liberal: some generated clients send JSON as text/plain (DESIGN §5).
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || !contentType || !/form/.test(contentType)) return JSON.parse(text);
  return formToObject(text);
}

function formToObject(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Mounts the Gitea-compatible REST API (call inside a plugin registered with prefix `/api/v1`). */
export async function restApi(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const swaggerUrl = swaggerUrlOf(deps.config.rootUrl);
  const fail = (reply: FastifyReply, status: number, message: string) =>
    reply
      .code(status)
      .type('application/json;charset=utf-8')
      .send({ message: cut(message), url: swaggerUrl });

  app.removeAllContentTypeParsers();
  // The body limit is the server's (API_BODY_LIMIT, set in buildApp).
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    try {
      done(null, parseBody(String(body), req.headers['content-type']));
    } catch (err) {
      const e = err as Error & { statusCode?: number };
      e.statusCode = 422;
      done(e, undefined);
    }
  });
  app.setReplySerializer(serialize);
  // A callback hook, not an async one: no promise on every answer.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (typeof payload === 'string' && !reply.hasHeader('content-type')) reply.type('application/json;charset=utf-8');
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.type('application/json;charset=utf-8');
    done(null, payload);
  });
  app.addHook('onRequest', apiAuthHook(deps, swaggerUrl));

  app.setErrorHandler(async (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof NotFoundError && req.cx) {
      const moved = await repoRedirectLocation(req);
      if (moved) return reply.code(301).header('Location', moved).send();
      const renamed = await userRedirectLocation(req);
      if (renamed) return reply.code(307).header('Location', renamed).send();
    }
    if (isDomainError(err)) {
      const status = statusOf(err);
      if (isBodyless(err)) return reply.code(status).send();
      // Gitea's topic handlers answer 422 with their own map: {"invalidTopics": …, "message": …}, no url.
      if (err.data.topicsBody === true) {
        const invalid = err.data.invalidTopics;
        return reply
          .code(status)
          .type('application/json;charset=utf-8')
          .send({ ...(invalid === undefined ? {} : { invalidTopics: invalid }), message: err.message });
      }
      return fail(reply, status, messageOf(err, req.routeOptions.config.api?.goNames));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return fail(reply, 413, `request body too large (limit ${API_BODY_LIMIT} bytes)`);
    if (err.statusCode === 422 || err instanceof SyntaxError) return fail(reply, 422, `[]: ${err.message}`);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return fail(reply, err.statusCode, err.message);
    const busy = busyMessageOf(err, deps.config.transactionTimeoutMs);
    if (busy) {
      req.log.warn({ err }, 'database busy');
      reply.header('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
      return fail(reply, 503, busy);
    }
    req.log.error({ err }, 'unhandled error');
    return fail(reply, 500, internalMessage(err, req, deps.config));
  });
  app.setNotFoundHandler((_req, reply) => fail(reply, 404, 'not found'));

  registerRoutes(
    app,
    allRoutes.filter((def) => !def.upload && !def.textBody),
  );
  // Plain-text bodies (POST /markdown/raw) reach the handler as they were sent, never parsed as JSON or a form.
  await app.register(async (text) => {
    text.removeAllContentTypeParsers();
    text.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, String(body)));
    registerRoutes(
      text,
      allRoutes.filter((def) => def.textBody),
    );
  });
  // Uploads stream their body (a multipart form, or the raw bytes) to the handler; only these routes parse multipart.
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    await uploads.register(multipart, { limits: { fileSize: deps.config.attachments.maxBytes + 1, files: 1, fields: 20 } });
    uploads.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    registerRoutes(
      uploads,
      allRoutes.filter((def) => def.upload),
    );
  });
}

/**
 * Gitea's RedirectToRepo: a request for a renamed repository (`/api/v1/repos/{old owner}/{old name}/…`) is
 * answered with 301 to the same path under the new name, when the viewer may see the repository.
 */
async function repoRedirectLocation(req: FastifyRequest): Promise<string | null> {
  const url = new URL(req.url, 'http://x');
  const m = /^\/api\/v1\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(url.pathname);
  if (!m || !m[1] || !m[2]) return null;
  const owner = decodeURIComponent(m[1]);
  const name = decodeURIComponent(m[2]);
  if (owner.includes('\0') || name.includes('\0')) return null;
  const target = await findRepoRedirect(req.cx, owner, name);
  if (!target) return null;
  return `/api/v1/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.name)}${m[3] ?? ''}${url.search}`;
}

/**
 * Gitea's RedirectToUser: a request naming a renamed account (`/users/{old}/…`, `/orgs/{old}/…`,
 * `/repos/{old}/…`, `/admin/users/{old}/…`) is answered with 307 (the method kept) to the same path under the
 * new name.
 */
async function userRedirectLocation(req: FastifyRequest): Promise<string | null> {
  const url = new URL(req.url, 'http://x');
  const m = /^(\/api\/v1\/(?:users|orgs|repos|admin\/users|packages)\/)([^/]+)(\/.*)?$/.exec(url.pathname);
  if (!m || !m[1] || !m[2]) return null;
  const name = decodeURIComponent(m[2]);
  if (name.includes('\0')) return null;
  const target = await findUserRedirect(req.cx, name);
  if (!target) return null;
  return `${m[1]}${encodeURIComponent(target)}${m[3] ?? ''}${url.search}`;
}

const documents = new Map<string, Record<string, unknown>>();

/**
 * The OpenAPI document of what restApi serves (served at /swagger.v1.json). It depends only on the version and
 * ROOT_URL, so it is built once per process for each (tens of milliseconds), on the first request for it, and shared
 * by every app.
 */
export function openApiDocument(deps: AppDeps): Record<string, unknown> {
  const key = `${deps.config.version} ${deps.config.rootUrl}`;
  let doc = documents.get(key);
  if (!doc) {
    doc = buildOpenApi(allRoutes, { version: deps.config.version, rootUrl: deps.config.rootUrl });
    documents.set(key, doc);
  }
  return doc;
}
