import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { enqueue } from '../../src/jobs/enqueue.ts';
import { defineHandler, jobKind, PermanentJobError, type JobHandler } from '../../src/jobs/jobKind.ts';
import type { JobsOptions } from '../../src/jobs/settings.ts';
import { JobWorker, type JobLog } from '../../src/jobs/worker.ts';
import { withTx } from '../../src/services/context.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { startJobApp, type JobApp } from './jobApp.ts';

const quiet: JobLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const Payload = z.object({ n: z.number().int(), step: z.number().int().optional() });
type Payload = z.infer<typeof Payload>;

function options(o: Partial<JobsOptions> = {}): JobsOptions {
  return {
    concurrency: 4,
    pollIntervalMs: 50,
    leaseMs: 2000,
    shutdownTimeoutMs: 1000,
    retryBaseMs: 100,
    retryMaxMs: 400,
    keepDoneMs: 3_600_000,
    keepFailedMs: 3_600_000,
    ...o,
  };
}

/** Waits until `check` holds (polling), failing after `ms`. */
async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe.each(PROVIDERS)('durable jobs (%s)', (provider) => {
  let t: TestApp;
  const workers: JobWorker[] = [];
  let seq = 0;
  /** A fresh kind per test, so rows of other tests never reach its handler. */
  const kind = (maxAttempts = 5) => jobKind(`test.kind${++seq}`, Payload, { maxAttempts });
  const worker = (handlers: JobHandler<Payload>[], o: Partial<JobsOptions> = {}) => {
    const w = new JobWorker(t.db, provider, options(o), quiet);
    for (const h of handlers) w.register(h);
    workers.push(w);
    return w;
  };
  const job = (id: number) => t.db.job.findUniqueOrThrow({ where: { id } });

  beforeAll(async () => {
    t = await startTestApp(provider);
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop();
    await t.db.job.deleteMany();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('outbox: a job enqueued in a transaction that rolls back never exists; a committed one runs once', async () => {
    const k = kind();
    const runs: number[] = [];
    const w = worker([defineHandler(k, async (p) => void runs.push(p.n))]);
    await expect(
      withTx(t.system, async (tx) => {
        await enqueue(tx, k, { n: 1 });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await withTx(t.system, async (tx) => enqueue(tx, k, { n: 2 }));
    const rows = await t.db.job.findMany({ where: { kind: k.name }, select: { id: true } });
    expect(rows).toHaveLength(1);
    await w.drain();
    await w.drain();
    expect(runs).toEqual([2]);
    expect(await job(rows[0]!.id)).toMatchObject({ status: 'DONE', attempts: 1, lockedBy: '', lockedAt: null });
  });

  it("outbox: a transaction's jobs are written together before its commit, in the order they were enqueued", async () => {
    const k = kind();
    const runs: number[] = [];
    const w = worker([defineHandler(k, async (p) => void runs.push(p.n))]);
    let seenInside = -1;
    await withTx(t.system, async (tx) => {
      for (const n of [1, 2, 3]) await enqueue(tx, k, { n });
      seenInside = await tx.job.count({ where: { kind: k.name } });
    });
    expect(seenInside, 'the jobs wait in the outbox while the transaction runs').toBe(0);
    const rows = await t.db.job.findMany({
      where: { kind: k.name },
      orderBy: { id: 'asc' },
      select: { payload: true, status: true, maxAttempts: true },
    });
    expect(rows.map((r) => JSON.parse(r.payload))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(rows.every((r) => r.status === 'PENDING' && r.maxAttempts === k.maxAttempts)).toBe(true);
    await w.drain();
    await w.drain();
    expect(runs.sort()).toEqual([1, 2, 3]);
  });

  it('an in-transaction subscriber enqueues with the change: a committed change gets its job, a failed one neither', async () => {
    const k = kind();
    const ran: number[] = [];
    const w = worker([defineHandler(k, async (p) => void ran.push(p.n))]);
    let mode: 'off' | 'ok' | 'fail' = 'ok';
    t.app.deps.notifier.subscribeInTransaction({
      name: 'test-outbox',
      async handle(tx, event) {
        if (mode === 'off' || event.type !== 'user.created') return;
        await enqueue(tx, k, { n: event.userId });
        if (mode === 'fail') throw new Error('cannot record the follow-up');
      },
    });
    try {
      const user = await t.createUser('outbox1');
      mode = 'fail';
      await expect(t.createUser('outbox2')).rejects.toThrow('cannot record the follow-up');
      expect(await t.db.user.findUnique({ where: { lowerName: 'outbox2' } })).toBeNull();
      expect(await t.db.job.count({ where: { kind: k.name } })).toBe(1);
      await w.drain();
      expect(ran).toEqual([user.id]);
    } finally {
      mode = 'off';
    }
  });

  it('wakes a started worker when the enqueuing transaction commits (poll interval one minute)', async () => {
    const k = kind();
    const ran: number[] = [];
    const w = worker([defineHandler(k, async (p) => void ran.push(p.n))], { pollIntervalMs: 60_000 });
    w.start();
    await sleep(100); // the first poll found nothing; the next is a minute away
    const started = Date.now();
    await withTx(t.system, (tx) => enqueue(tx, k, { n: 7 }));
    await until(() => ran.length === 1, 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ran).toEqual([7]);
  });

  it('claims once for what a commit enqueued: with those jobs done and nothing more waiting, it claims no more until woken', async () => {
    const k = kind();
    const ran: number[] = [];
    const w = worker([defineHandler(k, async (p) => void ran.push(p.n))], { pollIntervalMs: 60_000 });
    w.start();
    await sleep(100); // the first poll found nothing; the next is a minute away
    // A claim is a write (on SQLite it takes the one write lock), empty or not.
    const claims = () => t.queries.filter((q) => /SET "status" = 'RUNNING'/.test(q)).length;
    const before = claims();
    await withTx(t.system, async (tx) => {
      await enqueue(tx, k, { n: 1 });
      await enqueue(tx, k, { n: 2 });
    });
    await until(() => ran.length === 2, 5000);
    await sleep(300); // what the end of the two jobs set off
    expect(ran.sort()).toEqual([1, 2]);
    // One claim took both (fewer than its four slots: the queue was empty), and their ends claimed nothing.
    expect(claims() - before).toBe(1);
    // The next commit wakes it again.
    await withTx(t.system, (tx) => enqueue(tx, k, { n: 3 }));
    await until(() => ran.length === 3, 5000);
    expect(claims() - before).toBe(2);
  });

  it('retries with exponential backoff, records attempts and the last error, and is dead after maxAttempts', async () => {
    const k = kind(4);
    const at: number[] = [];
    const w = worker([
      defineHandler(k, async () => {
        at.push(Date.now());
        throw new Error(`boom ${at.length}`);
      }),
    ]);
    const id = await enqueue(t.db, k, { n: 1 });
    await w.drain();
    expect(await job(id)).toMatchObject({ status: 'PENDING', attempts: 1, lastError: 'attempt 1: Error: boom 1' });
    // The first retry waits retryBaseMs (100 ms) plus up to 10 % jitter, from when the attempt failed.
    const wait = (await job(id)).runAt.getTime() - (at[0] ?? 0);
    expect(wait).toBeGreaterThanOrEqual(100);
    expect(wait).toBeLessThan(400);
    w.start();
    await until(async () => (await job(id)).status === 'FAILED');
    const dead = await job(id);
    expect(dead).toMatchObject({ status: 'FAILED', attempts: 4, lastError: 'attempt 4: Error: boom 4' });
    expect(at).toHaveLength(4);
    // Gaps double: 100, 200, 400 ms (capped at retryMaxMs 400), give or take polling.
    const gaps = at.slice(1).map((x, i) => x - (at[i] ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(95);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    expect(gaps[2]).toBeGreaterThanOrEqual(380);
    await sleep(600);
    expect(at).toHaveLength(4); // dead jobs are not retried
  });

  it('a PermanentJobError or an invalid payload is dead at once', async () => {
    const k = kind();
    const w = worker([
      defineHandler(k, async () => {
        throw new PermanentJobError('cannot ever work');
      }),
    ]);
    const a = await enqueue(t.db, k, { n: 1 });
    const b = (await t.db.job.create({ data: { kind: k.name, payload: '{"n":"not a number"}' } })).id;
    await w.drain();
    expect(await job(a)).toMatchObject({ status: 'FAILED', attempts: 1, lastError: 'attempt 1: PermanentJobError: cannot ever work' });
    expect((await job(b)).status).toBe('FAILED');
    expect((await job(b)).lastError).toContain('invalid payload');
  });

  it('reclaims a job whose worker died once its lease expired, and leaves a live lease alone', async () => {
    const k = kind();
    const ran: number[] = [];
    const w = worker([defineHandler(k, async (p) => void ran.push(p.n))], { leaseMs: 1000 });
    const old = new Date(Date.now() - 5000);
    const dead = await t.db.job.create({
      data: { kind: k.name, payload: '{"n":1}', status: 'RUNNING', attempts: 1, lockedBy: 'gone:1:x', lockedAt: old, runAt: old },
    });
    const live = await t.db.job.create({
      data: { kind: k.name, payload: '{"n":2}', status: 'RUNNING', attempts: 1, lockedBy: 'alive:2:y', lockedAt: new Date(), runAt: old },
    });
    await w.drain();
    expect(ran).toEqual([1]);
    expect(await job(dead.id)).toMatchObject({ status: 'DONE', attempts: 2 });
    expect(await job(live.id)).toMatchObject({ status: 'RUNNING', lockedBy: 'alive:2:y' });
  });

  it('a job reclaimed more than maxAttempts times (its worker keeps dying) is dead', async () => {
    const k = kind(2);
    const ran: number[] = [];
    const w = worker([defineHandler(k, async (p) => void ran.push(p.n))], { leaseMs: 1000 });
    const old = new Date(Date.now() - 5000);
    const poison = await t.db.job.create({
      data: { kind: k.name, payload: '{"n":1}', status: 'RUNNING', attempts: 2, maxAttempts: 2, lockedBy: 'gone:1:x', lockedAt: old },
    });
    await w.drain();
    expect(ran).toEqual([]);
    expect(await job(poison.id)).toMatchObject({ status: 'FAILED', attempts: 3 });
    expect((await job(poison.id)).lastError).toContain('lease expired');
  });

  it('renews the lease of a long job, so no other worker takes it over', async () => {
    const k = kind();
    let runs = 0;
    const slow = defineHandler(k, async () => {
      runs++;
      await sleep(1500);
    });
    const a = worker([slow], { leaseMs: 300 });
    const b = worker([slow], { leaseMs: 300 });
    const id = await enqueue(t.db, k, { n: 1 });
    const first = a.drain();
    await sleep(100);
    b.start(); // polls every 50 ms for 1.4 s while a's lease (300 ms) is renewed every 100 ms
    await first;
    await b.stop();
    expect(runs).toBe(1);
    expect(await job(id)).toMatchObject({ status: 'DONE', attempts: 1 });
  });

  it('hold: a job written before an outside change runs in this process, or by another worker if this one dies', async () => {
    const k = kind();
    const ran: Payload[] = [];
    const handler = defineHandler(k, async (p) => void ran.push(p));
    const a = worker([handler], { leaseMs: 300 });
    const held = await a.hold(k, { n: 1 });
    expect(await job(held.id)).toMatchObject({ status: 'RUNNING', lockedBy: a.id, attempts: 1 });
    const b = worker([handler], { leaseMs: 300 });
    await b.drain();
    expect(ran).toEqual([]); // held, leased: not claimable
    expect(await held.run({ n: 1, step: 2 })).toBe(true);
    expect(ran).toEqual([{ n: 1, step: 2 }]);
    expect(await job(held.id)).toMatchObject({ status: 'DONE', payload: '{"n":1,"step":2}' });

    // A holder that dies (no heartbeat, never runs it): the lease expires and b replays the stored payload.
    const orphan = await t.db.job.create({
      data: { kind: k.name, payload: '{"n":3}', status: 'RUNNING', attempts: 1, lockedBy: 'dead:9:z', lockedAt: new Date() },
    });
    await b.drain();
    expect(ran).toHaveLength(1);
    await sleep(400);
    await b.drain();
    expect(ran.at(-1)).toEqual({ n: 3 });
    expect(await job(orphan.id)).toMatchObject({ status: 'DONE', attempts: 2 });
  });

  it('checkpoint: stored with the handler transaction and seen by the retry; rolled back with it', async () => {
    const k = kind();
    const seen: Payload[] = [];
    const w = worker([
      defineHandler(k, async (p, run) => {
        seen.push(p);
        if (p.step === undefined) {
          await withTx(t.system, (tx) => run.checkpoint(tx, { ...p, step: 1 }));
          throw new Error('crash after step 1');
        }
        if (p.step === 1) {
          await expect(
            withTx(t.system, async (tx) => {
              await run.checkpoint(tx, { ...p, step: 2 });
              throw new Error('step 2 rolls back');
            }),
          ).rejects.toThrow('step 2 rolls back');
          throw new Error('crash in step 2');
        }
      }),
    ]);
    const id = await enqueue(t.db, k, { n: 5 });
    await w.drain();
    expect(JSON.parse((await job(id)).payload)).toEqual({ n: 5, step: 1 });
    await sleep(150);
    await w.drain();
    expect(seen).toEqual([{ n: 5 }, { n: 5, step: 1 }]);
    expect(JSON.parse((await job(id)).payload)).toEqual({ n: 5, step: 1 });
  });

  it('shutdown: a running job finishes within the grace period; one that does not is released, its attempt not counted', async () => {
    const k = kind();
    const finished: number[] = [];
    const w = worker(
      [
        defineHandler(k, async (p, run) => {
          await sleep(p.n === 1 ? 100 : 5000, undefined, { signal: run.signal }).catch(() => undefined);
          if (!run.signal.aborted) finished.push(p.n);
        }),
      ],
      { shutdownTimeoutMs: 500 },
    );
    const quick = await enqueue(t.db, k, { n: 1 });
    const slow = await enqueue(t.db, k, { n: 2 });
    w.start();
    await until(async () => (await t.db.job.count({ where: { kind: k.name, status: 'RUNNING' } })) === 2);
    const stopping = Date.now();
    await w.stop();
    expect(Date.now() - stopping).toBeLessThan(2000);
    expect(finished).toEqual([1]);
    expect(await job(quick)).toMatchObject({ status: 'DONE' });
    expect(await job(slow)).toMatchObject({ status: 'PENDING', attempts: 0, lockedBy: '', lockedAt: null });
  });
});

describe.each(PROVIDERS)('two instances on one database (%s)', (provider) => {
  let a: JobApp;
  let b: JobApp;
  const env = { JOBS_POLL_INTERVAL: '20ms', JOBS_CONCURRENCY: '3' };
  beforeAll(async () => {
    a = await startJobApp(provider, env);
    b = await startJobApp(provider, env, a.database);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('each of 150 jobs runs exactly once, and both instances take a share', async () => {
    const k = jobKind('test.shared', Payload);
    const runs = new Map<number, string[]>();
    for (const app of [a, b]) {
      const name = app === a ? 'a' : 'b';
      app.app.jobs.register(
        defineHandler(k, async (p) => {
          runs.set(p.n, [...(runs.get(p.n) ?? []), name]);
          await sleep(2);
        }),
      );
    }
    const db = a.app.deps.db;
    for (let i = 0; i < 150; i++) await enqueue(db, k, { n: i });
    a.app.jobs.start();
    b.app.jobs.start();
    await until(async () => (await db.job.count({ where: { kind: k.name, status: 'DONE' } })) === 150, 60_000);
    expect(runs.size).toBe(150);
    expect([...runs.values()].filter((r) => r.length !== 1)).toEqual([]);
    const byA = [...runs.values()].filter((r) => r[0] === 'a').length;
    expect(byA).toBeGreaterThan(0);
    expect(byA).toBeLessThan(150);
    expect(await db.job.aggregate({ where: { kind: k.name }, _max: { attempts: true } })).toMatchObject({ _max: { attempts: 1 } });
  });
});
