// The npm registry's routes under /{owner}/npm/ (Gitea routers/api/packages/api.go, group /npm). npm sends
// scoped names as `@scope%2fname`; `@scope/name` is accepted too, so the path is matched here, segment by segment.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../services/context.ts';
import * as npm from '../services/package/npm.ts';
import { replyError, sendError, sendFile } from './reply.ts';

type Req = FastifyRequest<{ Params: { owner: string } }>;

/** Largest dist-tag request body (Gitea reads at most 4 KiB). */
const TAG_BODY_LIMIT = 4096;

class BodyTooLarge extends Error {}

/** Reads a request body of at most `limit` bytes. @throws BodyTooLarge */
async function readBody(req: FastifyRequest, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The path after `/npm/`, as decoded segments; a scoped name (`@scope/name` or `@scope%2fname`) is one segment. */
function segmentsOf(url: string): string[] | null {
  const path = url.split('?')[0] ?? '';
  const marker = path.indexOf('/npm/');
  if (marker < 0) return null;
  let raw: string[];
  try {
    raw = path
      .slice(marker + 5)
      .split('/')
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  const joinScope = (parts: string[], at: number): string[] => {
    const head = parts[at];
    const next = parts[at + 1];
    if (head?.startsWith('@') && !head.includes('/') && next !== undefined && next !== '-' && next !== '-rev') {
      return [...parts.slice(0, at), `${head}/${next}`, ...parts.slice(at + 2)];
    }
    return parts;
  };
  if (raw[0] === '-' && raw[1] === 'package') return joinScope(raw, 2);
  return joinScope(raw, 0);
}

/** Registers the npm registry on the /api/packages instance. */
export function npmRoutes(app: FastifyInstance, deps: AppDeps): void {
  const handle = (method: 'GET' | 'PUT' | 'DELETE') => async (req: Req, reply: FastifyReply) => {
    const segs = segmentsOf(req.url);
    const owner = req.params.owner;
    const cx = req.cx;
    try {
      if (!segs || !segs[0]) return sendError(reply, 'npm', 404, 'not found');
      const [first, ...rest] = segs;
      if (first === '-') {
        if (method === 'GET' && rest.length === 2 && rest[0] === 'v1' && rest[1] === 'search') {
          const q = req.query as Record<string, string | undefined>;
          return reply.send(await npm.npmSearch(cx, owner, (q.text ?? '').trim(), Number(q.from) || 0, Number(q.size) || 0));
        }
        const [kind, name, dist, tag] = rest;
        if (kind === 'package' && name && dist === 'dist-tags') {
          if (method === 'GET' && tag === undefined) return reply.send(await npm.listDistTags(cx, owner, name));
          if (method === 'PUT' && tag) {
            const body = await readBody(req, TAG_BODY_LIMIT);
            let version: unknown;
            try {
              version = JSON.parse(body);
            } catch {
              version = body;
            }
            await npm.addDistTag(cx, owner, name, tag, typeof version === 'string' ? version : '');
            return reply.code(200).send();
          }
          if (method === 'DELETE' && tag) {
            await npm.removeDistTag(cx, owner, name, tag);
            return reply.code(200).send();
          }
        }
        return sendError(reply, 'npm', 404, 'not found');
      }
      const name = first;
      if (rest.length === 0) {
        if (method === 'GET') return reply.type('application/json; charset=utf-8').send(await npm.npmPackument(cx, owner, name));
        if (method === 'PUT') {
          const body = await readBody(req, deps.config.packages.npmMaxBody);
          let parsed: unknown;
          try {
            parsed = JSON.parse(body);
          } catch {
            return sendError(reply, 'npm', 400, 'package is invalid');
          }
          await npm.publishNpm(cx, owner, parsed);
          return reply.code(201).send();
        }
      }
      if (rest[0] === '-rev' && rest.length === 2) {
        if (method === 'DELETE') {
          await npm.npmUnpublish(cx, owner, name, null);
          return reply.code(200).send();
        }
        if (method === 'PUT') {
          await npm.npmUnpublishPreview(cx, owner, name);
          return reply.code(200).send();
        }
      }
      if (rest[0] === '-') {
        const tail = rest.slice(1);
        if (method === 'GET' && tail.length === 2)
          return sendFile(reply, await npm.npmTarball(cx, owner, name, tail[0] ?? '', tail[1] ?? ''));
        if (method === 'GET' && tail.length === 1) return sendFile(reply, await npm.npmTarball(cx, owner, name, null, tail[0] ?? ''));
        if (method === 'DELETE' && tail.length === 4 && tail[2] === '-rev') {
          await npm.npmUnpublish(cx, owner, name, tail[0] ?? '');
          return reply.code(200).send();
        }
      }
      return sendError(reply, 'npm', 404, 'not found');
    } catch (err) {
      if (err instanceof BodyTooLarge) return sendError(reply, 'npm', 413, 'request body too large');
      return replyError(reply, 'npm', err);
    }
  };
  app.get('/:owner/npm/*', handle('GET'));
  app.put('/:owner/npm/*', handle('PUT'));
  app.delete('/:owner/npm/*', handle('DELETE'));
}
