import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { ioredisModule as ioredis } from '../lazyPackage.ts';

/** The event target of the live bus, and how to close it. */
export interface LiveTarget {
  target: EventTarget;
  close(): Promise<void>;
}

/**
 * Where live events travel: this process's memory, or with `redisUrl` Redis pub/sub through Yoga's Redis event
 * target, so a subscriber on any instance receives what any instance published (events are small JSON: ids).
 */
export function createLiveTarget(redisUrl: string | null, onError: (err: unknown) => void): LiveTarget {
  if (!redisUrl) return { target: new EventTarget(), close: async () => undefined };
  const publishClient = new (ioredis().Redis)(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new (ioredis().Redis)(redisUrl, { lazyConnect: false });
  publishClient.on('error', onError);
  subscribeClient.on('error', onError);
  const target = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  return {
    target: target as unknown as EventTarget,
    async close() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
