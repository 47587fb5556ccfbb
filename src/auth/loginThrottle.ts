import { isIPv6 } from 'node:net';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { LoginThrottleSettings } from '../config.ts';

/** How long failures are remembered when no block follows (both counters). */
const FAIL_WINDOW_SECONDS = 86_400;

/** Options for one counter, as rate-limiter-flexible's limiters take them. */
export interface LimiterOptions {
  keyPrefix: string;
  points: number;
  duration: number;
  blockDuration: number;
}

/**
 * Builds one counter over a store. The default keeps counters in this process; several instances share
 * them through rate-limiter-flexible's store limiters, e.g.
 * `(o) => new RateLimiterPostgres({ ...o, storeClient: pool, tableName: 'login_throttle' })` or `RateLimiterRedis`.
 */
export type LimiterFactory = (opts: LimiterOptions) => RateLimiterAbstract;

/** Which limit refused an attempt, its maximum, and when to come back. */
export interface ThrottleRefusal {
  limit: 'account' | 'address';
  max: number;
  retryAfterSeconds: number;
}

/** Thrown when an attempt is refused without its credentials being checked. */
export class LoginThrottledError extends Error {
  constructor(readonly refusal: ThrottleRefusal) {
    super(
      refusal.limit === 'account'
        ? `too many failed sign-in attempts for this account from your address (limit ${refusal.max}); retry after ${refusal.retryAfterSeconds} seconds`
        : `too many failed sign-in attempts from your address (limit ${refusal.max} per day); retry after ${refusal.retryAfterSeconds} seconds`,
    );
    this.name = 'LoginThrottledError';
  }
}

const memoryLimiter: LimiterFactory = (opts) => new RateLimiterMemory(opts);

/**
 * Throttles failed sign-ins with two counters (rate-limiter-flexible's "login endpoint protection"):
 * consecutive failures per account and client address (reset by a successful sign-in), and failures
 * per client address per day whatever the account. An attacker therefore cannot lock a user out from
 * the user's own address. Password checks reserve a failure before the (slow) verification and hand it
 * back on success, so concurrent guesses cannot overshoot the limit.
 */
export class LoginThrottle {
  private readonly byAccount: RateLimiterAbstract | null;
  private readonly byAddress: RateLimiterAbstract | null;

  constructor(settings: LoginThrottleSettings, makeLimiter: LimiterFactory = memoryLimiter) {
    this.byAccount =
      settings.maxFailsPerAccount > 0
        ? makeLimiter({
            keyPrefix: 'login_fail_account_ip',
            points: settings.maxFailsPerAccount,
            duration: FAIL_WINDOW_SECONDS,
            blockDuration: settings.accountBlockSeconds,
          })
        : null;
    this.byAddress =
      settings.maxFailsPerIp > 0
        ? makeLimiter({
            keyPrefix: 'login_fail_ip',
            points: settings.maxFailsPerIp,
            duration: FAIL_WINDOW_SECONDS,
            blockDuration: settings.ipBlockSeconds,
          })
        : null;
  }

  /**
   * Before a password check for `account` (a stable key: the user id, or the login as typed when no such
   * user exists) from `ip`: refuses when either counter is already spent. Nothing is counted here, so
   * concurrent sign-ins with the right password (a client's parallel requests) are never refused.
   * @throws LoginThrottledError
   */
  async check(ip: string, account: string): Promise<void> {
    const address = addressKey(ip);
    await this.refuseIfBlocked(this.byAddress, 'address', address);
    await this.refuseIfBlocked(this.byAccount, 'account', `${account}|${address}`);
  }

  /**
   * The password was wrong: counts one failure on each counter.
   * @throws LoginThrottledError when a counter is (or now becomes) spent
   */
  async failed(ip: string, account: string): Promise<void> {
    const address = addressKey(ip);
    await this.count(this.byAddress, 'address', address);
    await this.count(this.byAccount, 'account', `${account}|${address}`);
  }

  /**
   * The password was right: refused all the same when guesses running alongside it spent a counter while it
   * was verified (so a flood of concurrent guesses cannot learn which one was right), otherwise forgets the
   * pair's failures.
   * @throws LoginThrottledError
   */
  async succeeded(ip: string, account: string): Promise<void> {
    await this.check(ip, account);
    await this.byAccount?.delete(`${account}|${addressKey(ip)}`);
  }

  /**
   * A credential that cannot be guessed (an access token) did not resolve: counts against the address
   * only, after the lookup, so valid tokens keep working from a blocked address.
   * @throws LoginThrottledError when the address is (or now becomes) blocked
   */
  async failedToken(ip: string): Promise<void> {
    const address = addressKey(ip);
    await this.refuseIfBlocked(this.byAddress, 'address', address);
    await this.count(this.byAddress, 'address', address);
  }

  private async refuseIfBlocked(limiter: RateLimiterAbstract | null, limit: ThrottleRefusal['limit'], key: string): Promise<void> {
    if (!limiter) return;
    const res = await limiter.get(key);
    if (res && res.consumedPoints > limiter.points) throw refusal(limiter, limit, res);
  }

  private async count(limiter: RateLimiterAbstract | null, limit: ThrottleRefusal['limit'], key: string): Promise<void> {
    if (!limiter) return;
    try {
      const res = await limiter.consume(key, 1);
      // The failure that spends the counter blocks the key for blockDuration: the next attempt is refused.
      if (res.consumedPoints >= limiter.points) await limiter.block(key, limiter.blockDuration);
    } catch (rejection) {
      // A RateLimiterRes means "over the limit" (the key is now blocked); anything else is a store failure.
      if (rejection instanceof RateLimiterRes) throw refusal(limiter, limit, rejection);
      throw rejection;
    }
  }
}

function refusal(limiter: RateLimiterAbstract, limit: ThrottleRefusal['limit'], res: RateLimiterRes): LoginThrottledError {
  return new LoginThrottledError({ limit, max: limiter.points, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) });
}

/**
 * The throttling key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 prefix,
 * since one subscriber usually holds a whole /64.
 */
export function addressKey(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  // An embedded IPv4 tail stands for two groups.
  const right = tail === undefined ? [] : groups(tail).flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const full = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
