// The outgoing HTTP request of a delivery: the host policy checked on the address actually connected to (a
// custom DNS lookup, so a name that re-resolves to a forbidden address is refused), a timeout for the whole
// exchange, redirects followed as Go's client does (each hop checked again), and a size cap on the response.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { HostPolicy } from '../services/webhook/hostPolicy.ts';

/** One request to send. */
export interface SendInput {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: HostPolicy;
  skipTlsVerify: boolean;
  maxResponseBytes: number;
}

/** The answer (after redirects). */
export interface SendResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The host policy refused the target. */
export class HostNotAllowedError extends Error {
  constructor(host: string, ip: string, policy: HostPolicy) {
    super(
      `webhook can only call allowed HTTP servers (check your WEBHOOK_ALLOWED_HOST_LIST setting "${policy.text}"), deny '${host}(${ip})'`,
    );
    this.name = 'HostNotAllowedError';
  }
}

const MAX_REDIRECTS = 10;

function guardedLookup(host: string, policy: HostPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      const ok = list.filter((a) => policy.allowsIp(a.address));
      const first = ok[0];
      if (!first) return callback(new HostNotAllowedError(host, list.map((a) => a.address).join(','), policy), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, ok);
      return callback(null, first.address, first.family);
    });
  };
}

function flatHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(',') : v;
  return out;
}

function once(input: SendInput, url: URL, method: string, body: string, signal: AbortSignal): Promise<SendResult & { location?: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!input.policy.allowsHost(host) && ipaddr.isValid(host) && !input.policy.allowsIp(host)) {
    return Promise.reject(new HostNotAllowedError(host, host, input.policy));
  }
  const lib = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = { ...input.headers, ...(body ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) };
  if (!body) delete headers['Content-Type'];
  return new Promise((resolve, reject) => {
    const req = lib.request(
      url,
      {
        method,
        headers,
        signal,
        agent: false,
        ...(input.policy.allowsHost(host) ? {} : { lookup: guardedLookup(host, input.policy) }),
        ...(url.protocol === 'https:' ? { rejectUnauthorized: !input.skipTlsVerify } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= input.maxResponseBytes) return;
          const part = chunk.subarray(0, input.maxResponseBytes - size);
          size += part.length;
          chunks.push(part);
        });
        res.on('end', () => {
          const location = res.headers.location;
          resolve({
            status: res.statusCode ?? 0,
            headers: flatHeaders(res.headers),
            body: Buffer.concat(chunks).toString('utf8'),
            ...(location ? { location } : {}),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body || undefined);
  });
}

/**
 * Sends the request and follows up to 10 redirects (301/302/303 turn a POST into a body-less GET, 307/308 keep
 * it, as Go's http.Client does). Throws on a refused host, a network error or the timeout.
 */
export async function sendRequest(input: SendInput): Promise<SendResult> {
  const signal = AbortSignal.timeout(input.timeoutMs);
  let url = new URL(input.url);
  let method = input.method;
  let body = input.body;
  for (let hop = 0; ; hop++) {
    const res = await once(input, url, method, body, signal);
    if (!res.location || ![301, 302, 303, 307, 308].includes(res.status) || hop >= MAX_REDIRECTS) {
      return { status: res.status, headers: res.headers, body: res.body };
    }
    url = new URL(res.location, url);
    if ([301, 302, 303].includes(res.status) && method !== 'GET' && method !== 'HEAD') {
      method = 'GET';
      body = '';
    }
  }
}
