import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { basic, type TestApp } from '../helpers/app.ts';

/** A registered OAuth2 application and its credentials. */
export interface RegisteredApp {
  id: number;
  clientId: string;
  clientSecret: string;
}

/** Registers an application for `owner` through the REST API (Gitea's CreateOAuth2ApplicationOptions). */
export async function registerApp(
  t: TestApp,
  owner: string,
  opts: { name?: string; redirectUris: string[]; confidential?: boolean; skipSecondaryAuthorization?: boolean },
): Promise<RegisteredApp> {
  const res = await t.request('POST', '/api/v1/user/applications/oauth2', {
    headers: basic(owner),
    body: {
      name: opts.name ?? 'app',
      redirect_uris: opts.redirectUris,
      confidential_client: opts.confidential ?? true,
      skip_secondary_authorization: opts.skipSecondaryAuthorization ?? false,
    },
  });
  if (res.statusCode !== 201) throw new Error(`registering the application failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { id: number; client_id: string; client_secret: string };
  return { id: body.id, clientId: body.client_id, clientSecret: body.client_secret };
}

/** A PKCE verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The hidden fields of the first form of a page. */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1] ?? ''] = (m[2] ?? '')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  }
  return out;
}

/** A browser without JavaScript over app.inject: keeps cookies, submits forms. */
export class FormBrowser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly t: TestApp) {}

  private remember(res: LightMyRequestResponse): LightMyRequestResponse {
    const set = res.headers['set-cookie'];
    for (const c of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }

  private cookieHeader(): Record<string, string> {
    return this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.remember(await this.t.app.server.inject({ method: 'GET', url, headers: this.cookieHeader() }));
  }

  async post(url: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.remember(
      await this.t.app.server.inject({
        method: 'POST',
        url,
        headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      }),
    );
  }
}

/** The authorization URL path of a request. */
export function authorizeUrl(params: Record<string, string>): string {
  return `/login/oauth/authorize?${new URLSearchParams(params).toString()}`;
}

/** A POST to the token endpoint with form fields (and optional Basic client credentials). */
export function tokenRequest(
  t: TestApp,
  fields: Record<string, string>,
  basicAuth?: { id: string; secret: string },
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basicAuth) headers.authorization = `Basic ${Buffer.from(`${basicAuth.id}:${basicAuth.secret}`).toString('base64')}`;
  return t.app.server.inject({
    method: 'POST',
    url: '/login/oauth/access_token',
    headers,
    payload: new URLSearchParams(fields).toString(),
  });
}
