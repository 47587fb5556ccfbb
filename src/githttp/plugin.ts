import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../services/context.ts';
import { installGitHooks } from '../services/repo/gitTransport.ts';
import { authorizeGitRequest } from './auth.ts';
import { serveGit, type GitAction } from './serve.ts';

interface GitParams {
  owner: string;
  repo: string;
}

const NO_CACHE = { Expires: 'Fri, 01 Jan 1980 00:00:00 GMT', Pragma: 'no-cache', 'Cache-Control': 'no-cache, max-age=0, must-revalidate' };

function sendText(reply: FastifyReply, status: number, text: string, headers: Record<string, string> = {}): FastifyReply {
  return reply
    .code(status)
    .headers({ ...NO_CACHE, ...headers })
    .type('text/plain; charset=utf-8')
    .send(`${text}\n`);
}

/** The service an info/refs request asks for, or null. */
function serviceOf(raw: unknown): 'upload-pack' | 'receive-pack' | null {
  if (raw === 'git-upload-pack') return 'upload-pack';
  if (raw === 'git-receive-pack') return 'receive-pack';
  return null;
}

/**
 * Git smart HTTP at `/{owner}/{repo}(.git)/{info/refs,git-upload-pack,git-receive-pack}`, and the wiki's at
 * `/{owner}/{repo}.wiki(.git)/…` (registered on
 * the root instance). Request bodies are never parsed or buffered: they stream (gunzipped) into git.
 */
export async function gitHttp(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await installGitHooks(deps.config);
  app.removeAllContentTypeParsers();
  // Leave the body in the socket for serveGit to stream.
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  const handle =
    (action: GitAction | 'info') =>
    async (req: FastifyRequest<{ Params: GitParams; Querystring: Record<string, unknown> }>, reply: FastifyReply) => {
      const owner = req.params.owner;
      const path = req.params.repo.replace(/\.git$/, '');
      // `<repo>.wiki` is the repository's wiki (no repository may be named `*.wiki`).
      const wiki = path.endsWith('.wiki');
      const name = wiki ? path.slice(0, -'.wiki'.length) : path;
      let service: 'upload-pack' | 'receive-pack';
      if (action === 'info') {
        const s = serviceOf(req.query.service);
        // Dumb HTTP (no ?service=) is not served.
        if (!s) return sendText(reply, 403, 'Please upgrade your git client.');
        service = s;
      } else {
        service = action;
        if (req.headers['content-type'] !== `application/x-git-${service}-request`) return sendText(reply, 400, 'Bad Request');
      }
      const auth = await authorizeGitRequest(deps, req, { owner, name, wiki }, service === 'receive-pack' ? 'write' : 'read');
      if (!auth.ok) {
        const { status, message, challenge, retryAfterSeconds, movedOwner } = auth.refusal;
        if (movedOwner) {
          const rest = req.url.slice(1 + req.url.slice(1).indexOf('/') + 1);
          return reply
            .code(307)
            .headers(NO_CACHE)
            .header('Location', `/${encodeURIComponent(movedOwner)}/${rest}`)
            .send();
        }
        return sendText(reply, status, message, {
          ...(challenge ? { 'WWW-Authenticate': 'Basic realm="Gitea"' } : {}),
          ...(retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {}),
        });
      }
      return serveGit(req, reply, { cx: auth.cx, access: auth.access, service, advertise: action === 'info', noCache: NO_CACHE });
    };

  // `:repo` carries the optional `.git` suffix (stripped above).
  // The operation each route serves, for the request metrics (src/ops/plugin.ts).
  app.get('/:owner/:repo/info/refs', { config: { gitOperation: 'advertisement' } }, handle('info'));
  app.post('/:owner/:repo/git-upload-pack', { config: { gitOperation: 'upload-pack' } }, handle('upload-pack'));
  app.post('/:owner/:repo/git-receive-pack', { config: { gitOperation: 'receive-pack' } }, handle('receive-pack'));
}
