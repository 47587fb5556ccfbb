import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A content encoding we can send (`identity` is the body as is). */
export type Encoding = 'br' | 'gzip' | 'identity';

/** Cache-Control for pages at fixed URLs (revalidate with the ETag) and for assets whose URL names their version. */
export const REVALIDATE = 'no-cache';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * A static response body kept in memory with its ETag; its gzip and brotli forms are computed once, on the
 * first request that accepts them (off the event loop), then reused.
 */
export class StaticAsset {
  readonly etag: string;
  private readonly encoded = new Map<Exclude<Encoding, 'identity'>, Promise<Buffer>>();

  constructor(
    readonly body: Buffer,
    readonly contentType: string,
    readonly cacheControl: string,
  ) {
    this.etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  }

  /** The body in `encoding`. */
  bytes(encoding: Encoding): Promise<Buffer> {
    if (encoding === 'identity') return Promise.resolve(this.body);
    let found = this.encoded.get(encoding);
    if (!found) {
      found =
        encoding === 'br'
          ? brotli(this.body, {
              params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: this.body.length },
            })
          : gzipAsync(this.body, { level: 6 });
      found.catch(() => this.encoded.delete(encoding));
      this.encoded.set(encoding, found);
    }
    return found;
  }
}

/** The best encoding an `Accept-Encoding` header allows: br, then gzip, else identity (q=0 refuses one). */
export function chooseEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return 'identity';
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/** Sends an asset with ETag, Cache-Control and the best content encoding; 304 when the client's copy is current. */
export async function sendAsset(req: FastifyRequest, reply: FastifyReply, asset: StaticAsset): Promise<FastifyReply> {
  reply.header('ETag', asset.etag).header('Cache-Control', asset.cacheControl).header('Vary', 'Accept-Encoding');
  if (matchesEtag(req.headers['if-none-match'], asset.etag)) return reply.code(304).send();
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  const bytes = await asset.bytes(encoding);
  if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
  return reply.type(asset.contentType).header('Content-Length', bytes.length).send(bytes);
}
