import type { Application } from '../../services/oauth/application.ts';
import type { GrantWithApplication } from '../../services/oauth/grant.ts';
import type { OAuth2Application, OAuth2Grant } from '../structs/oauth2.ts';
import { apiTime } from './time.ts';

/** Gitea convert.ToOAuth2Application; `secret` only right after it was made (create, update). */
export function toApiOAuth2Application(app: Application, secret = ''): OAuth2Application {
  return {
    id: app.id,
    name: app.name,
    client_id: app.clientId,
    client_secret: secret,
    redirect_uris: app.redirectUris,
    confidential_client: app.confidentialClient,
    skip_secondary_authorization: app.skipSecondaryAuthorization,
    created: apiTime(app.createdAt),
  };
}

/** A grant with its application's name and client id. */
export function toApiOAuth2Grant(grant: GrantWithApplication): OAuth2Grant {
  return {
    id: grant.id,
    application_id: grant.applicationId,
    application_name: grant.application.name,
    client_id: grant.application.clientId,
    scope: grant.scope,
    created: apiTime(grant.createdAt),
    updated: apiTime(grant.updatedAt),
  };
}
