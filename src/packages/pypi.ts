// The PyPI registry's routes under /{owner}/pypi: POST (twine's multipart upload, the file streamed into the blob
// store), GET files/{name}/{version}/{filename}, GET simple/{name} (the PEP 503 page pip reads).
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as pypi from '../services/package/pypi.ts';
import { replyError, sendFile } from './reply.ts';

type Req = FastifyRequest<{ Params: { owner: string; name: string; version: string; filename: string } }>;

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const attempt = async (reply: FastifyReply, fn: () => Promise<unknown>): Promise<unknown> => {
  try {
    return await fn();
  } catch (err) {
    return replyError(reply, 'text', err);
  }
};

/** The form parts of a multipart request, files as streams (consumed by the service in order). */
async function* partsOf(req: FastifyRequest): AsyncIterable<pypi.UploadPart> {
  for await (const part of req.parts()) {
    if (part.type === 'file') yield { kind: 'file', field: part.fieldname, filename: part.filename, stream: part.file };
    else yield { kind: 'field', name: part.fieldname, value: String(part.value) };
  }
}

/** Registers the PyPI registry (in its own scope: it parses multipart bodies). */
export async function pypiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: Infinity, files: 4, fields: 100, fieldSize: 1024 * 1024 } });
    scope.post('/:owner/pypi', (req: Req, reply) =>
      attempt(reply, async () => {
        if (!req.isMultipart()) return reply.code(400).type('text/plain; charset=utf-8').send('multipart/form-data expected\n');
        await pypi.uploadPypiFile(req.cx, req.params.owner, partsOf(req));
        return reply.code(201).send();
      }),
    );
  });
  app.get('/:owner/pypi/files/:name/:version/:filename', (req: Req, reply) =>
    attempt(reply, async () => {
      const { owner, name, version, filename } = req.params;
      return sendFile(reply, await pypi.pypiDownload(req.cx, owner, name, version, filename));
    }),
  );
  app.get('/:owner/pypi/simple/:name', (req: Req, reply) =>
    attempt(reply, async () => {
      const index = await pypi.pypiSimpleIndex(req.cx, req.params.owner, req.params.name);
      const base = `${req.cx.config.rootUrl}api/packages/${encodeURIComponent(req.params.owner)}/pypi/files`;
      const links = index.files.map((f) => {
        const href = `${base}/${encodeURIComponent(f.name)}/${encodeURIComponent(f.version)}/${encodeURIComponent(f.filename)}#sha256=${f.sha256}`;
        const python = f.requiresPython ? ` data-requires-python="${escapeHtml(f.requiresPython)}"` : '';
        return `    <a href="${escapeHtml(href)}"${python}>${escapeHtml(f.filename)}</a><br/>`;
      });
      const html = `<!DOCTYPE html>\n<html>\n  <head><title>Links for ${escapeHtml(index.name)}</title></head>\n  <body>\n    <h1>Links for ${escapeHtml(index.name)}</h1>\n${links.join('\n')}\n  </body>\n</html>\n`;
      return reply.code(200).type('text/html; charset=utf-8').send(html);
    }),
  );
}
