import { ioredisModule as ioredis } from '../lazyPackage.ts';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import type { LimiterFactory } from './loginThrottle.ts';

/** Failed sign-in counters kept in Redis, shared by every instance of one installation, and how to close them. */
export interface SharedLimiters {
  factory: LimiterFactory;
  close(): Promise<void>;
}

/**
 * rate-limiter-flexible's Redis limiters over one ioredis client: several instances count one user's failures
 * together, so a balancer spreading guesses over instances gains nothing. Keys are prefixed with the installation's
 * `namespace` (src/db/installation.ts), so installations sharing one Redis keep their own counters.
 */
export function redisLimiters(redisUrl: string, namespace: string, onError: (err: unknown) => void): SharedLimiters {
  const client = new (ioredis().Redis)(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 3 });
  client.on('error', onError);
  return {
    factory: (opts) => new RateLimiterRedis({ ...opts, keyPrefix: `${namespace}${opts.keyPrefix}`, storeClient: client }),
    async close() {
      await client.quit().catch(() => undefined);
    },
  };
}
