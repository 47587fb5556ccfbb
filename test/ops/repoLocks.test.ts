import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.ts';
import { readInstallation } from '../../src/db/installation.ts';
import { RepoLocks, RepoLockTimeoutError } from '../../src/db/repoLocks.ts';
import { createLiveTarget } from '../../src/notify/liveTarget.ts';
import { LiveBus, type LiveEvent } from '../../src/notify/liveBus.ts';
import { holdRepoLock } from '../helpers/heldLock.ts';
import { createMigratedDatabase, createTestDatabase, PROVIDERS, type TestDatabase } from '../helpers/db.ts';

const LOCK_CLASS = 0x46477270;

/** Runs `n` sections on the given lock holders (round-robin) and reports the most that overlapped. */
async function maxOverlap(holders: RepoLocks[], repoId: number, n: number): Promise<number> {
  let inside = 0;
  let max = 0;
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      holders[i % holders.length]!.run(repoId, async () => {
        inside++;
        max = Math.max(max, inside);
        await sleep(5);
        inside--;
      }),
    ),
  );
  return max;
}

describe.each(PROVIDERS)('repository write locks (%s)', (provider) => {
  const databases: TestDatabase[] = [];
  afterAll(async () => Promise.all(databases.map((d) => d.drop())));

  it('one writer per repository: in one process, and on PostgreSQL across two lock holders (two instances)', async () => {
    const database = await createTestDatabase(provider);
    databases.push(database);
    const a = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS });
    const b = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS });
    try {
      expect(await maxOverlap([a], 1, 8)).toBe(1);
      // Two holders share nothing in memory: only PostgreSQL's advisory lock can serialize them.
      if (provider === 'postgresql') expect(await maxOverlap([a, b], 7, 12)).toBe(1);
      // Different repositories do not wait for each other.
      let bothInside = false;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const first = a.run(2, () => gate);
      await a.run(3, async () => {
        bothInside = true;
      });
      release();
      await first;
      expect(bothInside).toBe(true);
      // Re-entrant: a section may take its own repository's lock again.
      expect(await a.run(4, () => a.run(4, async () => 'inner'))).toBe('inner');
      expect(a.active).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a writer that waits past the limit fails without running; the writers behind it still wait for the holder', async () => {
    const database = await createTestDatabase(provider);
    databases.push(database);
    const a = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS, waitMs: 300 });
    const b = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS, waitMs: 300 });
    try {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const order: string[] = [];
      const holder = a.run(1, async () => {
        order.push('holder in');
        await gate;
        order.push('holder out');
      });
      await sleep(20);
      let ranLate = false;
      const late = a.run(1, async () => void (ranLate = true));
      await expect(late).rejects.toBeInstanceOf(RepoLockTimeoutError);
      await expect(late).rejects.toThrow(/REPO_LOCK_TIMEOUT \(300 ms\)/);
      // On PostgreSQL another instance gives up too while the first one holds the lock (lock_timeout).
      if (provider === 'postgresql') await expect(b.run(1, async () => void (ranLate = true))).rejects.toBeInstanceOf(RepoLockTimeoutError);
      // Queued behind the writer that gave up: it must not slip in while the holder still holds the lock.
      const behind = a.run(1, async () => void order.push('behind'));
      await sleep(50);
      expect(order).toEqual(['holder in']);
      release();
      await holder;
      await behind;
      expect(ranLate).toBe(false);
      expect(order).toEqual(['holder in', 'holder out', 'behind']);
      expect(a.active).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a writer never waits for writers of other repositories, a dozen of them holding their locks', async () => {
    const database = await createTestDatabase(provider);
    databases.push(database);
    const locks = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let holding = 0;
    const held = Array.from({ length: 12 }, (_, i) =>
      locks.run(100 + i, async () => {
        holding++;
        await gate;
      }),
    );
    try {
      // Every one of them holds its lock at once (none waits for a connection another repository's writer holds).
      for (let waited = 0; holding < 12 && waited < 10_000; waited += 10) await sleep(10);
      expect(holding).toBe(12);
      const other = locks.run(200, async () => 'ran');
      const waited = sleep(10_000).then(() => 'waited');
      expect(await Promise.race([other, waited])).toBe('ran');
    } finally {
      release();
      await Promise.all(held);
      await locks.close();
    }
  });

  it('a push holds only its refs: other refs of the repository run at once, one ref one writer, the whole repository alone', async () => {
    const database = await createTestDatabase(provider);
    databases.push(database);
    const a = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS, waitMs: 300 });
    const b = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS, waitMs: 300 });
    // On PostgreSQL the second holder is another instance: only the advisory locks can order it with the first.
    const other = provider === 'postgresql' ? b : a;
    try {
      const holding = (locks: RepoLocks, refs: string[] | null) => holdRepoLock(locks, 1, refs);
      const x = holding(a, ['refs/heads/x']);
      await x.entered;
      // Another ref of the repository: at once.
      expect(await other.runRefs(1, ['refs/heads/y', 'refs/tags/v1'], async () => 'ran')).toBe('ran');
      // The held ref, and the whole repository: they wait, and give up past the limit without running.
      let ran = false;
      await expect(other.runRefs(1, ['refs/heads/y', 'refs/heads/x'], async () => void (ran = true))).rejects.toBeInstanceOf(
        RepoLockTimeoutError,
      );
      await expect(other.run(1, async () => void (ran = true))).rejects.toBeInstanceOf(RepoLockTimeoutError);
      expect(ran).toBe(false);
      x.release();
      await x.done;
      // The whole repository held: a ref section waits for it.
      const whole = holding(a, null);
      await whole.entered;
      await expect(other.runRefs(1, ['refs/heads/z'], async () => void (ran = true))).rejects.toBeInstanceOf(RepoLockTimeoutError);
      expect(ran).toBe(false);
      whole.release();
      await whole.done;
      // One ref: one writer at a time, from one instance or two.
      let inside = 0;
      let most = 0;
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          [a, other][i % 2]!.runRefs(1, ['refs/heads/main'], async () => {
            most = Math.max(most, ++inside);
            await sleep(5);
            inside--;
          }),
        ),
      );
      expect(most).toBe(1);
      // Re-entrant for the refs it holds; a ref section cannot take the whole repository or more refs.
      expect(await a.runRefs(1, ['refs/heads/m'], () => a.runRefs(1, ['refs/heads/m'], async () => 'inner'))).toBe('inner');
      await expect(a.runRefs(1, ['refs/heads/m'], () => a.run(1, async () => 'whole'))).rejects.toThrow(/cannot take the whole repository/);
      await expect(a.runRefs(1, ['refs/heads/m'], () => a.runRefs(1, ['refs/heads/n'], async () => 'more'))).rejects.toThrow(
        /cannot take more/,
      );
      // A whole-repository section may run ref sections of its repository.
      expect(await a.run(1, () => a.runRefs(1, ['refs/heads/m'], async () => 'inner'))).toBe('inner');
      expect(a.active).toBe(0);
      expect(other.active).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it.skipIf(provider !== 'postgresql')(
    'a writer that finds every lock connection held gives up within the limit, as busy (REPO_LOCK_TIMEOUT)',
    async () => {
      const database = await createTestDatabase(provider);
      databases.push(database);
      const locks = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS, waitMs: 300, connections: 1 });
      const held = holdRepoLock(locks, 1, ['refs/heads/main']);
      try {
        await held.entered;
        // Another repository: no lock stands in its way, only the one connection, held.
        let ran = false;
        await expect(locks.run(2, async () => void (ran = true))).rejects.toBeInstanceOf(RepoLockTimeoutError);
        expect(ran).toBe(false);
      } finally {
        held.release();
        await held.done;
      }
      expect(await locks.run(2, async () => 'ran')).toBe('ran');
      await locks.close();
    },
  );

  it('a failing section releases the lock for the next writer', async () => {
    const database = await createTestDatabase(provider);
    databases.push(database);
    const locks = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS });
    try {
      await expect(locks.run(1, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await locks.run(1, async () => 'next')).toBe('next');
    } finally {
      await locks.close();
    }
  });

  it.skipIf(provider !== 'postgresql')(
    "a section of 20,000 repositories (an account's rename) takes their buckets: another instance's writer of one of them waits, one of another bucket does not",
    async () => {
      const database = await createTestDatabase(provider);
      databases.push(database);
      const renamer = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS, waitMs: 30_000 });
      const other = new RepoLocks(provider, database.url, { lockClass: LOCK_CLASS, waitMs: 30_000 });
      try {
        // One advisory lock per repository failed here with "out of shared memory" (PostgreSQL's lock table).
        expect(
          await renamer.runRepos(
            Array.from({ length: 20_000 }, (_, i) => i + 1),
            async () => 'renamed',
          ),
        ).toBe('renamed');
        // 100 repositories (ids 1000–1099: buckets 1000–1023 and 0–75 of 1,024) held whole by one instance.
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let holding = false;
        const held = renamer.runRepos(
          Array.from({ length: 100 }, (_, i) => 1000 + i),
          async () => {
            holding = true;
            await gate;
          },
        );
        for (let waited = 0; !holding && waited < 10_000; waited += 10) await sleep(10);
        expect(holding).toBe(true);
        // Repository 5000 is in bucket 904: it runs beside the section.
        expect(await other.run(5000, async () => 'ran')).toBe('ran');
        // One of the section's repositories, a push's refs of another, and a repository sharing a bucket (3058: 1010) wait.
        const entered: number[] = [];
        const waiting = [
          other.run(1050, async () => void entered.push(1050)),
          other.runRefs(1099, ['refs/heads/main'], async () => void entered.push(1099)),
          other.run(3058, async () => void entered.push(3058)),
        ];
        await sleep(300);
        expect(entered).toEqual([]);
        release();
        await Promise.all([held, ...waiting]);
        expect(entered.sort()).toEqual([1050, 1099, 3058]);
      } finally {
        await renamer.close();
        await other.close();
      }
    },
  );

  it.skipIf(provider !== 'postgresql')(
    "installations sharing one PostgreSQL database (two schemas) hold their own locks: each its installation's class",
    async () => {
      const database = await createMigratedDatabase(provider);
      databases.push(database);
      const db = await createDb({ provider, url: database.url });
      const one = await readInstallation(db).finally(() => db.$disconnect());
      const mine = new RepoLocks(provider, database.url, { lockClass: one.lockClass, waitMs: 300 });
      const theirs = new RepoLocks(provider, database.url, { lockClass: one.lockClass ^ 1, waitMs: 300 });
      try {
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        const holder = mine.run(1, () => gate);
        await sleep(50);
        // Another installation's repository 1 is not ours: it does not wait for our lock.
        expect(await theirs.run(1, async () => 'ran')).toBe('ran');
        release();
        await holder;
      } finally {
        await mine.close();
        await theirs.close();
      }
    },
  );
});

