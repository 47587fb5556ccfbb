// GET/POST /login/oauth/authorize and POST /login/oauth/grant: the browser side of the authorization code flow.
// Each request is parsed here and decided by services/oauth/authorizationService.ts; refusals the service marks as
// redirectable go back to the client, the others get an error page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo } from '../auth/authInfo.ts';
import { accountBlock, signInWithPassword } from '../auth/authenticate.ts';
import { LoginThrottledError } from '../auth/loginThrottle.ts';
import { issueSession, resolveSession } from '../auth/webSession.ts';
import type { Models } from '../db/client.ts';
import { UnauthenticatedError } from '../errors.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import * as authorizationService from '../services/oauth/authorization.ts';
import { oauthFailureOf } from '../services/oauth/oauthError.ts';
import { withQuery } from '../services/oauth/redirectUri.ts';
import { csrfCookie, csrfToken, csrfValid, readCookie, SESSION_COOKIE, setCookie } from './browserState.ts';
import { consentPage, errorPage, signInPage, type Hidden } from './pages.ts';
import { fieldsOf, type Fields } from './fields.ts';

/** The authorization request's parameters, by their OAuth names, in a fixed order. */
const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
] as const;

type ConsentStep = Extract<authorizationService.AuthorizationStep, { kind: 'consent' }>;

/** A signed-in browser acts with the rights of a password sign-in. */
const SIGNED_IN: AuthInfo = { method: 'password', scope: null, tokenId: null, sudoerId: null };

function requestOf(fields: Fields): authorizationService.AuthorizationRequest {
  const f = (name: (typeof PARAMS)[number]) => fields[name] ?? '';
  return {
    responseType: f('response_type'),
    clientId: f('client_id'),
    redirectUri: f('redirect_uri'),
    scope: f('scope'),
    state: f('state'),
    nonce: f('nonce'),
    codeChallenge: f('code_challenge'),
    codeChallengeMethod: f('code_challenge_method'),
  };
}

const hiddenOf = (fields: Fields): Hidden => Object.fromEntries(PARAMS.map((p) => [p, fields[p] ?? '']));
const paramValues = (fields: Fields): string[] => PARAMS.map((p) => fields[p] ?? '');

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .header('referrer-policy', 'no-referrer')
    .send(body);
}

function errorHtml(reply: FastifyReply, deps: AppDeps, status: number, title: string, description: string): FastifyReply {
  return html(reply, status, errorPage({ appName: deps.config.appName, title, description }));
}

/** A refusal of the service: to the client when it may go there (RFC 6749 §4.1.2.1), else on an error page. */
function refuse(reply: FastifyReply, deps: AppDeps, err: unknown, redirectStatus: 302 | 303): FastifyReply {
  const failure = oauthFailureOf(err);
  if (!failure) throw err;
  if (!failure.redirect) return errorHtml(reply, deps, 400, 'Authorization failed', failure.description);
  const { uri, state } = failure.redirect;
  return reply.redirect(withQuery(uri, { error: failure.error, error_description: failure.description, state }), redirectStatus);
}

/** The signed-in user of the browser, if any. */
function sessionUser(req: FastifyRequest, deps: AppDeps): Promise<Models.User | null> {
  return resolveSession(deps.db, deps.config.secretKey, readCookie(req, SESSION_COOKIE));
}

/** The sign-in form for the request in `fields` (`status` and `message` after a failed attempt). */
function signInForm(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
  fields: Fields,
  clientName: string,
  failed?: { status: number; message: string },
) {
  const { config } = deps;
  const token = csrfToken(config.secretKey, csrfCookie(req, reply, config.rootUrl), 'signin', paramValues(fields));
  const page = signInPage({
    appName: config.appName,
    clientName,
    hidden: { ...hiddenOf(fields), _csrf: token },
    ...(failed ? { error: failed.message } : {}),
  });
  return html(reply, failed?.status ?? 200, page);
}

/** The consent form of `step` for `user`. */
function consentForm(req: FastifyRequest, reply: FastifyReply, deps: AppDeps, fields: Fields, user: Models.User, step: ConsentStep) {
  const { config } = deps;
  const token = csrfToken(config.secretKey, csrfCookie(req, reply, config.rootUrl), 'grant', [String(user.id), ...paramValues(fields)]);
  const page = consentPage({
    appName: config.appName,
    viewer: user.name,
    clientName: step.app.name,
    owner: step.owner,
    scopes: step.scopes,
    apiScope: step.apiScope,
    redirectUri: fields.redirect_uri ?? '',
    hidden: { ...hiddenOf(fields), _csrf: token },
  });
  return html(reply, 200, page);
}

