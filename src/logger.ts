import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { TOKEN_QUERY_PARAMS } from './auth/credentials.ts';
import { currentRequest } from './ops/requestContext.ts';

type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/** What replaces a secret in the log. */
const REDACTED = '[REDACTED]';

const SECRET_PARAMS: ReadonlySet<string> = new Set<string>([...TOKEN_QUERY_PARAMS, 'password', 'passwd']);
// `?name=value` / `&name=value` pairs in a URL or in any message text.
const QUERY_PAIR = /([?&])([^=&#?\s]+)=([^&#\s]*)/g;

function isSecretParam(rawName: string): boolean {
  try {
    return SECRET_PARAMS.has(decodeURIComponent(rawName.replace(/\+/g, ' ')).toLowerCase());
  } catch {
    return SECRET_PARAMS.has(rawName.toLowerCase());
  }
}

/** Text (a URL or a log message) with the values of credential query parameters replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return text.replace(QUERY_PAIR, (pair, sep: string, name: string) => (isSecretParam(name) ? `${sep}${name}=${REDACTED}` : pair));
}

/**
 * Fastify's pino options: the request serializer logs the URL with `token`, `access_token` and
 * `password` values redacted; credential headers are censored wherever a log object carries headers;
 * message strings (e.g. Fastify's "Route GET:/x?token=… not found") are redacted too. Lines logged during a request
 * carry its `reqId`.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): LoggerOptions {
  return {
    level,
    ...(stream ? { stream } : {}),
    // Every line written while a request is served carries its id, also lines of loggers not bound to it.
    mixin(_merge, _level, logger) {
      const reqId = currentRequest()?.reqId;
      return reqId && !('reqId' in logger.bindings()) ? { reqId } : {};
    },
    serializers: {
      // Also called for any `{ req }` a log line carries, so it must not assume a Fastify request.
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: typeof req.url === 'string' ? redactSecrets(req.url) : undefined,
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    redact: {
      paths: ['authorization', 'cookie', 'proxy-authorization'].flatMap((h) => [
        `headers["${h}"]`,
        `req.headers["${h}"]`,
        `request.headers["${h}"]`,
      ]),
      censor: REDACTED,
    },
    hooks: {
      logMethod(args, method) {
        const redacted = args.map((a: unknown) => (typeof a === 'string' ? redactSecrets(a) : a));
        method.apply(this, redacted as Parameters<typeof method>);
      },
    },
  };
}
