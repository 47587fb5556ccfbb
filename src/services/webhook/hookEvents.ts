// Gitea's HookEvent (modules/webhook/hook_event.go) and the API's event names (routers/api/v1/utils/hook.go
// updateHookEvents): what a webhook is subscribed to, stored as JSON in Webhook.events.
import { z } from 'zod';

/** The event types a webhook can be subscribed to (Gitea HookEventType keys of HookEvents). */
export const HOOK_EVENT_KEYS = [
  'create',
  'delete',
  'fork',
  'push',
  'issues',
  'issue_assign',
  'issue_label',
  'issue_milestone',
  'issue_comment',
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_sync',
  'pull_request_review_request',
  'wiki',
  'repository',
  'release',
  'package',
  'status',
  'workflow_run',
  'workflow_job',
] as const;

/** One subscribable event key. */
export type HookEventKey = (typeof HOOK_EVENT_KEYS)[number];

/** The stored subscription. */
export interface HookEvent {
  push_only: boolean;
  send_everything: boolean;
  choose_events: boolean;
  events: Partial<Record<HookEventKey, boolean>>;
}

const Stored = z.object({
  push_only: z.boolean().optional(),
  send_everything: z.boolean().optional(),
  choose_events: z.boolean().optional(),
  events: z.record(z.string(), z.boolean()).optional(),
});

/** Reads Webhook.events (a malformed or empty value subscribes to push only, Gitea's default). */
export function parseHookEvent(text: string): HookEvent {
  try {
    const v = Stored.parse(JSON.parse(text || '{}'));
    return {
      push_only: v.push_only ?? false,
      send_everything: v.send_everything ?? false,
      choose_events: v.choose_events ?? false,
      events: (v.events ?? {}) as HookEvent['events'],
    };
  } catch {
    return { push_only: true, send_everything: false, choose_events: false, events: {} };
  }
}

const ISSUE_GROUP: HookEventKey[] = ['issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_GROUP: HookEventKey[] = [
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_request',
  'pull_request_sync',
];
const SINGLE = new Set<string>(HOOK_EVENT_KEYS);

/**
 * Gitea updateHookEvents: the API's event names (case-insensitive) to a chosen-events subscription; `issues`
 * and `pull_request` expand to their groups, `issues_only` / `pull_request_only` do not, unknown names are
 * dropped, and no names at all mean `push`.
 */
export function hookEventFromNames(names: readonly string[]): HookEvent {
  const list = names.length ? names.map((n) => n.toLowerCase()) : ['push'];
  const events: HookEvent['events'] = {};
  for (const key of HOOK_EVENT_KEYS) events[key] = false;
  for (const name of list) {
    if (name === 'issues') for (const k of ISSUE_GROUP) events[k] = true;
    else if (name === 'pull_request') for (const k of PULL_GROUP) events[k] = true;
    else if (name === 'issues_only') events.issues = true;
    else if (name === 'pull_request_only') events.pull_request = true;
    else if (SINGLE.has(name)) events[name as HookEventKey] = true;
  }
  return { push_only: false, send_everything: false, choose_events: true, events };
}

/** Gitea Webhook.EventsArray: the subscribed keys (in a stable order; Gitea's is a map's random order). */
export function hookEventNames(e: HookEvent): string[] {
  if (e.send_everything) return [...HOOK_EVENT_KEYS];
  if (e.push_only) return ['push'];
  return HOOK_EVENT_KEYS.filter((k) => e.events[k]);
}

/** The subscription key an event type is filed under (the three review types share `pull_request_review`). */
function keyOf(eventType: string): string {
  return eventType.startsWith('pull_request_review_') && eventType !== 'pull_request_review_request' ? 'pull_request_review' : eventType;
}

/** Gitea Webhook.HasEvent: the hook wants deliveries of this event type. */
export function hookWants(e: HookEvent, eventType: string): boolean {
  if (e.send_everything) return true;
  if (e.push_only) return eventType === 'push';
  return e.events[keyOf(eventType) as HookEventKey] === true;
}
