// The non-API download routes the JSON points to: /attachments/{uuid} and /{owner}/{repo}/releases/download/{tag}/{file}.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isDomainError } from '../errors.ts';
import * as attachmentService from '../services/attachment/attachment.ts';
import type { AppDeps } from '../services/context.ts';
import * as assetService from '../services/release/asset.ts';
import { apiAuthHook } from './auth.ts';
import { statusOf } from './errors.ts';
import { swaggerUrlOf } from './frameworkErrors.ts';

/** Types a browser may show inline (Gitea's ServeSetHeaders); others download. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/|audio\/|application\/pdf$|text\/plain$)/;
/** Types a browser would run (HTML, SVG, XML, scripts) are sent as bytes. */
const ACTIVE = /(html|svg|xml|javascript|ecmascript)/;

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name (as Gitea). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '\\$&');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Streams a download with its type, length and disposition. */
function send(reply: FastifyReply, d: attachmentService.AttachmentDownload): FastifyReply {
  const active = ACTIVE.test(d.contentType);
  const type = active ? 'application/octet-stream' : d.contentType;
  return reply
    .header('Content-Type', /^text\//.test(type) ? `${type}; charset=utf-8` : type)
    .header('Content-Length', String(d.size))
    .header('Content-Disposition', disposition(!active && INLINE.test(type) ? 'inline' : 'attachment', d.attachment.name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, max-age=300')
    .send(d.stream);
}

/** Mounts the download routes (authenticated as the API is: Basic, token header or ?token=). */
export async function downloadRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.addHook('onRequest', apiAuthHook(deps, swaggerUrlOf(deps.config.rootUrl)));
  app.setErrorHandler(async (err, req, reply) => {
    if (isDomainError(err))
      return reply
        .code(statusOf(err))
        .type('text/plain; charset=utf-8')
        .send(statusOf(err) === 404 ? 'Not Found' : err.message);
    req.log.error({ err }, 'download failed');
    return reply.code(500).type('text/plain; charset=utf-8').send('Internal Server Error');
  });
  app.get<{ Params: { uuid: string } }>('/attachments/:uuid', async (req, reply) =>
    send(reply, await attachmentService.downloadAttachment(req.cx, req.params.uuid)),
  );
  app.get<{ Params: { owner: string; repo: string; tag: string; file: string } }>(
    '/:owner/:repo/releases/download/:tag/:file',
    async (req, reply) =>
      send(
        reply,
        await assetService.downloadReleaseAsset(
          req.cx,
          { owner: req.params.owner, repo: req.params.repo },
          req.params.tag,
          req.params.file,
        ),
      ),
  );
}
