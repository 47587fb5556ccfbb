import * as deliveryService from '../../../services/webhook/delivery.ts';
import { toApiHookDelivery, toApiHookDeliveryList } from '../../convert/hook.ts';
import { defineList } from '../../list.ts';
import { idParam, intParam } from '../../params.ts';
import { idOf } from '../../pathParams.ts';
import { defineRoute, type RouteDef } from '../../route.ts';
import { HOOK_PLACES, type HookPlace } from './scopes.ts';

const IDS = { id: idOf('hook'), delivery_id: idOf('delivery') };

function deliveryRoutes(place: HookPlace): RouteDef[] {
  const { base, op, tag, scopes, gate } = place;
  const common = { tag, scopes, gate, params: IDS };
  return [
    defineList({
      ...common,
      path: `${base}/{id}/deliveries`,
      operationId: `${op}ListHookDeliveries`,
      summary: "List a hook's deliveries, newest first (Forgegraph extension)",
      headers: 'link',
      schema: '[HookDeliverySummary]',
      errors: [401, 403, 404],
      load: ({ cx, params, page }) => deliveryService.listDeliveries(cx, place.scope(params), idParam(params), page),
      convert: (result) => toApiHookDeliveryList(result.items),
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: `${base}/{id}/deliveries/{delivery_id}`,
      operationId: `${op}GetHookDelivery`,
      summary: 'Get a delivery with its request and response (Forgegraph extension)',
      success: { status: 200, schema: 'HookDelivery' },
      errors: [401, 403, 404],
      handler: async ({ cx, params }) =>
        toApiHookDelivery(await deliveryService.getDelivery(cx, place.scope(params), idParam(params), intParam(params.delivery_id))),
    }),
    defineRoute({
      ...common,
      method: 'POST',
      path: `${base}/{id}/deliveries/{delivery_id}/attempts`,
      operationId: `${op}RedeliverHookDelivery`,
      summary: 'Redeliver a delivery: a new delivery of the same payload (Forgegraph extension)',
      success: { status: 202, schema: 'HookDelivery' },
      errors: [401, 403, 404],
      handler: async ({ cx, params }) =>
        toApiHookDelivery(await deliveryService.redeliver(cx, place.scope(params), idParam(params), intParam(params.delivery_id))),
    }),
  ];
}

/** Deliveries of every kind of hook (beyond Gitea; GitHub's /hooks/{id}/deliveries as the model). */
export const hookDeliveryRoutes: RouteDef[] = HOOK_PLACES.flatMap(deliveryRoutes);
