// GET/POST /login/oauth/authorize and POST /login/oauth/grant: the browser side of the authorization code flow.
// Each request is parsed here and decided by services/oauth/authorization.ts; refusals the service marks as
// redirectable go back to the client, the others get an error page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo } from '../auth/authInfo.ts';
import { accountBlock, signInWithPassword } from '../auth/authenticate.ts';
import { LoginThrottledError } from '../auth/loginThrottle.ts';
import { issueSession, resolveSession } from '../auth/webSession.ts';
import { UnauthenticatedError } from '../errors.ts';
import { createServiceContext, type AppDeps } from '../services/context.ts';
import * as authorization from '../services/oauth/authorization.ts';
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

/** A signed-in browser acts with the rights of a password sign-in. */
const SIGNED_IN: AuthInfo = { method: 'password', scope: null, tokenId: null, sudoerId: null };

function requestOf(fields: Fields): authorization.AuthorizationRequest {
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

/** Mounts the authorization endpoint, its sign-in form and the consent form. */
export function authorizeRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config } = deps;
  const error = (reply: FastifyReply, status: number, title: string, description: string) =>
    html(reply, status, errorPage({ appName: config.appName, title, description }));

  /** A refusal of the service: to the client when it may go there, else on an error page. */
  const refuse = (reply: FastifyReply, err: unknown, redirectStatus: 302 | 303): FastifyReply => {
    const failure = oauthFailureOf(err);
    if (!failure) throw err;
    if (!failure.redirect) return error(reply, 400, 'Authorization failed', failure.description);
    const { uri, state } = failure.redirect;
    return reply.redirect(withQuery(uri, { error: failure.error, error_description: failure.description, state }), redirectStatus);
  };

  /** The signed-in user of the browser, if any. */
  const sessionUser = (req: FastifyRequest) => resolveSession(deps.db, config.secretKey, readCookie(req, SESSION_COOKIE));

  const signIn = (req: FastifyRequest, reply: FastifyReply, fields: Fields, clientName: string, status = 200, message?: string) => {
    const hidden = {
      ...hiddenOf(fields),
      _csrf: csrfToken(config.secretKey, csrfCookie(req, reply, config.rootUrl), 'signin', paramValues(fields)),
    };
    return html(reply, status, signInPage({ appName: config.appName, clientName, hidden, ...(message ? { error: message } : {}) }));
  };

  /** Where the request goes for a browser signed in as `user` (or nobody): sign-in, consent, or back to the client. */
  const proceed = async (req: FastifyRequest, reply: FastifyReply, fields: Fields) => {
    const user = await sessionUser(req);
    const blocked = user && accountBlock(user, config.rootUrl);
    if (blocked) return error(reply, 403, 'Sign-in refused', blocked);
    const cx = createServiceContext(deps, user, user ? SIGNED_IN : undefined);
    let step: authorization.AuthorizationStep;
    try {
      step = await authorization.authorize(cx, requestOf(fields));
    } catch (err) {
      return refuse(reply, err, 302);
    }
    switch (step.kind) {
      case 'redirect':
        return reply.redirect(step.location, 302);
      case 'signIn':
        return signIn(req, reply, fields, step.app.name);
      case 'consent': {
        const token = csrfToken(config.secretKey, csrfCookie(req, reply, config.rootUrl), 'grant', [
          String(user?.id),
          ...paramValues(fields),
        ]);
        return html(
          reply,
          200,
          consentPage({
            appName: config.appName,
            viewer: user?.name ?? '',
            clientName: step.app.name,
            owner: step.owner,
            scopes: step.scopes,
            apiScope: step.apiScope,
            redirectUri: fields.redirect_uri ?? '',
            hidden: { ...hiddenOf(fields), _csrf: token },
          }),
        );
      }
    }
  };

  app.get('/login/oauth/authorize', async (req, reply) => proceed(req, reply, fieldsOf(req.query)));

  // The sign-in form: a password sign-in, throttled as on the API; then the authorization goes on.
  app.post('/login/oauth/authorize', async (req, reply) => {
    const fields = fieldsOf(req.body);
    if (!csrfValid(req, config.secretKey, 'signin', paramValues(fields), fields._csrf ?? '')) {
      return error(reply, 400, 'Bad request', 'Invalid CSRF token: reload the page and try again.');
    }
    let clientName: string;
    try {
      const step = await authorization.authorize(createServiceContext(deps, null), requestOf(fields));
      clientName = step.kind === 'signIn' ? step.app.name : '';
    } catch (err) {
      return refuse(reply, err, 303);
    }
    const attempt = { clientIp: req.ip, throttle: deps.loginThrottle, tokenCache: deps.tokenCache, oauthKeys: deps.oauthKeys };
    let user;
    try {
      user = await signInWithPassword(deps.db, fields.user_name ?? '', fields.password ?? '', attempt);
    } catch (err) {
      if (err instanceof LoginThrottledError) {
        reply.header('retry-after', String(err.refusal.retryAfterSeconds));
        return signIn(req, reply, fields, clientName, 429, err.message);
      }
      if (err instanceof UnauthenticatedError) return signIn(req, reply, fields, clientName, 401, 'Username or password is incorrect.');
      throw err;
    }
    const blocked = accountBlock(user, config.rootUrl);
    if (blocked) return error(reply, 403, 'Sign-in refused', blocked);
    setCookie(reply, config.rootUrl, SESSION_COOKIE, issueSession(config.secretKey, user));
    const query = new URLSearchParams(PARAMS.flatMap((p) => (fields[p] ? [[p, fields[p]]] : [])));
    return reply.redirect(`authorize?${query.toString()}`, 303);
  });

  // The consent form's answer.
  app.post('/login/oauth/grant', async (req, reply) => {
    const fields = fieldsOf(req.body);
    const user = await sessionUser(req);
    if (!user) return proceed(req, reply, fields);
    const blocked = accountBlock(user, config.rootUrl);
    if (blocked) return error(reply, 403, 'Sign-in refused', blocked);
    if (!csrfValid(req, config.secretKey, 'grant', [String(user.id), ...paramValues(fields)], fields._csrf ?? '')) {
      return error(reply, 400, 'Bad request', 'Invalid CSRF token: reload the page and try again.');
    }
    try {
      const location = await authorization.answerConsent(
        createServiceContext(deps, user, SIGNED_IN),
        requestOf(fields),
        fields.granted === 'true',
      );
      return reply.redirect(location, 303);
    } catch (err) {
      return refuse(reply, err, 303);
    }
  });
}