describe('live events over Redis (REDIS_URL)', () => {
  it.skipIf(!process.env.REDIS_URL && !process.env.TEST_REDIS_URL)(
    'a subscriber on one bus receives what another bus published',
    async () => {
      const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? '';
      const errors: unknown[] = [];
      const one = createLiveTarget(url, (e) => errors.push(e));
      const two = createLiveTarget(url, (e) => errors.push(e));
      try {
        const topic = `repo:${process.pid}${Date.now()}`;
        const namespace = `forgegraph:test${process.pid}${Date.now()}:`;
        const stream = new LiveBus({ target: one.target, namespace }).subscribe(topic, { queueSize: 10 });
        // The same topic in another installation sharing the Redis.
        const foreign = new LiveBus({ target: one.target, namespace: `${namespace}other:` }).subscribe(topic, { queueSize: 10 });
        // SUBSCRIBE reaches Redis some time after subscribe() returns (long on a loaded machine): publish until heard.
        const publishUntilHeard = async (bus: LiveBus, next: Promise<IteratorResult<LiveEvent>>, event: LiveEvent) => {
          let heard = false;
          void next.then(() => (heard = true));
          while (!heard) {
            bus.publish(topic, event);
            await Promise.race([next, sleep(200)]);
          }
          return (await next).value;
        };
        const event: LiveEvent = { kind: 'issue', action: 'CREATED', repoId: 1, issueId: 42, actorId: 3, commentId: null };
        expect(await publishUntilHeard(new LiveBus({ target: two.target, namespace }), stream.next(), event)).toEqual(event);
        await stream.return?.();
        // Events published by the other installation only reach it.
        const theirs: LiveEvent = { ...event, issueId: 43 };
        const other = new LiveBus({ target: two.target, namespace: `${namespace}other:` });
        expect(await publishUntilHeard(other, foreign.next(), theirs)).toEqual(theirs);
        await foreign.return?.();
        expect(errors).toEqual([]);
      } finally {
        await one.close();
        await two.close();
      }
    },
  );

  it.skipIf(!process.env.REDIS_URL && !process.env.TEST_REDIS_URL)(
    'a stream is open once Redis confirmed its channel: an event another instance publishes right after is heard',
    async () => {
      const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? '';
      // The other instance: a connection that is up, so its PUBLISH reaches Redis at once.
      const other = new Redis(url);
      await other.ping();
      const errors: unknown[] = [];
      // A new instance: its subscriber connection is still being opened when the stream subscribes.
      const fresh = createLiveTarget(url, (e) => errors.push(e));
      try {
        const topic = `repo:${process.pid}${Date.now()}`;
        const namespace = `forgegraph:test${process.pid}${Date.now()}:`;
        const bus = new LiveBus({ target: fresh.target, namespace, listening: fresh.listening });
        const stream = await bus.open(topic, { queueSize: 10 });
        const event: LiveEvent = { kind: 'issue', action: 'CREATED', repoId: 1, issueId: 44, actorId: 3, commentId: null };
        // What LiveBus.publish sends, sent once: no retry can hide a subscription that was not there yet.
        expect(await other.publish(namespace + topic, JSON.stringify({ installation: namespace, event }))).toBe(1);
        const heard = await Promise.race([stream.next(), sleep(10_000).then(() => 'not heard within 10 s')]);
        expect(heard).toEqual({ value: event, done: false });
        await stream.return?.();
        expect(errors).toEqual([]);
      } finally {
        other.disconnect();
        await fresh.close();
      }
    },
  );
});
