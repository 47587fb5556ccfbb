import type { DeliveryView } from '../../services/webhook/delivery.ts';
import { hookEventNames, parseHookEvent } from '../../services/webhook/hookEvents.ts';
import { parseSlackMeta } from '../../services/webhook/validate.ts';
import type { WebhookView } from '../../services/webhook/webhook.ts';
import type { Hook, HookDelivery, HookDeliverySummary } from '../structs/hook.ts';
import { apiTime } from './time.ts';

function settingsUrl(v: WebhookView, rootUrl: string): string {
  const id = v.hook.id;
  switch (v.scope.kind) {
    case 'repo':
      return `${rootUrl}${v.scope.ownerName}/${v.scope.repoName}/settings/hooks/${id}`;
    case 'org':
      return `${rootUrl}org/${v.scope.ownerName}/settings/hooks/${id}`;
    case 'user':
      return `${rootUrl}user/settings/hooks/${id}`;
    case 'admin':
      return `${rootUrl}-/admin/hooks/${id}`;
  }
}

/** Gitea ToHook: config url and content type (plus slack's settings), never the secret or the authorization header. */
export function toApiHook(v: WebhookView, rootUrl: string): Hook {
  const h = v.hook;
  const config: Record<string, string> = { url: h.url, content_type: h.contentType === 'FORM' ? 'form' : 'json' };
  if (h.type === 'SLACK') {
    const meta = parseSlackMeta(h.meta);
    Object.assign(config, { channel: meta.channel, username: meta.username, icon_url: meta.icon_url, color: meta.color });
  }
  return {
    id: h.id,
    type: h.type.toLowerCase(),
    name: h.name,
    branch_filter: h.branchFilter,
    url: settingsUrl(v, rootUrl),
    config,
    events: hookEventNames(parseHookEvent(h.events)),
    authorization_header: '',
    active: h.isActive,
    updated_at: apiTime(h.updatedAt),
    created_at: apiTime(h.createdAt),
    last_status: h.lastStatus === 'SUCCEED' ? 'succeed' : h.lastStatus === 'FAIL' ? 'fail' : 'none',
    deliveries_succeeded: v.stats.succeeded,
    deliveries_failed: v.stats.failed,
    deliveries_pending: v.stats.pending,
  };
}

/** A list of hooks. */
export function toApiHookList(views: readonly WebhookView[], rootUrl: string): Hook[] {
  return views.map((v) => toApiHook(v, rootUrl));
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
}

/** A delivery in a list: state, figures and timing. */
export function toApiHookDeliverySummary(t: DeliveryView): HookDeliverySummary {
  const payload = parseJson(t.payloadContent);
  const action =
    payload && typeof payload === 'object' && 'action' in payload && typeof payload.action === 'string' ? payload.action : null;
  return {
    id: t.id,
    guid: t.uuid,
    hook_id: t.hookId,
    event: t.eventType,
    action,
    // Gitea's is_delivered: an attempt was made. (The row's isDelivered means "no more attempts": the status.)
    delivered: t.attempts > 0,
    succeeded: t.isSucceed,
    delivered_at: t.deliveredAt ? apiTime(t.deliveredAt) : null,
    redelivery: t.isRedelivery,
    status: t.isSucceed ? 'succeed' : t.isDelivered ? 'fail' : 'pending',
    status_code: t.statusCode,
    duration: t.durationMs / 1000,
    attempts: t.attempts,
    next_attempt_at: t.nextAttemptAt ? apiTime(t.nextAttemptAt) : null,
    created_at: apiTime(t.createdAt),
  };
}

/** A list of deliveries. */
export function toApiHookDeliveryList(tasks: readonly DeliveryView[]): HookDeliverySummary[] {
  return tasks.map(toApiHookDeliverySummary);
}

/** One delivery with its payload, the request sent (authorization redacted) and the response. */
export function toApiHookDelivery(t: DeliveryView): HookDelivery {
  return {
    ...toApiHookDeliverySummary(t),
    payload: parseJson(t.payloadContent),
    request: (parseJson(t.requestContent) as HookDelivery['request']) ?? null,
    response: (parseJson(t.responseContent) as HookDelivery['response']) ?? null,
  };
}
