import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { limitedStream, SubscriptionSlots } from '../../src/graphql/limits/subscriptions.ts';
import { LiveBus, LiveQueueOverflowError, type LiveEvent } from '../../src/notify/liveBus.ts';

const ev = (issueId: number): LiveEvent => ({ kind: 'issue', action: 'CREATED', repoId: 1, issueId, actorId: 1, commentId: null });

/** The live bus: per-subscriber bounded queues, a slow subscriber never holds others back, limits named in errors. */
describe('LiveBus', () => {
  it('delivers in order to every subscriber of a topic, and nothing of other topics', async () => {
    const bus = new LiveBus();
    const a = bus.subscribe('repo:1', { queueSize: 10 });
    const b = bus.subscribe('repo:1', { queueSize: 10 });
    const other = bus.subscribe('repo:2', { queueSize: 10 });
    bus.publish('repo:1', ev(1));
    bus.publish('repo:1', ev(2));
    for (const it of [a, b]) {
      expect((await it.next()).value).toEqual(ev(1));
      expect((await it.next()).value).toEqual(ev(2));
    }
    expect(bus.subscriberCount('repo:1')).toBe(2);
    await a.return?.();
    expect(bus.subscriberCount('repo:1')).toBe(1);
    bus.close();
    expect(await other.next()).toEqual({ value: undefined, done: true });
    expect(bus.subscriberCount('repo:1')).toBe(0);
  });

  it('a slow subscriber overflows its own queue and ends with the limit named; a fast one keeps every event', async () => {
    const bus = new LiveBus();
    const slow = bus.subscribe('repo:1', { queueSize: 3 });
    const fast = bus.subscribe('repo:1', { queueSize: 3 });
    const got: number[] = [];
    const reading = (async () => {
      for await (const e of fast) {
        if (e.kind === 'issue') got.push(e.issueId);
        if (got.length === 10) break;
      }
    })();
    for (let i = 1; i <= 10; i++) {
      bus.publish('repo:1', ev(i));
      await Promise.resolve();
    }
    await reading;
    expect(got).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await expect(slow.next()).rejects.toBeInstanceOf(LiveQueueOverflowError);
    expect(await slow.next()).toEqual({ value: undefined, done: true });
    expect(bus.subscriberCount('repo:1')).toBe(0);
  });

  it('an aborted signal ends a stream that is waiting for its next event', async () => {
    const bus = new LiveBus();
    const controller = new AbortController();
    const stream = bus.subscribe('repo:1', { queueSize: 3, signal: controller.signal });
    const pending = stream.next();
    controller.abort();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});

describe('GraphQL subscription limits', () => {
  it('per-user slots: the error names the limit; ending a stream (even one waiting for an event) frees its slot', async () => {
    const bus = new LiveBus();
    const slots = new SubscriptionSlots();
    const open = (signal: AbortSignal) => bus.subscribe('repo:1', { queueSize: 2, signal });
    const first = await limitedStream(slots, 'user:1', 1, open);
    const refused = await limitedStream(slots, 'user:1', 1, open).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GraphQLError);
    expect((refused as GraphQLError).extensions).toMatchObject({ code: 'SUBSCRIPTION_LIMIT', limit: 'subscriptionsPerUser', max: 1 });
    await limitedStream(slots, 'user:2', 1, open);
    const waiting = first.next();
    await first.return?.();
    expect(await waiting).toEqual({ value: undefined, done: true });
    const again = await limitedStream(slots, 'user:1', 1, open);
    for (let i = 1; i <= 3; i++) bus.publish('repo:1', ev(i));
    const overflow = await again.next().catch((e: unknown) => e);
    expect((overflow as GraphQLError).extensions).toMatchObject({ code: 'SUBSCRIPTION_QUEUE_OVERFLOW', limit: 'liveQueueSize', max: 2 });
    await limitedStream(slots, 'user:1', 1, open);
  });
});
