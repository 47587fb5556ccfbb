// The webhook job kinds: `webhook.prepare` turns one event into deliveries (HookTask rows), `webhook.deliver`
// sends one delivery. Shared by the enqueuers (services, the event subscriber) and the handlers (src/webhooks).
import { z } from 'zod';
import { jobKind } from '../../jobs/jobKind.ts';

const PreparePayload = z.object({
  /** The domain event (src/notify/events.ts), or `webhook.test` for a test delivery. */
  event: z.looseObject({ type: z.string() }),
  /** When it happened (ISO). */
  at: z.string(),
  /** Checkpoint: the deliveries are written. */
  prepared: z.boolean().optional(),
});
/** The prepare job's payload. */
export type PreparePayload = z.infer<typeof PreparePayload>;

/** Builds the payloads of one event for every hook that wants it and queues their deliveries. */
export const WEBHOOK_PREPARE = jobKind('webhook.prepare', PreparePayload, { maxAttempts: 8 });

const DeliverPayload = z.object({ taskId: z.number().int() });
/** The deliver job's payload. */
export type DeliverPayload = z.infer<typeof DeliverPayload>;

/** Sends one HookTask; retried with backoff up to WEBHOOK_MAX_ATTEMPTS (set when enqueued). */
export const WEBHOOK_DELIVER = jobKind('webhook.deliver', DeliverPayload, { maxAttempts: 5 });

/** The synthetic event of a test delivery (Gitea TestHook). */
export interface TestEvent {
  type: 'webhook.test';
  hookId: number;
  repoId: number;
  ref: string;
  actorId: number;
  [key: string]: unknown;
}
