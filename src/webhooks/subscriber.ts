// The in-transaction subscriber: new repositories get the default hooks; an event some active hook may want
// becomes a webhook.prepare job in the same transaction (an outbox: committed events are always delivered).
import type { Config } from '../config.ts';
import { enqueue } from '../jobs/enqueue.ts';
import type { TxSubscriber } from '../notify/notifier.ts';
import { copyDefaultHooks } from '../services/webhook/defaultHooks.ts';
import { WEBHOOK_PREPARE } from '../services/webhook/jobKinds.ts';
import { webhookTargets } from './eventTable.ts';
import { anyActiveHook } from './matchHooks.ts';

/** Queues webhook work for the events of a transaction. */
export function webhookSubscriber(config: Pick<Config, 'webhook'>): TxSubscriber {
  return {
    name: 'webhooks',
    async handle(tx, event) {
      if (event.type === 'repo.created' || event.type === 'repo.forked') await copyDefaultHooks(tx, event.repoId);
      if (config.webhook.disabled) return;
      const targets = webhookTargets(event);
      if (!targets.length || !(await anyActiveHook(tx, targets))) return;
      await enqueue(tx, WEBHOOK_PREPARE, { event, at: new Date().toISOString() });
    },
  };
}
