// The webhook.prepare job: builds an event's Gitea payloads, picks the hooks that take each one, and writes a
// delivery (HookTask) plus a webhook.deliver job per hook, with the job's checkpoint in the same transaction
// (a replay after a crash writes nothing twice).
import type { Models } from '../db/client.ts';
import { defineHandler, type JobHandler } from '../jobs/jobKind.ts';
import type { DomainEvent } from '../notify/events.ts';
import { createSystemContext, withTx, type AppDeps } from '../services/context.ts';
import { queueDelivery } from '../services/webhook/delivery.ts';
import { WEBHOOK_PREPARE, type PreparePayload, type TestEvent } from '../services/webhook/jobKinds.ts';
import { buildOutgoing } from './eventTable.ts';
import type { OutgoingEvent } from './events/outgoing.ts';
import { testPushEvent } from './events/push.ts';
import { candidateHooks, hooksFor } from './matchHooks.ts';
import { PayloadContext } from './payloadContext.ts';

/**
 * Gitea marshals payloads with two-space indentation (WikiPayload's JSONPayload with one space); these are the
 * bytes a gitea/gogs hook receives.
 */
const payloadText = (ev: OutgoingEvent): string => JSON.stringify(ev.payload, null, ev.eventType === 'wiki' ? 1 : 2);

async function plan(pc: PayloadContext, event: PreparePayload['event']): Promise<{ ev: OutgoingEvent; hook: Models.Webhook }[]> {
  if (event.type === 'webhook.test') {
    const t = event as unknown as TestEvent;
    const hook = await pc.cx.db.webhook.findUnique({ where: { id: t.hookId } });
    const ev = hook ? await testPushEvent(pc, t.repoId, t.ref, t.actorId) : null;
    return hook && ev ? [{ ev, hook }] : [];
  }
  const outgoing = await buildOutgoing(pc, event as unknown as DomainEvent);
  if (!outgoing.length) return [];
  const candidates = await candidateHooks(pc.cx.db, [...new Set(outgoing.map((o) => o.repoId))]);
  return outgoing.flatMap((ev) => hooksFor(candidates, ev).map((hook) => ({ ev, hook })));
}

/** The prepare job's handler. */
export function prepareHandler(deps: AppDeps): JobHandler<PreparePayload> {
  return defineHandler(WEBHOOK_PREPARE, async (payload, run) => {
    if (payload.prepared) return;
    const cx = createSystemContext(deps);
    const deliveries = await plan(new PayloadContext(cx), payload.event);
    await withTx(cx, async (tx) => {
      for (const { ev, hook } of deliveries) {
        await queueDelivery(tx, cx.config, { hookId: hook.id, eventType: ev.eventType, payloadContent: payloadText(ev) });
      }
      await run.checkpoint(tx, { ...payload, prepared: true });
    });
  });
}
