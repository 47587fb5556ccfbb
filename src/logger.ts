import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { TOKEN_QUERY_PARAMS } from './auth/credentials.ts';
import type { LogFormat } from './config.ts';
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
 * carry its `reqId`. `pretty` rewrites each finished (already redacted) JSON line for people (stdout by default).
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream, format: LogFormat = 'json'): LoggerOptions {
  const destination = format === 'pretty' ? prettyDestination(stream ?? process.stdout) : stream;
  return {
    level,
    ...(destination ? { stream: destination } : {}),
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

const LEVELS: Readonly<Record<number, { label: string; color: string }>> = {
  10: { label: 'TRACE', color: '90' },
  20: { label: 'DEBUG', color: '36' },
  30: { label: 'INFO', color: '32' },
  40: { label: 'WARN', color: '33' },
  50: { label: 'ERROR', color: '31' },
  60: { label: 'FATAL', color: '35' },
};
// Fields every line has (or that a line shows in its own way), not repeated as key=value.
const SHOWN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'v', 'err', 'req', 'res', 'responseTime']);

/** A pino destination writing `out` one human line per entry (colored when `out` is a terminal and NO_COLOR is unset). */
function prettyDestination(out: NodeJS.WritableStream & { isTTY?: boolean }): { write(chunk: string): void } {
  const color = out.isTTY === true && !process.env.NO_COLOR;
  return {
    write(chunk) {
      out.write(
        chunk
          .split('\n')
          .filter(Boolean)
          .map((line) => `${prettyLine(line, color)}\n`)
          .join(''),
      );
    },
  };
}

/**
 * One pino JSON line as `2025-01-31 14:05:09.123 INFO  message GET /url 200 3 ms key=value …`, an error's stack on
 * the lines below; a line that is not a JSON object is kept as it is.
 */
function prettyLine(line: string, color = false): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return line;
  const e = entry as Record<string, unknown>;
  const level = LEVELS[Number(e.level)] ?? { label: String(e.level ?? 'LOG').toUpperCase(), color: '0' };
  const label = level.label.padEnd(5);
  const parts = [
    localTime(typeof e.time === 'number' ? new Date(e.time) : new Date()),
    color ? `\u001b[${level.color}m${label}\u001b[0m` : label,
  ];
  if (e.msg !== undefined) parts.push(String(e.msg));
  const shown = new Set(SHOWN);
  // Fastify's request lines: `GET /url` when it starts, `200 3.1 ms` when it ends.
  const req = e.req as { method?: unknown; url?: unknown } | undefined;
  if (typeof req?.method === 'string' && typeof req.url === 'string') parts.push(`${req.method} ${req.url}`);
  else shown.delete('req');
  const res = e.res as { statusCode?: unknown } | undefined;
  if (typeof res?.statusCode === 'number') parts.push(String(res.statusCode));
  else shown.delete('res');
  if (typeof e.responseTime === 'number') parts.push(`${e.responseTime.toFixed(1)} ms`);
  for (const [key, value] of Object.entries(e)) if (!shown.has(key)) parts.push(`${key}=${fieldText(value)}`);
  const err = e.err as { message?: unknown; stack?: unknown } | undefined;
  let text = parts.join(' ');
  if (err && typeof err === 'object') {
    const detail = typeof err.stack === 'string' ? err.stack : String(err.message);
    text += `\n${detail.replace(/^/gm, '    ')}`;
  }
  return text;
}

function fieldText(value: unknown): string {
  return typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

function localTime(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}
