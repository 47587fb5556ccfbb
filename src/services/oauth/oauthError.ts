// RFC 6749's error codes, carried by domain errors as `data.oauth` so the OAuth2 transport can answer them as
// the RFC wants: a JSON `{error, error_description}` from the token endpoint, a redirect to the client from the
// authorization endpoint when the redirect URI is known to be registered, an error page otherwise.
import { DomainError, InvalidArgumentError, PermissionDeniedError, UnauthenticatedError } from '../../errors.ts';

/** RFC 6749 §4.1.2.1 and §5.2 error codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'access_denied'
  | 'server_error';

/** An OAuth2 refusal: its code and description, and where the client waits for it (authorization requests). */
export interface OAuthFailure {
  error: OAuthErrorCode;
  description: string;
  /** A registered redirect URI and the request's `state`: the refusal may be sent there. */
  redirect?: { uri: string; state: string };
}

/** The domain error for an OAuth2 refusal (invalid_client: Unauthenticated; access_denied: PermissionDenied). */
export function oauthError(error: OAuthErrorCode, description: string, redirect?: OAuthFailure['redirect']): DomainError {
  const oauth: OAuthFailure = { error, description, ...(redirect ? { redirect } : {}) };
  if (error === 'invalid_client') return new UnauthenticatedError(description, { oauth });
  if (error === 'access_denied') return new PermissionDeniedError(description, { oauth });
  return new InvalidArgumentError(description, { oauth });
}

/** The OAuth2 refusal an error carries, if it is one. */
export function oauthFailureOf(err: unknown): OAuthFailure | null {
  if (!(err instanceof DomainError)) return null;
  const oauth = err.data.oauth as OAuthFailure | undefined;
  return oauth && typeof oauth.error === 'string' ? oauth : null;
}
