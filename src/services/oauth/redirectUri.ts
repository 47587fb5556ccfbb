// Redirect URIs of OAuth2 applications: which may be registered, and which requested URI matches a registered one.
import { isIP } from 'node:net';
import { ValidationError } from '../../errors.ts';

/** Schemes a browser would run rather than navigate to. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/**
 * The registered redirect URIs of an application: at least one; each an absolute URI without a fragment (RFC 6749
 * §3.1.2), http(s) or a native app's private scheme.
 * @throws ValidationError naming the field `redirect_uris`
 */
export function validateRedirectUris(uris: readonly string[]): void {
  if (uris.length === 0) throw new ValidationError('Required', { field: 'redirect_uris', rule: 'Required' });
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new ValidationError(`invalid redirect URI: ${uri}`, { field: 'redirect_uris', rule: 'ValidUrlList' });
    }
    if (FORBIDDEN_SCHEMES.has(url.protocol) || url.hash || uri.includes('#')) {
      throw new ValidationError(`invalid redirect URI: ${uri}`, { field: 'redirect_uris', rule: 'ValidUrlList' });
    }
  }
}

/** An http URI on a loopback IP literal, without its port (RFC 8252 §7.3). */
function loopbackWithoutPort(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const loopback = (isIP(host) === 4 && host.startsWith('127.')) || (isIP(host) === 6 && host === '::1');
  if (url.protocol !== 'http:' || !url.port || !loopback) return null;
  url.port = '';
  return url.toString();
}

/**
 * Whether `uri` may receive this application's codes: exactly one of the registered URIs (RFC 6749 §3.1.2.3: no
 * prefix, no case folding, no trailing-slash leniency — stricter than Gitea's ContainsRedirectURI). Public clients
 * may vary the port of an http loopback IP literal registered without one (RFC 8252 §7.3), as Gitea allows.
 */
export function redirectUriAllowed(app: { redirectUris: readonly string[]; confidentialClient: boolean }, uri: string): boolean {
  if (!uri) return false;
  if (app.redirectUris.includes(uri)) return true;
  if (app.confidentialClient) return false;
  const portless = loopbackWithoutPort(uri);
  return portless !== null && app.redirectUris.includes(portless);
}

/** `uri` with `params` added to its query (empty values left out), as the client's redirect target. */
export function withQuery(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  return url.toString();
}
