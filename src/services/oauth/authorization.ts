// The authorization endpoint's decisions (Gitea routers/web/auth/oauth.go AuthorizeOAuth, GrantApplicationOAuth):
// which requests are refused and how, when the user must sign in or consent, and the codes handed to clients.
import { randomBytes } from 'node:crypto';
import { oauthScopeWithin, splitScope, tokenScopeOf } from '../../auth/oauthScope.ts';
import { hashToken } from '../../auth/token.ts';
import type { DbLike, Models } from '../../db/client.ts';
import { requireViewer } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { findClient, type Application } from './application.ts';
import { oauthError, type OAuthFailure } from './oauthError.ts';
import { redirectUriAllowed, withQuery } from './redirectUri.ts';

/** How long a code may wait for its exchange (Gitea: ten minutes). */
export const CODE_LIFETIME_MS = 10 * 60_000;

/** The parameters of an authorization request, as sent (absent ones empty). */
export interface AuthorizationRequest {
  responseType: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  codeChallengeMethod: string;
}

/** What the authorization endpoint does next. */
export type AuthorizationStep =
  /** Nobody is signed in: show the sign-in form. */
  | { kind: 'signIn'; app: Application }
  /** Ask the user: the application, its owner, the scopes it asks for and the API access its tokens would have. */
  | { kind: 'consent'; app: Application; owner: string; scopes: string[]; apiScope: string }
  /** Send the browser back to the client, with a code. */
  | { kind: 'redirect'; location: string };

const MAX_PARAM = 1024;

/**
 * Checks a request in Gitea's order. An unknown client or a redirect URI that is not registered are refused
 * without redirecting (never to an unregistered URI); everything after that is reported to the redirect URI.
 * @throws DomainError carrying an OAuthFailure (oauthError.ts)
 */
async function checkRequest(cx: ServiceContext, req: AuthorizationRequest): Promise<Application> {
  const app = await findClient(cx, req.clientId);
  if (!app) throw oauthError('unauthorized_client', 'Client ID not registered');
  if (!redirectUriAllowed(app, req.redirectUri)) throw oauthError('invalid_request', 'Unregistered Redirect URI');
  const redirect: OAuthFailure['redirect'] = { uri: req.redirectUri, state: req.state.slice(0, MAX_PARAM) };
  if (req.responseType !== 'code') throw oauthError('unsupported_response_type', 'Only code response type is supported.', redirect);
  for (const [name, value] of Object.entries({ state: req.state, scope: req.scope, nonce: req.nonce })) {
    if (value.length > MAX_PARAM) throw oauthError('invalid_request', `${name} is too long (at most ${MAX_PARAM} characters)`, redirect);
  }
  const method = req.codeChallengeMethod;
  if (method !== '' && method !== 'S256' && method !== 'plain')
    throw oauthError('invalid_request', 'unsupported code challenge method', redirect);
  if (req.codeChallenge === '') {
    // RFC 8252 §8.1 / RFC 7636 §4.4.1, as Gitea: public clients must use PKCE.
    if (!app.confidentialClient) throw oauthError('invalid_request', 'PKCE is required for public clients', redirect);
    if (method) throw oauthError('invalid_request', 'code_challenge is required with code_challenge_method', redirect);
  } else if (!/^[A-Za-z0-9._~-]{43,128}$/.test(req.codeChallenge)) {
    throw oauthError('invalid_request', 'code_challenge must be 43 to 128 unreserved characters (RFC 7636)', redirect);
  }
  return app;
}

/** The request's scopes, normalized (distinct, single spaces). */
const scopeOf = (req: AuthorizationRequest): string => splitScope(req.scope).join(' ');

/**
 * Hands out a code for `grant` (single use, CODE_LIFETIME_MS) and returns where to send the browser; codes that
 * expired anywhere are deleted on the way, so the table holds only live and recently used ones.
 */
async function issueCode(db: DbLike, grant: Models.OAuth2Grant, req: AuthorizationRequest): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = Date.now();
  await db.oAuth2AuthorizationCode.deleteMany({ where: { validUntil: { lt: new Date(now) } } });
  await db.oAuth2AuthorizationCode.create({
    data: {
      grantId: grant.id,
      codeHash: hashToken(code),
      redirectUri: req.redirectUri,
      scope: scopeOf(req),
      nonce: req.nonce,
      codeChallenge: req.codeChallenge,
      // RFC 7636 §4.3: a challenge without a method is `plain`.
      codeChallengeMethod: req.codeChallenge ? req.codeChallengeMethod || 'plain' : '',
      validUntil: new Date(now + CODE_LIFETIME_MS),
    },
  });
  return withQuery(req.redirectUri, { code, state: req.state });
}

/**
 * The authorization endpoint (GET /login/oauth/authorize): checks the request, then asks for a sign-in, or for
 * consent, or (the user already granted these scopes to a confidential or trusted client: RFC 6749 §10.2 keeps
 * asking public ones) answers the client with a code at once.
 * @throws DomainError carrying an OAuthFailure
 */
export async function authorize(cx: ServiceContext, req: AuthorizationRequest): Promise<AuthorizationStep> {
  const app = await checkRequest(cx, req);
  if (!cx.viewer) return { kind: 'signIn', app };
  const grant = await cx.db.oAuth2Grant.findUnique({ where: { userId_applicationId: { userId: cx.viewer.id, applicationId: app.id } } });
  if (grant && oauthScopeWithin(req.scope, grant.scope) && (app.confidentialClient || app.skipSecondaryAuthorization)) {
    return { kind: 'redirect', location: await issueCode(cx.db, grant, req) };
  }
  const owner = await cx.db.user.findUnique({ where: { id: app.userId }, select: { name: true } });
  return { kind: 'consent', app, owner: owner?.name ?? '', scopes: splitScope(req.scope), apiScope: tokenScopeOf(req.scope) };
}

/**
 * The user's answer on the consent page (POST /login/oauth/grant): a refusal goes back to the client as
 * `access_denied`; a grant is remembered (widened to these scopes) and answered with a code.
 * @throws UnauthenticatedError when nobody is signed in; DomainError carrying an OAuthFailure
 */
export async function answerConsent(cx: ServiceContext, req: AuthorizationRequest, granted: boolean): Promise<string> {
  const viewer = requireViewer(cx);
  const app = await checkRequest(cx, req);
  if (!granted) throw oauthError('access_denied', 'the request is denied', { uri: req.redirectUri, state: req.state });
  const key = { userId_applicationId: { userId: viewer.id, applicationId: app.id } };
  const existing = await cx.db.oAuth2Grant.findUnique({ where: key });
  const scope = [...new Set([...splitScope(existing?.scope ?? ''), ...splitScope(req.scope)])].join(' ');
  const grant = await cx.db.oAuth2Grant.upsert({
    where: key,
    create: { userId: viewer.id, applicationId: app.id, scope },
    update: { scope },
  });
  return issueCode(cx.db, grant, req);
}
