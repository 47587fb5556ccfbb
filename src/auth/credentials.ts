/** Credentials as presented by a request, before any lookup. */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'token'; token: string; viaQuery: boolean }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'malformed' };

/** Query parameters that carry an access token (Gitea's deprecated forms). */
export const TOKEN_QUERY_PARAMS = ['token', 'access_token'] as const;

/** The query parameters of a request target (`/path?a=b`), without parsing the rest of it as a URL. */
export function queryOf(target: string): URLSearchParams {
  const start = target.indexOf('?');
  if (start < 0) return new URLSearchParams();
  const end = target.indexOf('#', start);
  return new URLSearchParams(target.slice(start + 1, end < 0 ? undefined : end));
}

/**
 * Reads credentials the way Gitea does: `?token=` / `?access_token=` first, then the Authorization
 * header (`token <t>`, `bearer <t>` case-insensitive, or Basic).
 */
export function parseCredentials(authorization: string | undefined, query: URLSearchParams): Credentials {
  const queryToken = query.get(TOKEN_QUERY_PARAMS[0]) || query.get(TOKEN_QUERY_PARAMS[1]);
  if (queryToken) return { kind: 'token', token: queryToken, viaQuery: true };
  if (!authorization) return { kind: 'none' };
  const fields = authorization.trim().split(/\s+/);
  const scheme = fields[0]?.toLowerCase();
  if ((scheme === 'token' || scheme === 'bearer') && fields.length === 2 && fields[1]) {
    return { kind: 'token', token: fields[1], viaQuery: false };
  }
  if (scheme === 'basic' && fields.length === 2 && fields[1]) {
    const decoded = Buffer.from(fields[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { kind: 'malformed' };
    return { kind: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return { kind: 'malformed' };
}
