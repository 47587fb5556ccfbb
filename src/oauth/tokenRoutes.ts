// The client side of the provider: the token endpoint, token introspection, userinfo, the signing keys and the
// OpenID Connect discovery document (Gitea routers/web/auth/oauth.go, templates/user/auth/oidc_wellknown.tmpl).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseCredentials } from '../auth/credentials.ts';
import { SIGNING_ALGORITHM } from '../auth/oauthKeys.ts';
import { IDENTITY_SCOPES } from '../auth/oauthScope.ts';
import { resolveViewer } from '../auth/resolveViewer.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import * as claimsService from '../services/oauth/claims.ts';
import { oauthError, oauthFailureOf } from '../services/oauth/oauthError.ts';
import * as tokenService from '../services/oauth/tokens.ts';
import { fieldsOf, type Fields } from './fields.ts';

/** RFC 6749 §2.3.1: Basic credentials are form-encoded before they are joined; a malformed escape is taken as is. */
function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The client's credentials: HTTP Basic or the body's `client_id`/`client_secret` (RFC 6749 §2.3.1); a body
 * naming another client than the header is refused.
 * @throws DomainError carrying invalid_request
 */
function clientCredentials(req: FastifyRequest, fields: Fields): { clientId: string; clientSecret: string; basic: boolean } {
  const creds = parseCredentials(req.headers.authorization, new URLSearchParams());
  if (creds.kind !== 'basic') return { clientId: fields.client_id ?? '', clientSecret: fields.client_secret ?? '', basic: false };
  const clientId = formDecode(creds.username);
  if ((fields.client_id && fields.client_id !== clientId) || fields.client_secret) {
    throw oauthError('invalid_request', 'client_id in request body inconsistent with Authorization header');
  }
  return { clientId, clientSecret: formDecode(creds.password), basic: true };
}

/** RFC 6749 §5.2: a JSON error, 401 with a Basic challenge for invalid_client, 400 otherwise. */
function sendFailure(reply: FastifyReply, err: unknown, challenge: boolean): FastifyReply {
  const failure = oauthFailureOf(err);
  if (!failure) throw err;
  const status = failure.error === 'invalid_client' ? 401 : 400;
  if (status === 401 && challenge) reply.header('www-authenticate', 'Basic realm="oauth2"');
  return reply.code(status).header('cache-control', 'no-store').send({ error: failure.error, error_description: failure.description });
}

/** Browsers' single-page apps call these from other origins (no cookies are involved: credentials are explicit). */
function cors(reply: FastifyReply): FastifyReply {
  return reply.header('access-control-allow-origin', '*');
}

/** POST /login/oauth/access_token (RFC 6749 §3.2): answers with no-store, refusals per §5.2. */
async function accessToken(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
  cors(reply).header('cache-control', 'no-store').header('pragma', 'no-cache');
  const fields = fieldsOf(req.body);
  let basic = req.headers.authorization !== undefined;
  try {
    const client = clientCredentials(req, fields);
    basic = client.basic;
    return await tokenService.exchangeToken(createServiceContext(deps, null), {
      grantType: fields.grant_type ?? '',
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      code: fields.code ?? '',
      redirectUri: fields.redirect_uri ?? '',
      codeVerifier: fields.code_verifier ?? '',
      refreshToken: fields.refresh_token ?? '',
      scope: fields.scope ?? '',
    });
  } catch (err) {
    return sendFailure(reply, err, basic);
  }
}

/** POST /login/oauth/introspect (RFC 7662). */
async function introspect(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
  cors(reply).header('cache-control', 'no-store');
  const fields = fieldsOf(req.body);
  try {
    const { clientId, clientSecret } = clientCredentials(req, fields);
    return await tokenService.introspectToken(createServiceContext(deps, null), { clientId, clientSecret, token: fields.token ?? '' });
  } catch (err) {
    return sendFailure(reply, err, true);
  }
}

/** GET or POST /login/oauth/userinfo: the token in the header or the form (RFC 6750 §2.2); only a token signs in here. */
async function info(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
  cors(reply).header('cache-control', 'no-store');
  const query = new URL(req.url, 'http://x').searchParams;
  const bodyToken = fieldsOf(req.body).access_token;
  if (bodyToken && !query.has('access_token')) query.set('access_token', bodyToken);
  const creds = parseCredentials(req.headers.authorization, query);
  const resolved = creds.kind === 'token' ? await resolveViewer(deps, creds, { clientIp: req.ip }) : null;
  if (!resolved?.ok || !resolved.user) {
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="", error="invalid_token"')
      .type('text/plain; charset=utf-8')
      .send('no valid authorization');
  }
  return claimsService.userInfo(createServiceContext(deps, resolved.user, resolved.auth));
}

/** Gitea's oidc_wellknown.tmpl, with the authentication methods we take and without the response types we do not serve. */
function discoveryDocument(root: string): Record<string, unknown> {
  return {
    issuer: root,
    authorization_endpoint: `${root}login/oauth/authorize`,
    token_endpoint: `${root}login/oauth/access_token`,
    jwks_uri: `${root}login/oauth/keys`,
    userinfo_endpoint: `${root}login/oauth/userinfo`,
    introspection_endpoint: `${root}login/oauth/introspect`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    scopes_supported: IDENTITY_SCOPES,
    claims_supported: CLAIMS,
    code_challenge_methods_supported: ['plain', 'S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
  };
}

const CLAIMS = [
  'aud',
  'exp',
  'iat',
  'iss',
  'sub',
  'name',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'locale',
  'updated_at',
  'email',
  'email_verified',
  'groups',
];

/** Mounts the token, introspection, userinfo, keys and discovery endpoints (with CORS preflights). */
export function tokenRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const path of ['/login/oauth/access_token', '/login/oauth/introspect', '/login/oauth/userinfo', '/login/oauth/keys']) {
    app.options(path, async (_req, reply) =>
      cors(reply)
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', 'Authorization, Content-Type')
        .header('access-control-max-age', '600')
        .code(204)
        .send(),
    );
  }
  app.post('/login/oauth/access_token', (req, reply) => accessToken(req, reply, deps));
  app.post('/login/oauth/introspect', (req, reply) => introspect(req, reply, deps));
  app.get('/login/oauth/userinfo', (req, reply) => info(req, reply, deps));
  app.post('/login/oauth/userinfo', (req, reply) => info(req, reply, deps));
  app.get('/login/oauth/keys', async (_req, reply) => {
    const key = await deps.oauthKeys.signingKey();
    return cors(reply)
      .header('cache-control', 'public, max-age=3600')
      .send({ keys: [key.publicJwk] });
  });
  const discovery = discoveryDocument(deps.config.rootUrl);
  app.get('/.well-known/openid-configuration', async (_req, reply) => cors(reply).send(discovery));
}
