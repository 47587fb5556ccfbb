import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { cut } from './errors.ts';

// Errors raised outside the REST plugin's own handler, answered in Gitea's `{"message","url"}` shape like every
// other API error: Fastify's router (bad URL encoding 400, over-long parameter 414), Node's HTTP parser (header
// overflow 431, malformed request 400, timeout 408), and errors or unknown paths outside /api/v1.

/** Gitea's `url` field: the swagger page on ROOT_URL. */
export function swaggerUrlOf(rootUrl: string): string {
  return `${rootUrl}api/swagger`;
}

function body(rootUrl: string, message: string): string {
  return JSON.stringify({ message: cut(message), url: swaggerUrlOf(rootUrl) });
}

/**
 * The message of an unexpected (500) error: internal text (database, file system, stack details) is shown to
 * site admins only, unless the server runs with SHOW_INTERNAL_ERRORS (a debugging setting).
 */
export function internalMessage(err: Error, req: FastifyRequest, config: Pick<Config, 'showInternalErrors'>): string {
  return config.showInternalErrors || req.cx?.viewer?.isAdmin === true ? err.message : '';
}

/** Fastify's `frameworkErrors` option: router errors before any route runs. */
export function frameworkErrorHandler(rootUrl: string) {
  return (err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
    const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'path parameter too long' : 'invalid URL';
    reply.code(status).type('application/json;charset=utf-8').send(body(rootUrl, message));
  };
}

/** Fastify's `clientErrorHandler` option: requests Node's parser rejects; the socket is answered and closed. */
export function clientErrorHandler(rootUrl: string) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message = status === 431 ? 'request header fields too large' : status === 408 ? 'request timeout' : 'bad request';
    const payload = body(rootUrl, message);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json;charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
      );
    }
    socket.destroy(err);
  };
}

/** The server-wide error handler (GraphQL and git HTTP answer their own errors; this catches the rest). */
export function rootErrorHandler(config: Pick<Config, 'rootUrl' | 'showInternalErrors'>) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) req.log.error({ err }, 'unhandled error');
    const message = status === 500 ? internalMessage(err, req, config) : err.message;
    reply.code(status).type('application/json;charset=utf-8').send(body(config.rootUrl, message));
  };
}

/** The server-wide 404 for paths no route serves. */
export function rootNotFoundHandler(rootUrl: string) {
  return (_req: FastifyRequest, reply: FastifyReply): void => {
    reply.code(404).type('application/json;charset=utf-8').send(body(rootUrl, 'not found'));
  };
}
