// The OAuth2 pages' browser state: the session cookie (who signed in) and the CSRF cookie every form's token is
// bound to (a signed double-submit token: HMAC of the cookie, the form's purpose and what the form carries).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'fg_oauth_session';
const CSRF_COOKIE = 'fg_oauth_csrf';
const COOKIE_PATH = '/login/oauth';

/** A cookie of the request, if sent. */
export function readCookie(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Sets a cookie for the OAuth2 pages: HttpOnly, SameSite=Lax, Secure when the server is reached over https. */
export function setCookie(reply: FastifyReply, rootUrl: string, name: string, value: string): void {
  const secure = rootUrl.startsWith('https:') ? '; Secure' : '';
  const cookie = `${name}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${secure}`;
  const prev = reply.getHeader('set-cookie');
  reply.header('set-cookie', [...(Array.isArray(prev) ? prev : prev ? [String(prev)] : []), cookie]);
}

/** The request's CSRF cookie value, setting a new one on the reply when the browser has none. */
export function csrfCookie(req: FastifyRequest, reply: FastifyReply, rootUrl: string): string {
  const existing = readCookie(req, CSRF_COOKIE);
  if (existing && /^[\w-]{43}$/.test(existing)) return existing;
  const value = randomBytes(32).toString('base64url');
  setCookie(reply, rootUrl, CSRF_COOKIE, value);
  return value;
}

function mac(secretKey: string, cookie: string, purpose: string, bound: readonly string[]): Buffer {
  const key = createHmac('sha256', secretKey).update('forgegraph oauth2 csrf').digest();
  return createHmac('sha256', key)
    .update([purpose, cookie, ...bound].join('\0'))
    .digest();
}

/** The CSRF token of a form: bound to the browser's CSRF cookie, the form's purpose and `bound` (what it carries). */
export function csrfToken(secretKey: string, cookie: string, purpose: string, bound: readonly string[]): string {
  return mac(secretKey, cookie, purpose, bound).toString('base64url');
}

/** Whether a submitted form's token matches the browser's CSRF cookie (absent cookie or token: no). */
export function csrfValid(req: FastifyRequest, secretKey: string, purpose: string, bound: readonly string[], given: string): boolean {
  const cookie = readCookie(req, CSRF_COOKIE);
  if (!cookie || !given) return false;
  const expected = mac(secretKey, cookie, purpose, bound);
  const actual = Buffer.from(given, 'base64url');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
