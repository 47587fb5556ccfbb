import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.ts';
import type { DomainEvent } from '../../src/notify/events.ts';
import { Notifier } from '../../src/notify/notifier.ts';
import { withTx } from '../../src/services/context.ts';
import * as userService from '../../src/services/user/user.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('Notifier', () => {
  it('delivers each event to every subscriber, in order, and isolates failures', async () => {
    const errors: string[] = [];
    const n = new Notifier((s, e) => errors.push(`${s}:${e.type}`));
    const seen: string[] = [];
    n.subscribe({
      name: 'boom',
      handle: () => {
        throw new Error('x');
      },
    });
    n.subscribe({
      name: 'log',
      handle: (e) => {
        seen.push(e.type);
      },
    });
    n.publish([
      { type: 'user.created', userId: 1, actorId: null },
      { type: 'user.deleted', userId: 1, login: 'a', actorId: null },
    ]);
    expect(seen).toEqual([]); // asynchronous: never inside the publisher's call
    await n.drain();
    expect(seen).toEqual(['user.created', 'user.deleted']);
    expect(errors).toEqual(['boom:user.created', 'boom:user.deleted']);
  });

  it('a later publish waits for the earlier one at each subscriber, and a slow subscriber holds up no other', async () => {
    const n = new Notifier(() => undefined);
    const slow: number[] = [];
    const fast: number[] = [];
    n.subscribe({
      name: 'slow',
      handle: async (e) => {
        // The first event takes longest: without per-subscriber ordering the second would be recorded first.
        if (e.type === 'user.created') await new Promise((r) => setTimeout(r, e.userId === 1 ? 50 : 1));
        if (e.type === 'user.created') slow.push(e.userId);
      },
    });
    n.subscribe({
      name: 'fast',
      handle: (e) => {
        if (e.type === 'user.created') fast.push(e.userId);
      },
    });
    n.publish([{ type: 'user.created', userId: 1, actorId: null }]);
    n.publish([{ type: 'user.created', userId: 2, actorId: null }]);
    await new Promise((r) => setTimeout(r, 10));
    expect(fast).toEqual([1, 2]);
    expect(slow).toEqual([]);
    await n.drain();
    expect(slow).toEqual([1, 2]);
  });
});

describe.each(PROVIDERS)('domain events after commit (%s)', (provider) => {
  let t: TestApp;
  const seen: DomainEvent[] = [];
  beforeAll(async () => {
    t = await startTestApp(provider);
    t.app.deps.notifier.subscribe({
      name: 'test',
      handle: (e) => {
        seen.push(e);
      },
    });
  });
  afterAll(() => t.close());

  it('a committed service call publishes its events', async () => {
    seen.length = 0;
    const user = await userService.createUser(t.system, { username: 'evt', email: 'evt@example.com', password: 'password123!' });
    await t.app.deps.notifier.drain();
    expect(seen).toContainEqual({ type: 'user.created', userId: user.id, actorId: null });
  });

  it('a rolled-back transaction publishes nothing and writes nothing', async () => {
    seen.length = 0;
    await expect(
      withTx(t.system, async (tx, emit) => {
        await tx.user.create({ data: { name: 'ghosty', lowerName: 'ghosty' } });
        emit({ type: 'user.created', userId: -1, actorId: null });
        throw new ValidationError('abort');
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    await t.app.deps.notifier.drain();
    expect(seen).toEqual([]);
    expect(await t.db.user.findUnique({ where: { lowerName: 'ghosty' } })).toBeNull();
  });
});
