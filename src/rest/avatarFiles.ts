import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AvatarSettings } from '../config.ts';
import { renderIdenticon } from './avatar.ts';
import { openAvatarFile, type AvatarKind } from '../services/avatar/store.ts';
import { MAX_AVATAR_SIZE } from '../services/user/avatar.ts';

/** A stored avatar's name is its content hash, so its bytes never change: cache it for a year. */
const STORED_CACHE = 'public, max-age=31536000, immutable';
/** An identicon's hash may later name an uploaded avatar (a user's e-mail hash does not, but be modest). */
const IDENTICON_CACHE = 'public, max-age=86400';

type AvatarRequest = FastifyRequest<{ Params: { hash: string }; Querystring: { size?: string } }>;

/**
 * `/avatars/{hash}` (accounts: the uploaded PNG, else the generated identicon) and `/repo-avatars/{hash}`
 * (repositories: the uploaded PNG, else 404). Stored avatars are streamed from disk at their stored size
 * (`?size=` is for the identicon, as Gitea serves uploaded avatars as stored), with ETag and long caching.
 */
export function mountAvatars(app: FastifyInstance, settings: AvatarSettings): void {
  app.get('/avatars/:hash', async (req: AvatarRequest, reply) => {
    if (await sendStored(req, reply, settings, 'user')) return reply;
    const etag = `"identicon-${req.params.hash}-${req.query.size ?? ''}"`;
    reply.header('Cache-Control', IDENTICON_CACHE).header('ETag', etag);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    // `?size=` (Gitea's and GitHub's avatar URLs): the edge in pixels; anything else keeps the default.
    const size = Number(req.query.size);
    reply.type('image/svg+xml');
    return renderIdenticon(req.params.hash, Number.isInteger(size) && size >= 1 && size <= MAX_AVATAR_SIZE ? size : undefined);
  });
  app.get('/repo-avatars/:hash', async (req: AvatarRequest, reply) => {
    if (await sendStored(req, reply, settings, 'repo')) return reply;
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
  });
}

/** Answers a stored avatar (or 304 for a cached one); false when there is none under that hash. */
async function sendStored(req: AvatarRequest, reply: FastifyReply, settings: AvatarSettings, kind: AvatarKind): Promise<boolean> {
  const file = await openAvatarFile(settings, kind, req.params.hash);
  if (!file) return false;
  const etag = `"${req.params.hash}"`;
  reply.header('Cache-Control', STORED_CACHE).header('ETag', etag).header('Last-Modified', file.mtime.toUTCString());
  if (req.headers['if-none-match'] === etag) {
    file.stream.destroy();
    void reply.code(304).send();
    return true;
  }
  void reply.type('image/png').header('Content-Length', file.size).send(file.stream);
  return true;
}
