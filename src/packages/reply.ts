// Answers of the package registries: Gitea's statuses for domain errors (401 with the package realm where
// reqPackageAccess refuses), each registry's error body, and streamed file downloads.
import type { FastifyReply } from 'fastify';
import { isDomainError, type DomainError } from '../errors.ts';
import { PACKAGE_ACCESS_MESSAGE } from '../services/access/packageAccess.ts';
import type { PackageDownload } from '../services/package/files.ts';

/** How a registry writes an error: generic sends plain text, npm `{"error": …}`. */
export type ErrorStyle = 'text' | 'npm';

/** Gitea's realm for registry credentials. */
export const PACKAGE_REALM = 'Basic realm="Gitea Package API"';

function statusOf(err: DomainError): number {
  switch (err.code) {
    case 'INVALID_ARGUMENT':
    case 'VALIDATION':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'PERMISSION_DENIED':
      return err.data.packageAuth ? 401 : 403;
    case 'NOT_FOUND':
      return 404;
    case 'ALREADY_EXISTS':
    case 'CONFLICT':
      return 409;
    default:
      return 400;
  }
}

/** Sends a registry error. */
export function sendError(reply: FastifyReply, style: ErrorStyle, status: number, message: string): FastifyReply {
  if (status === 401) reply.header('WWW-Authenticate', PACKAGE_REALM);
  if (style === 'npm' && status !== 401) return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
  return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/** Answers a thrown error in the registry's style; errors that are not domain errors are rethrown (500). */
export function replyError(reply: FastifyReply, style: ErrorStyle, err: unknown): FastifyReply {
  if (!isDomainError(err)) throw err;
  // Gitea's reqPackageAccess answers every refusal (missing token scope included) with the same message.
  return sendError(reply, style, statusOf(err), err.data.packageAuth ? PACKAGE_ACCESS_MESSAGE : err.message);
}

/** Streams a package file (Gitea ServeContent: attachment with its name, Last-Modified, the exact length). */
export function sendFile(reply: FastifyReply, file: PackageDownload): FastifyReply {
  return reply
    .code(200)
    .headers({
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(file.size),
      'Content-Disposition': `attachment; filename="${file.name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'Last-Modified': file.createdAt.toUTCString(),
      'Cache-Control': 'private, max-age=300',
    })
    .send(file.stream);
}
