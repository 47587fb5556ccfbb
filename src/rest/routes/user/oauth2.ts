// /user/applications/oauth2: the viewer's OAuth2 applications (Gitea routers/api/v1/user/app.go), and
// /user/oauth2/grants: the applications the viewer authorized (Forgegraph extension).
import * as applicationService from '../../../services/oauth/application.ts';
import * as grantService from '../../../services/oauth/grant.ts';
import { toApiOAuth2Application, toApiOAuth2Grant } from '../../convert/oauth2.ts';
import { defineList } from '../../list.ts';
import { idParam } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute } from '../../route.ts';
import { CreateOAuth2ApplicationOptions } from '../../structs/oauth2.ts';

const APP_ID = { id: idOf('OAuth2 application') };
const common = { tag: 'user', scopes: ['user' as const], gate: 'token' as const };

const inputOf = (body: {
  name: string;
  redirect_uris: string[];
  confidential_client?: boolean;
  skip_secondary_authorization?: boolean;
}) => ({
  name: body.name,
  redirectUris: body.redirect_uris,
  confidentialClient: body.confidential_client ?? false,
  skipSecondaryAuthorization: body.skip_secondary_authorization ?? false,
});

export const oauth2Routes = [
  defineList({
    ...common,
    path: '/user/applications/oauth2',
    operationId: 'userGetOauth2Application',
    summary: "List the authenticated user's oauth2 applications",
    headers: 'count',
    schema: '[OAuth2Application]',
    errors: [401, 403],
    load: ({ cx, page }) => applicationService.listApplications(cx, page),
    convert: (result) => result.items.map((app) => toApiOAuth2Application(app)),
  }),
  defineRoute({
    ...common,
    method: 'POST',
    path: '/user/applications/oauth2',
    operationId: 'userCreateOAuth2Application',
    summary: 'creates a new OAuth2 application',
    body: CreateOAuth2ApplicationOptions,
    success: { status: 201, schema: 'OAuth2Application' },
    errors: [400, 401, 403, 422],
    handler: async ({ cx, body }) => {
      const { app, secret } = await applicationService.createApplication(cx, inputOf(body));
      return toApiOAuth2Application(app, secret);
    },
  }),
  defineRoute({
    ...common,
    method: 'GET',
    path: '/user/applications/oauth2/{id}',
    operationId: 'userGetOAuth2Application',
    summary: 'get an OAuth2 Application',
    params: APP_ID,
    success: { status: 200, schema: 'OAuth2Application' },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => toApiOAuth2Application(await applicationService.getApplication(cx, idParam(params))),
  }),
  defineRoute({
    ...common,
    method: 'PATCH',
    path: '/user/applications/oauth2/{id}',
    operationId: 'userUpdateOAuth2Application',
    summary: 'update an OAuth2 Application, this includes regenerating the client secret',
    params: APP_ID,
    body: CreateOAuth2ApplicationOptions,
    success: { status: 200, schema: 'OAuth2Application' },
    errors: [400, 401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const { app, secret } = await applicationService.updateApplication(cx, idParam(params), inputOf(body));
      return toApiOAuth2Application(app, secret);
    },
  }),
  defineRoute({
    ...common,
    method: 'DELETE',
    path: '/user/applications/oauth2/{id}',
    operationId: 'userDeleteOAuth2Application',
    summary: 'delete an OAuth2 Application',
    params: APP_ID,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await applicationService.deleteApplication(cx, idParam(params));
    },
  }),
  defineList({
    ...common,
    path: '/user/oauth2/grants',
    operationId: 'userListOAuth2Grants',
    summary: 'List the OAuth2 applications the authenticated user authorized (Forgegraph extension)',
    headers: 'count',
    schema: '[OAuth2Grant]',
    errors: [401, 403],
    load: ({ cx, page }) => grantService.listGrants(cx, page),
    convert: (result) => result.items.map(toApiOAuth2Grant),
  }),
  defineRoute({
    ...common,
    method: 'DELETE',
    path: '/user/oauth2/grants/{id}',
    operationId: 'userRevokeOAuth2Grant',
    summary: "Revoke an application's grant: every token it was given stops working (Forgegraph extension)",
    params: { id: idOf('grant') },
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await grantService.revokeGrant(cx, idParam(params));
    },
  }),
];
