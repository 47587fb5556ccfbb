import type { DbTx } from '../db/client.ts';
import type { DomainEvent } from './events.ts';

/** A subscriber: activity feed, notifications, webhooks, live subscriptions. Must not throw into publishers. */
export interface Subscriber {
  name: string;
  handle(event: DomainEvent): Promise<void> | void;
}

/**
 * A subscriber that runs inside the transaction that emitted the event, before it commits: durable follow-ups
 * (webhook deliveries, notification fan-out) write their job rows here (src/jobs/enqueue.ts), so they exist
 * exactly when the change does. Throwing rolls the change back.
 */
export interface TxSubscriber {
  name: string;
  handle(tx: DbTx, event: DomainEvent): Promise<void>;
}

export type ErrorSink = (subscriber: string, event: DomainEvent, err: unknown) => void;

/**
 * In-process event bus. `publish` is called only after a transaction commits; subscribers run
 * asynchronously, each in publish order, and their failures are logged, never propagated.
 * Durable side effects use in-transaction subscribers instead (subscribeInTransaction), which enqueue jobs.
 */
export class Notifier {
  readonly #subscribers: Subscriber[] = [];
  readonly #txSubscribers: TxSubscriber[] = [];
  readonly #onError: ErrorSink;
  #pending = new Set<Promise<void>>();
  /** Each subscriber's last queued delivery: the next one starts after it. */
  readonly #tails = new Map<Subscriber, Promise<void>>();

  constructor(onError: ErrorSink) {
    this.#onError = onError;
  }

  /** Registers a subscriber for every event. */
  subscribe(subscriber: Subscriber): void {
    this.#subscribers.push(subscriber);
  }

  /** Registers a subscriber run inside the emitting transaction (see TxSubscriber). */
  subscribeInTransaction(subscriber: TxSubscriber): void {
    this.#txSubscribers.push(subscriber);
  }

  /** Runs the in-transaction subscribers on the events a transaction emitted, before it commits (withTx). */
  async beforeCommit(tx: DbTx, events: readonly DomainEvent[]): Promise<void> {
    for (const event of events) for (const s of this.#txSubscribers) await s.handle(tx, event);
  }

  /**
   * Delivers committed events to every subscriber (asynchronously). Each subscriber sees events in publish order,
   * which is commit order: a close published before a reopen is recorded before it, even when the first delivery is
   * still writing when the second request commits. Subscribers do not wait for each other.
   */
  publish(events: readonly DomainEvent[]): void {
    if (!events.length) return;
    for (const s of this.#subscribers) {
      const previous = this.#tails.get(s) ?? Promise.resolve();
      const run = previous.then(async () => {
        for (const event of events) {
          try {
            await s.handle(event);
          } catch (err) {
            this.#onError(s.name, event, err);
          }
        }
      });
      this.#tails.set(s, run);
      this.#pending.add(run);
      void run.finally(() => {
        this.#pending.delete(run);
        if (this.#tails.get(s) === run) this.#tails.delete(s);
      });
    }
  }

  /** Resolves when every delivery started so far has finished (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }
}
