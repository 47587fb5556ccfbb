// Actions secrets and variables of a repository, an organization and the user (Gitea routers/api/v1/{repo,org,
// user}/action.go): one set of routes per scope, the same service calls behind each.
import * as secrets from '../../../services/actions/actionSecrets.ts';
import * as variables from '../../../services/actions/actionVariables.ts';
import { toApiSecret, toApiVariable } from '../../convert/actions.ts';
import { defineList } from '../../list.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CreateOrUpdateSecretOption, CreateVariableOption, UpdateVariableOption } from '../../structs/actions.ts';
import { ORG_SCOPE, REPO_SCOPE, USER_SCOPE, type ActionsScopeDef } from './actionRunners.ts';
import type { SettingsRef } from '../../../services/actions/settingsScope.ts';

const secretName = { secretname: { schema: { type: 'string' as const }, description: 'name of the secret' } };
const variableName = { variablename: { schema: { type: 'string' as const }, description: 'name of the variable' } };

/** The scope's secret routes; `listed` = it has a list (the user's has none in Gitea). */
function secretRoutes(s: ActionsScopeDef<SettingsRef>, listed: boolean): RouteDef[] {
  const ref = s.ref;
  const doc = { tag: s.tag, scopes: s.scopes, gate: s.gate };
  const routes: RouteDef[] = [
    defineRoute({
      method: 'PUT',
      path: `${s.prefix}/actions/secrets/{secretname}`,
      operationId: `update${s.name}Secret`,
      summary: `Create or update a ${s.what} secret`,
      ...doc,
      params: secretName,
      body: CreateOrUpdateSecretOption,
      success: { status: 201, description: 'the secret was created' },
      also: [{ status: 204, description: 'the secret was updated' }],
      errors: [400, 401, 403, 404, 422],
      handler: async ({ cx, params, body, reply }) => {
        const input = { name: params.secretname ?? '', data: body.data, description: body.description ?? '' };
        const { created } = await secrets.setSecret(cx, ref(params), input);
        return reply.code(created ? 201 : 204).send();
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${s.prefix}/actions/secrets/{secretname}`,
      operationId: `delete${s.name}Secret`,
      summary: `Delete a ${s.what} secret`,
      ...doc,
      params: secretName,
      success: { status: 204 },
      errors: [400, 401, 403, 404],
      handler: async ({ cx, params }) => {
        await secrets.deleteSecret(cx, ref(params), params.secretname ?? '');
      },
    }),
  ];
  if (!listed) return routes;
  return [
    defineList({
      path: `${s.prefix}/actions/secrets`,
      operationId: `${s.name.toLowerCase()}ListActionsSecrets`,
      summary: `List ${s.what} actions secrets`,
      ...doc,
      headers: 'count',
      schema: '[Secret]',
      errors: [401, 403, 404],
      load: ({ cx, params, page }) => secrets.listSecrets(cx, ref(params), page),
      convert: (result) => result.items.map(toApiSecret),
    }),
    ...routes,
  ];
}

function variableRoutes(s: ActionsScopeDef<SettingsRef>): RouteDef[] {
  const ref = s.ref;
  const doc = { tag: s.tag, scopes: s.scopes, gate: s.gate, params: variableName };
  const path = `${s.prefix}/actions/variables/{variablename}`;
  return [
    defineList({
      path: `${s.prefix}/actions/variables`,
      operationId: `get${s.name}VariablesList`,
      summary: `Get ${s.what} variables list`,
      tag: s.tag,
      scopes: s.scopes,
      gate: s.gate,
      headers: 'count',
      schema: '[ActionVariable]',
      errors: [400, 401, 403, 404],
      load: ({ cx, params, page }) => variables.listVariables(cx, ref(params), page),
      convert: (result) => result.items.map(toApiVariable),
    }),
    defineRoute({
      method: 'GET',
      path,
      operationId: `get${s.name}Variable`,
      summary: `Get a ${s.what} variable`,
      ...doc,
      success: { status: 200, schema: 'ActionVariable' },
      errors: [400, 401, 403, 404],
      handler: async ({ cx, params }) => toApiVariable(await variables.getVariable(cx, ref(params), params.variablename ?? '')),
    }),
    defineRoute({
      method: 'POST',
      path,
      operationId: `create${s.name}Variable`,
      summary: `Create a ${s.what} variable`,
      ...doc,
      body: CreateVariableOption,
      success: { status: 201 },
      errors: [400, 401, 403, 404, 409, 422],
      handler: async ({ cx, params, body, reply }) => {
        const input = { name: params.variablename ?? '', value: body.value, description: body.description ?? '' };
        await variables.createVariable(cx, ref(params), input);
        return reply.code(201).send();
      },
    }),
    defineRoute({
      method: 'PUT',
      path,
      operationId: `update${s.name}Variable`,
      summary: `Update a ${s.what} variable`,
      ...doc,
      body: UpdateVariableOption,
      success: { status: 204 },
      errors: [400, 401, 403, 404, 409, 422],
      handler: async ({ cx, params, body }) => {
        const input = { name: params.variablename ?? '', newName: body.name ?? '', value: body.value, description: body.description ?? '' };
        await variables.updateVariable(cx, ref(params), input);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path,
      operationId: `delete${s.name}Variable`,
      summary: `Delete a ${s.what} variable`,
      ...doc,
      success: { status: 204 },
      errors: [400, 401, 403, 404],
      handler: async ({ cx, params }) => {
        await variables.deleteVariable(cx, ref(params), params.variablename ?? '');
      },
    }),
  ];
}

/** Secrets and variables of every scope. */
export const actionSettingRoutes: RouteDef[] = [
  ...secretRoutes(REPO_SCOPE, true),
  ...secretRoutes(ORG_SCOPE, true),
  ...secretRoutes(USER_SCOPE, false),
  ...[REPO_SCOPE, ORG_SCOPE, USER_SCOPE].flatMap(variableRoutes),
];
