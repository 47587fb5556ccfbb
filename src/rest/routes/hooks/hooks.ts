import * as deliveryService from '../../../services/webhook/delivery.ts';
import * as webhookService from '../../../services/webhook/webhook.ts';
import { toApiHook, toApiHookList } from '../../convert/hook.ts';
import { defineList } from '../../list.ts';
import { idParam, qString } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { CreateHookOption, EditHookOption, ListAdminHooksQuery } from '../../structs/hook.ts';
import { z } from 'zod';
import { HOOK_PLACES, type HookPlace } from './scopes.ts';

const HOOK_ID = { id: idOf('hook') };
const TestHookQuery = z.object({
  ref: qString('The name of the commit/branch/tag, indicates which commit will be loaded to the webhook payload.'),
});

const label = { repo: 'a repository', org: 'an organization', user: 'the authenticated user', admin: 'the site' } as const;

function crud(place: HookPlace): RouteDef[] {
  const { base, op, tag, scopes, gate } = place;
  const common = { tag, scopes, gate };
  return [
    place.op === 'admin'
      ? defineList({
          ...common,
          path: base,
          operationId: 'adminListHooks',
          summary: "List system's webhooks",
          query: ListAdminHooksQuery,
          headers: 'link',
          schema: '[Hook]',
          errors: [401, 403],
          load: ({ cx, query, page }) => webhookService.listHooks(cx, place.scope({}), page, query.type ?? 'system'),
          convert: (result, { cx }) => toApiHookList(result.items, cx.config.rootUrl),
        })
      : defineList({
          ...common,
          path: base,
          operationId: `${op}ListHooks`,
          summary: `List the hooks of ${label[op]}`,
          headers: 'link',
          schema: '[Hook]',
          errors: [401, 403, 404],
          load: ({ cx, params, page }) => webhookService.listHooks(cx, place.scope(params), page),
          convert: (result, { cx }) => toApiHookList(result.items, cx.config.rootUrl),
        }),
    defineRoute({
      ...common,
      method: 'POST',
      path: base,
      operationId: `${op}CreateHook`,
      summary: `Create a hook for ${label[op]}`,
      body: CreateHookOption,
      success: { status: 201, schema: 'Hook' },
      errors: [400, 401, 403, 404, 422],
      handler: async ({ cx, params, body }) =>
        toApiHook(
          await webhookService.createHook(cx, place.scope(params), {
            type: body.type,
            config: body.config,
            events: body.events ?? [],
            ...(body.branch_filter != null ? { branchFilter: body.branch_filter } : {}),
            ...(body.authorization_header != null ? { authorizationHeader: body.authorization_header } : {}),
            active: body.active ?? false,
            ...(body.name != null ? { name: body.name } : {}),
          }),
          cx.config.rootUrl,
        ),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: `${base}/{id}`,
      operationId: `${op}GetHook`,
      summary: `Get a hook of ${label[op]}`,
      params: HOOK_ID,
      success: { status: 200, schema: 'Hook' },
      errors: [401, 403, 404],
      handler: async ({ cx, params }) =>
        toApiHook(await webhookService.getHook(cx, place.scope(params), idParam(params)), cx.config.rootUrl),
    }),
    defineRoute({
      ...common,
      method: 'PATCH',
      path: `${base}/{id}`,
      operationId: `${op}EditHook`,
      summary: `Edit a hook of ${label[op]}`,
      params: HOOK_ID,
      body: EditHookOption,
      success: { status: 200, schema: 'Hook' },
      errors: [401, 403, 404, 422],
      handler: async ({ cx, params, body }) =>
        toApiHook(
          await webhookService.editHook(cx, place.scope(params), idParam(params), {
            ...(body.config != null ? { config: body.config } : {}),
            events: body.events ?? [],
            ...(body.branch_filter != null ? { branchFilter: body.branch_filter } : {}),
            ...(body.authorization_header != null ? { authorizationHeader: body.authorization_header } : {}),
            ...(body.active != null ? { active: body.active } : {}),
            ...(body.name != null ? { name: body.name } : {}),
          }),
          cx.config.rootUrl,
        ),
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: `${base}/{id}`,
      operationId: `${op}DeleteHook`,
      summary: `Delete a hook of ${label[op]}`,
      params: HOOK_ID,
      success: { status: 204 },
      errors: [401, 403, 404],
      handler: async ({ cx, params }) => {
        await webhookService.deleteHook(cx, place.scope(params), idParam(params));
      },
    }),
  ];
}

const repoPlace = HOOK_PLACES.find((p) => p.op === 'repo') as HookPlace;

/** Webhooks: /repos/{o}/{r}/hooks, /orgs/{org}/hooks, /user/hooks and /admin/hooks (Gitea's CRUD), plus the repository test delivery. */
export const hookRoutes: RouteDef[] = [
  ...HOOK_PLACES.flatMap(crud),
  defineRoute({
    method: 'POST',
    path: `${repoPlace.base}/{id}/tests`,
    operationId: 'repoTestHook',
    summary: 'Test a push webhook',
    tag: repoPlace.tag,
    scopes: repoPlace.scopes,
    gate: repoPlace.gate,
    params: HOOK_ID,
    query: TestHookQuery,
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params, query }) => {
      await deliveryService.testHook(cx, repoPlace.scope(params), idParam(params), query.ref);
    },
  }),
];
