import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LocalRwLocks } from '../../src/db/localRwLock.ts';

const timeout = () => new Error('timed out');

describe('readers-writer locks of one process', () => {
  it('shared holders run together, an exclusive one alone, in arrival order; idle keys keep nothing', async () => {
    const locks = new LocalRwLocks<string>();
    const order: string[] = [];
    const r1 = await locks.acquire('k', 'shared', 1000, timeout);
    const r2 = await locks.acquire('k', 'shared', 1000, timeout);
    // An exclusive request waits for both shared holders, and a shared one arriving after it waits behind it.
    const w = locks.acquire('k', 'exclusive', 1000, timeout).then((release) => (order.push('exclusive'), release));
    const r3 = locks.acquire('k', 'shared', 1000, timeout).then((release) => (order.push('late shared'), release));
    // Another key is free.
    (await locks.acquire('other', 'exclusive', 1000, timeout))();
    await sleep(20);
    expect(order).toEqual([]);
    r1();
    await sleep(5);
    expect(order).toEqual([]);
    r2();
    const releaseW = await w;
    await sleep(5);
    expect(order).toEqual(['exclusive']);
    releaseW();
    (await r3)();
    expect(order).toEqual(['exclusive', 'late shared']);
    expect(locks.size).toBe(0);
  });

  it('a waiter that gives up leaves the queue: the shared ones it held back go, the others keep their places', async () => {
    const locks = new LocalRwLocks<number>();
    const release = await locks.acquire(1, 'shared', 1000, timeout);
    const gaveUp = locks.acquire(1, 'exclusive', 50, timeout);
    let sharedIn = false;
    const shared = locks.acquire(1, 'shared', 1000, timeout).then((r) => ((sharedIn = true), r));
    let exclusiveIn = false;
    const exclusive = locks.acquire(1, 'exclusive', 1000, timeout).then((r) => ((exclusiveIn = true), r));
    await expect(gaveUp).rejects.toThrow('timed out');
    (await shared)();
    expect(sharedIn).toBe(true);
    // Still behind the first shared holder.
    await sleep(20);
    expect(exclusiveIn).toBe(false);
    release();
    (await exclusive)();
    expect(exclusiveIn).toBe(true);
    expect(locks.size).toBe(0);
  });
});
