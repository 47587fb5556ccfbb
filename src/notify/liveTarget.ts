import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { ioredisModule as ioredis } from '../lazyPackage.ts';

/** How long a new subscription waits for Redis to confirm its channel before its stream opens anyway. */
const LISTEN_TIMEOUT_MS = 5_000;

/** The event target of the live bus, and how to close it. */
export interface LiveTarget {
  target: EventTarget;
  /**
   * Resolves once the listeners of `channel` added so far receive what any instance publishes from now on: at once
   * in memory; on Redis when Redis confirmed the channel's SUBSCRIBE (at most LISTEN_TIMEOUT_MS: a Redis that does
   * not answer delays a new subscription that long, not forever).
   */
  listening(channel: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where live events travel: this process's memory, or with `redisUrl` Redis pub/sub through Yoga's Redis event
 * target, so a subscriber on any instance receives what any instance published (events are small JSON: ids).
 */
export function createLiveTarget(redisUrl: string | null, onError: (err: unknown) => void): LiveTarget {
  if (!redisUrl) return { target: new EventTarget(), listening: async () => undefined, close: async () => undefined };
  const publishClient = new (ioredis().Redis)(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new (ioredis().Redis)(redisUrl, { lazyConnect: false });
  publishClient.on('error', onError);
  subscribeClient.on('error', onError);
  const target = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  return {
    target: target as unknown as EventTarget,
    async listening(channel) {
      // The event target sent SUBSCRIBE when the channel's first listener was added, without waiting for the answer.
      // Redis answers one connection's commands in order, so its answer to this second (idempotent) SUBSCRIBE means
      // the first one took effect.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        subscribeClient.subscribe(channel).catch(onError),
        new Promise((resolve) => {
          timer = setTimeout(resolve, LISTEN_TIMEOUT_MS).unref(); // never what keeps a stopping process alive
        }),
      ]);
      clearTimeout(timer);
    },
    async close() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
