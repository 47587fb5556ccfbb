import { z } from 'zod';
import { qOneOf } from '../params.ts';
import { zBool } from '../validation.ts';

/**
 * Gitea `Hook` (modules/structs/hook.go, services/webhook/general.go ToHook): `authorization_header` is always
 * "" (write-only), `config.secret` never shown. Beyond Gitea (additive): `last_status` and delivery counts.
 */
export const Hook = z.object({
  id: z.number().int(),
  type: z.string(),
  name: z.string(),
  branch_filter: z.string(),
  url: z.string(),
  config: z.record(z.string(), z.string()),
  events: z.array(z.string()),
  authorization_header: z.string(),
  active: z.boolean(),
  updated_at: z.string(),
  created_at: z.string(),
  /** Forgegraph: the outcome of the latest finished delivery: `none`, `succeed` or `fail`. */
  last_status: z.enum(['none', 'succeed', 'fail']),
  /** Forgegraph: deliveries that got a 2xx answer. */
  deliveries_succeeded: z.number().int(),
  /** Forgegraph: deliveries that finished without one (after their last attempt). */
  deliveries_failed: z.number().int(),
  /** Forgegraph: deliveries queued or waiting for a retry. */
  deliveries_pending: z.number().int(),
});
/** A Gitea Hook as sent on the wire. */
export type Hook = z.infer<typeof Hook>;

/** Gitea `CreateHookOption`: `type` and `config` required; `active` defaults to false. */
export const CreateHookOption = z.object({
  type: z.string().min(1),
  config: z.record(z.string(), z.string()),
  events: z.array(z.string()).nullish(),
  branch_filter: z.string().nullish(),
  authorization_header: z.string().nullish(),
  active: zBool.nullish(),
  name: z.string().nullish(),
});

/** Gitea `EditHookOption`. */
export const EditHookOption = z.object({
  config: z.record(z.string(), z.string()).nullish(),
  events: z.array(z.string()).nullish(),
  branch_filter: z.string().nullish(),
  authorization_header: z.string().nullish(),
  active: zBool.nullish(),
  name: z.string().nullish(),
});

/** Query of GET /admin/hooks. */
export const ListAdminHooksQuery = z.object({
  type: qOneOf(['system', 'default', 'all'], 'system, default or both kinds of webhooks'),
});

/** Forgegraph `HookDeliveryRequest` / `HookDeliveryResponse`: what was sent and what came back. */
const HookDeliveryRequest = z.object({
  url: z.string(),
  http_method: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});
const HookDeliveryResponse = z.object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string() });

/**
 * Forgegraph `HookDelivery` (beyond Gitea, modelled on GitHub's hook deliveries and Gitea's hook_task): one
 * delivery with its latest attempt; `guid` is X-Gitea-Delivery. The flags mean what Gitea's hook_task flags mean:
 * `delivered` (is_delivered) says an attempt was made, whatever its outcome; `succeeded` (is_succeed) says the
 * latest attempt was answered with a 2xx. `status` sums them up: `pending` (more attempts will be made: none yet,
 * or a retry at `next_attempt_at`), `succeed`, or `fail` (no more attempts: each failed, or the hook was
 * inactive and nothing was sent).
 */
export const HookDelivery = z.object({
  id: z.number().int(),
  guid: z.string(),
  hook_id: z.number().int(),
  event: z.string(),
  action: z.string().nullable(),
  delivered: z.boolean(),
  succeeded: z.boolean(),
  delivered_at: z.string().nullable(),
  redelivery: z.boolean(),
  status: z.enum(['pending', 'succeed', 'fail']),
  status_code: z.number().int(),
  duration: z.number(),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  payload: z.unknown(),
  request: HookDeliveryRequest.nullable(),
  response: HookDeliveryResponse.nullable(),
});
/** A delivery as sent on the wire. */
export type HookDelivery = z.infer<typeof HookDelivery>;

/** Forgegraph `HookDeliverySummary`: a delivery in a list (without request and response bodies). */
export const HookDeliverySummary = HookDelivery.omit({ payload: true, request: true, response: true });
/** A delivery in a list. */
export type HookDeliverySummary = z.infer<typeof HookDeliverySummary>;