/** GET /login/oauth/authorize: sign-in, consent, or back to the client, as the service decides for the browser's user. */
async function showAuthorization(req: FastifyRequest, reply: FastifyReply, deps: AppDeps, fields: Fields) {
  const user = await sessionUser(req, deps);
  const blocked = user && accountBlock(user, deps.config.rootUrl);
  if (blocked) return errorHtml(reply, deps, 403, 'Sign-in refused', blocked);
  let step: authorizationService.AuthorizationStep;
  try {
    step = await authorizationService.authorize(createServiceContext(deps, user, user ? SIGNED_IN : undefined), requestOf(fields));
  } catch (err) {
    return refuse(reply, deps, err, 302);
  }
  if (step.kind === 'redirect') return reply.redirect(step.location, 302);
  if (step.kind === 'signIn' || !user) return signInForm(req, reply, deps, fields, step.app.name);
  return consentForm(req, reply, deps, fields, user, step);
}

/** POST /login/oauth/authorize: the sign-in form, a password sign-in throttled as on the API; then the authorization goes on. */
async function submitSignIn(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
  const { config } = deps;
  const fields = fieldsOf(req.body);
  if (!csrfValid(req, config.secretKey, 'signin', paramValues(fields), fields._csrf ?? '')) {
    return errorHtml(reply, deps, 400, 'Bad request', 'Invalid CSRF token: reload the page and try again.');
  }
  let clientName: string;
  try {
    const step = await authorizationService.authorize(createServiceContext(deps, null), requestOf(fields));
    clientName = step.kind === 'signIn' ? step.app.name : '';
  } catch (err) {
    return refuse(reply, deps, err, 303);
  }
  const attempt = {
    clientIp: req.ip,
    throttle: deps.loginThrottle,
    tokenCache: deps.tokenCache,
    oauthKeys: deps.oauthKeys,
    passwordHash: deps.config.passwordHash,
  };
  let user: Models.User;
  try {
    user = await signInWithPassword(deps.db, fields.user_name ?? '', fields.password ?? '', attempt);
  } catch (err) {
    if (err instanceof LoginThrottledError) {
      reply.header('retry-after', String(err.refusal.retryAfterSeconds));
      return signInForm(req, reply, deps, fields, clientName, { status: 429, message: err.message });
    }
    if (!(err instanceof UnauthenticatedError)) throw err;
    return signInForm(req, reply, deps, fields, clientName, { status: 401, message: 'Username or password is incorrect.' });
  }
  const blocked = accountBlock(user, config.rootUrl);
  if (blocked) return errorHtml(reply, deps, 403, 'Sign-in refused', blocked);
  setCookie(reply, config.rootUrl, SESSION_COOKIE, issueSession(config.secretKey, user));
  const query = new URLSearchParams(PARAMS.flatMap((p) => (fields[p] ? [[p, fields[p]]] : [])));
  return reply.redirect(`authorize?${query.toString()}`, 303);
}

/** POST /login/oauth/grant: the consent form's answer, from the signed-in user whose form it was. */
async function submitConsent(req: FastifyRequest, reply: FastifyReply, deps: AppDeps) {
  const fields = fieldsOf(req.body);
  const user = await sessionUser(req, deps);
  if (!user) return showAuthorization(req, reply, deps, fields);
  const blocked = accountBlock(user, deps.config.rootUrl);
  if (blocked) return errorHtml(reply, deps, 403, 'Sign-in refused', blocked);
  if (!csrfValid(req, deps.config.secretKey, 'grant', [String(user.id), ...paramValues(fields)], fields._csrf ?? '')) {
    return errorHtml(reply, deps, 400, 'Bad request', 'Invalid CSRF token: reload the page and try again.');
  }
  try {
    const cx = createServiceContext(deps, user, SIGNED_IN);
    return reply.redirect(await authorizationService.answerConsent(cx, requestOf(fields), fields.granted === 'true'), 303);
  } catch (err) {
    return refuse(reply, deps, err, 303);
  }
}

/** Mounts the authorization endpoint, its sign-in form and the consent form. */
export function authorizeRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/login/oauth/authorize', (req, reply) => showAuthorization(req, reply, deps, fieldsOf(req.query)));
  app.post('/login/oauth/authorize', (req, reply) => submitSignIn(req, reply, deps));
  app.post('/login/oauth/grant', (req, reply) => submitConsent(req, reply, deps));
}
