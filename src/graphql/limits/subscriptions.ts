import type { GraphQLError } from 'graphql';
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

/** The live bus's overflow (notify/liveBus.ts LiveQueueOverflowError, recognized by its code) as a limit error. */
function queueOverflowError(e: unknown): GraphQLError | null {
  if (!(e instanceof Error) || !('code' in e) || e.code !== 'LIVE_QUEUE_OVERFLOW') return null;
  const max = 'limit' in e && typeof e.limit === 'number' ? e.limit : 0;
  return limitError(e.message, { code: 'SUBSCRIPTION_QUEUE_OVERFLOW', limit: 'liveQueueSize', max });
}

/**
 * Runs one subscription stream within the viewer's slots: the slot is taken before `open` (so a refused
 * subscription never starts) and released when the stream ends, fails or the client leaves. Leaving aborts the
 * signal given to `open`, which ends the stream at once even while it waits for the next event (an async
 * generator's return() would wait for that event). A queue overflow ends the stream with an error naming the limit.
 */
export async function limitedStream<T>(
  slots: SubscriptionSlots,
  key: string,
  max: number,
  open: (signal: AbortSignal) => Promise<AsyncIterable<T>> | AsyncIterable<T>,
): Promise<AsyncIterableIterator<T>> {
  const release = slots.acquire(key, max);
  const controller = new AbortController();
  let inner: AsyncIterator<T>;
  try {
    inner = (await open(controller.signal))[Symbol.asyncIterator]();
  } catch (e) {
    release();
    throw e;
  }
  const finish = async (): Promise<IteratorResult<T>> => {
    controller.abort();
    release();
    await inner.return?.();
    return { value: undefined, done: true };
  };
  const stream: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => stream,
    async next() {
      try {
        const r = await inner.next();
        if (r.done) release();
        return r;
      } catch (e) {
        release();
        throw queueOverflowError(e) ?? e;
      }
    },
    return: finish,
  };
  return stream;
}
