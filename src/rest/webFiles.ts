// The non-API file routes the API's JSON links to (Gitea routers/web/repo/download.go, repo.go Download):
// /{o}/{r}/raw|media/{branch|tag|commit}/{ref}/{path}, /{o}/{r}/src/… and /{o}/{r}/archive/{ref}.{zip|tar.gz}.
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCredentials } from '../auth/credentials.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { scopeAllows } from '../auth/scope.ts';
import { isDomainError } from '../errors.ts';
import { createServiceContext, type AppDeps, type ServiceContext } from '../services/context.ts';
import * as download from '../services/repo/download.ts';
import { pathEscapeSegments } from './convert/git.ts';
import { sendArchive, sendRawFile } from './rawReply.ts';

interface FileParams {
  owner: string;
  repo: string;
  '*': string;
}

const KINDS = ['branch', 'tag', 'commit'] as const;
type Kind = (typeof KINDS)[number];

function text(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/** The viewer of a web request (Basic, token headers), as a service context; null when the credentials are refused. */
async function contextOf(deps: AppDeps, req: FastifyRequest): Promise<ServiceContext | { status: number; message: string }> {
  const url = new URL(req.url, 'http://x');
  const resolved = await resolveViewer(deps, parseCredentials(req.headers.authorization, url.searchParams), { clientIp: req.ip });
  if (!resolved.ok) return { status: resolved.status, message: resolved.message };
  if (resolved.auth.method === 'token' && resolved.auth.scope && !scopeAllows(resolved.auth.scope, ['repository'], 'read')) {
    return { status: 403, message: 'token does not have the read:repository scope' };
  }
  return createServiceContext(deps, resolved.user, resolved.auth);
}

/** Runs a download handler with the request's viewer; domain errors become plain-text statuses (private is 404). */
function handle(deps: AppDeps, fn: (cx: ServiceContext, p: FileParams, reply: FastifyReply) => Promise<FastifyReply>) {
  return async (req: FastifyRequest<{ Params: FileParams }>, reply: FastifyReply) => {
    const cx = await contextOf(deps, req);
    if (!('db' in cx)) return text(reply, cx.status, cx.message);
    try {
      return await fn(cx, req.params, reply);
    } catch (err) {
      if (!isDomainError(err)) throw err;
      const status = err.code === 'INVALID_ARGUMENT' ? 400 : err.code === 'PERMISSION_DENIED' ? 403 : 404;
      return text(reply, status, status === 404 ? 'Not found.' : err.message);
    }
  };
}

/** `{kind}/{rest}` of a web file path, or null. */
function splitKind(tail: string): { kind: Kind; rest: string } | null {
  const slash = tail.indexOf('/');
  const kind = tail.slice(0, slash) as Kind;
  return slash > 0 && KINDS.includes(kind) ? { kind, rest: tail.slice(slash + 1) } : null;
}

/**
 * Registers the web file routes on the root instance. `src` answers with a redirect (Forgegraph serves no
 * HTML pages): a file to its raw bytes, a directory to the contents API's JSON listing.
 */
export function mountWebFiles(app: FastifyInstance, deps: AppDeps): void {
  const repoOf = (p: FileParams) => ({ owner: p.owner, repo: p.repo });
  for (const route of ['raw', 'media'] as const) {
    app.get<{ Params: FileParams }>(
      `/:owner/:repo/${route}/*`,
      handle(deps, async (cx, p, reply) => {
        const split = splitKind(p['*']);
        const target = split ? { kind: split.kind, rest: split.rest } : { kind: 'legacy' as const, rest: p['*'] };
        return sendRawFile(reply, await download.getRawFile(cx, repoOf(p), target));
      }),
    );
  }
  app.get<{ Params: FileParams }>(
    '/:owner/:repo/src/*',
    handle(deps, async (cx, p, reply) => {
      const split = splitKind(p['*']);
      if (!split) return text(reply, 404, 'Not found.');
      const found = await download.findSource(cx, repoOf(p), split.kind, split.rest);
      const base = `${cx.config.rootUrl}`;
      const target = found.isTree
        ? `${base}api/v1/repos/${p.owner}/${p.repo}/contents/${pathEscapeSegments(found.path)}?ref=${encodeURIComponent(found.ref.name)}`
        : `${base}${p.owner}/${p.repo}/raw/${split.kind}/${pathEscapeSegments(found.ref.name)}/${pathEscapeSegments(found.path)}`;
      return reply.redirect(target, 302);
    }),
  );
  app.get<{ Params: FileParams }>(
    '/:owner/:repo/archive/*',
    handle(deps, async (cx, p, reply) => sendArchive(reply, await download.getArchive(cx, repoOf(p), p['*']), createReadStream)),
  );
}
