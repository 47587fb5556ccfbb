// Sends files and archives as Gitea's ServeBlob and archive downloads do: streamed, with type, length and name.
import type { ReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { mimeTypes } from '../lazyPackage.ts';
import type { Archive, RawFile } from '../services/repo/download.ts';

/** Reads the first chunk of a stream (up to what is buffered) and puts it back. */
async function peek(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off('error', reject);
      stream.off('end', done);
      stream.off('readable', onReadable);
      resolve(Buffer.alloc(0));
    };
    const onReadable = () => {
      const chunk = stream.read() as Buffer | null;
      stream.off('error', reject);
      stream.off('end', done);
      stream.off('readable', onReadable);
      if (chunk) stream.unshift(chunk);
      resolve(chunk ?? Buffer.alloc(0));
    };
    stream.on('readable', onReadable);
    stream.once('end', done);
    stream.once('error', reject);
  });
}

/** Gitea's content type of a blob: text as `text/plain; charset=utf-8`, images and the like by extension, else binary. */
function contentTypeOf(name: string, head: Buffer): string {
  const byName = mimeTypes().lookup(name);
  if (byName && /^(image|audio|video)\//.test(byName) && byName !== 'image/svg+xml') return byName;
  if (!head.subarray(0, 8000).includes(0)) return 'text/plain; charset=utf-8';
  return byName && byName !== 'text/html' ? byName : 'application/octet-stream';
}

/** `inline; filename="…"` with a UTF-8 variant, as Gitea's ServeContentByReader. */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Streams a blob from git. */
export async function sendRawFile(reply: FastifyReply, file: RawFile): Promise<FastifyReply> {
  const stream = file.open();
  const head = await peek(stream);
  return reply
    .code(200)
    .headers({
      'Content-Type': contentTypeOf(file.entry.name, head),
      'Content-Length': String(file.entry.size),
      'Content-Disposition': disposition('inline', file.entry.name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, max-age=300',
      ETag: `"${file.entry.sha}"`,
    })
    .send(stream);
}

/** Streams a cached archive file. */
export function sendArchive(reply: FastifyReply, archive: Archive, open: (path: string) => ReadStream): FastifyReply {
  return reply
    .code(200)
    .headers({
      'Content-Type': archive.format === 'zip' ? 'application/zip' : 'application/gzip',
      'Content-Length': String(archive.size),
      'Content-Disposition': disposition('attachment', archive.fileName),
    })
    .send(open(archive.file));
}
