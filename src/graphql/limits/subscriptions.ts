import type { GraphQLError } from 'graphql';
import { LiveQueueOverflowError } from '../../notify/liveBus.ts';
import { limitError } from './limits.ts';

/**
 * Open GraphQL subscriptions per account (or per client address for anonymous viewers), capped at
 * `config.live.maxSubscriptionsPerUser`; a subscription holds its slot until its stream ends.
 */
export class SubscriptionSlots {
  readonly #open = new Map<string, number>();

  /** Takes a slot for `key`, or throws the limit error when `max` are open; returns the release (idempotent). */
  acquire(key: string, max: number): () => void {
    const open = this.#open.get(key) ?? 0;
    if (open >= max) {
      throw limitError(`Too many open subscriptions: at most ${max} per user (LIVE_MAX_SUBSCRIPTIONS_PER_USER)`, {
        code: 'SUBSCRIPTION_LIMIT',
        limit: 'subscriptionsPerUser',
        max,
        value: open + 1,
      });
    }
    this.#open.set(key, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left > 0) this.#open.set(key, left);
      else this.#open.delete(key);
    };
  }
}

/** The error a stream ends with when its client fell too far behind (LIVE_QUEUE_SIZE). */
export function queueOverflowError(e: LiveQueueOverflowError): GraphQLError {
  return limitError(e.message, { code: 'SUBSCRIPTION_QUEUE_OVERFLOW', limit: 'liveQueueSize', max: e.limit });
}

/**
 * Runs one subscription stream within the viewer's slots: the slot is taken before `open` (so a refused
 * subscription never starts) and released when the stream ends, fails or the client leaves; a queue overflow
 * ends the stream with an error naming the limit.
 */
export async function limitedStream<T>(
  slots: SubscriptionSlots,
  key: string,
  max: number,
  open: () => Promise<AsyncIterable<T>> | AsyncIterable<T>,
): Promise<AsyncIterable<T>> {
  const release = slots.acquire(key, max);
  let stream: AsyncIterable<T>;
  try {
    stream = await open();
  } catch (e) {
    release();
    throw e;
  }
  return {
    async *[Symbol.asyncIterator]() {
      try {
        yield* stream;
      } catch (e) {
        if (e instanceof LiveQueueOverflowError) throw queueOverflowError(e);
        throw e;
      } finally {
        release();
      }
    },
  };
}
