import type { DomainEvent } from './events.ts';

/** A subscriber: activity feed, notifications, webhooks, live subscriptions. Must not throw into publishers. */
export interface Subscriber {
  name: string;
  handle(event: DomainEvent): Promise<void> | void;
}

export type ErrorSink = (subscriber: string, event: DomainEvent, err: unknown) => void;

/**
 * In-process event bus. `publish` is called only after a transaction commits; subscribers run
 * asynchronously, in registration order per event, and their failures are logged, never propagated.
 * Durable side effects (webhook deliveries) write their own job rows inside their subscriber.
 */
export class Notifier {
  readonly #subscribers: Subscriber[] = [];
  readonly #onError: ErrorSink;
  #pending = new Set<Promise<void>>();

  constructor(onError: ErrorSink) {
    this.#onError = onError;
  }

  /** Registers a subscriber for every event. */
  subscribe(subscriber: Subscriber): void {
    this.#subscribers.push(subscriber);
  }

  /** Delivers committed events to every subscriber (asynchronously). */
  publish(events: readonly DomainEvent[]): void {
    if (!events.length || !this.#subscribers.length) return;
    const run = (async () => {
      await Promise.resolve();
      for (const event of events) {
        for (const s of this.#subscribers) {
          try {
            await s.handle(event);
          } catch (err) {
            this.#onError(s.name, event, err);
          }
        }
      }
    })();
    this.#pending.add(run);
    void run.finally(() => this.#pending.delete(run));
  }

  /** Resolves when every delivery started so far has finished (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }
}
