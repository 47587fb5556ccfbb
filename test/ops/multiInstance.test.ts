import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'graphql-sse';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitClient } from '../githttp/gitClient.ts';
import { basic } from '../helpers/app.ts';
import { haproxyBinary, startCluster, type Cluster } from '../helpers/cluster.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { HookReceiver } from '../helpers/hookReceiver.ts';
import { until } from '../helpers/serverProcess.ts';

const HAPROXY = haproxyBinary();
const ON_POSTGRES = PROVIDERS.includes('postgresql');
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!HAPROXY) console.warn('multi-instance test skipped: haproxy is not installed (apt-get install haproxy; .ci/run installs it)');
if (!ON_POSTGRES) console.warn('multi-instance test skipped: it runs on PostgreSQL only (set TEST_DATABASE_URL)');

const AUTH = basic('alice');
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
const figures: Record<string, unknown> = {};

/**
 * Two `forgegraph serve` processes on one PostgreSQL database and one data directory behind HAProxy round-robin,
 * driven through the balancer: concurrent pushes and merges to one repository, concurrent issue creation,
 * webhooks delivered once, a cron task run once per slot, a subscription on one instance hearing a write made
 * through the other, and `kill -9` of an instance under load with no acknowledged write lost.
 */
describe.skipIf(!HAPROXY || !ON_POSTGRES)('several instances behind HAProxy (postgresql)', () => {
  let c: Cluster;
  let receiver: HookReceiver;
  const git = new GitClient();
  let remote: string;

  beforeAll(async () => {
    receiver = await HookReceiver.start();
    c = await startCluster(2, {
      REDIS_URL,
      WEBHOOK_ALLOWED_HOST_LIST: 'loopback',
      CRON_ENABLED: 'true',
      CRON_CLEANUP_HOOK_TASK_TABLE_ENABLED: 'true',
      CRON_CLEANUP_HOOK_TASK_TABLE_SCHEDULE: '@every 2s',
      JOBS_POLL_INTERVAL: '200ms',
      JOBS_LEASE: '3s',
    });
    const created = await c.fetch('api/v1/user/repos', {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ name: 'scale', auto_init: true, default_branch: 'main' }),
    });
    expect(`${created.status} ${await created.text()}`).toMatch(/^201/);
    const hook = await c.fetch('api/v1/repos/alice/scale/hooks', {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ type: 'gitea', active: true, events: ['issues'], config: { url: receiver.url, content_type: 'json' } }),
    });
    expect(hook.status).toBe(201);
    remote = `http://alice:${encodeURIComponent('password123!')}@${new URL(c.url).host}/alice/scale.git`;
  }, 120_000);

  afterAll(async () => {
    git.dispose();
    await c?.close();
    await receiver?.close();
    console.log(`multi-instance figures: ${JSON.stringify(figures)}`);
    const errors = c?.instances.flatMap((i) =>
      i.process.output
        .join('')
        .split('\n')
        .filter((l) => l.includes('"level":50')),
    );
    if (errors?.length) console.log(`server errors:\n${errors.join('\n')}`);
  });

  it('concurrent issue creation through the balancer: gapless numbers, each webhook delivered exactly once', async () => {
    const N = 24;
    // Waves of 8 concurrent creations (through both instances): on a loaded 2-core machine larger waves queue on
    // the repository's issue counter row past the 15 s transaction timeout (see the report of issue #18).
    const results: Response[] = [];
    for (let wave = 0; wave < N / 8; wave++) {
      results.push(
        ...(await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            c.fetch('api/v1/repos/alice/scale/issues', {
              method: 'POST',
              headers: JSON_AUTH,
              body: JSON.stringify({ title: `issue ${wave * 8 + i}` }),
            }),
          ),
        )),
      );
    }
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(201));
    const numbers = (await Promise.all(results.map(async (r) => ((await r.json()) as { number: number }).number))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    expect([...c.servedBy.keys()].filter((k) => k !== 'none').sort()).toEqual(['fg1', 'fg2']);

    const opened = () => receiver.of('issues').filter((d) => (JSON.parse(d.body) as { action: string }).action === 'opened');
    const deadline = Date.now() + 60_000;
    while (opened().length < N && Date.now() < deadline) await sleep(100);
    await sleep(1500); // a duplicate would arrive now
    const deliveries = opened();
    const perIssue = new Map<number, number>();
    for (const d of deliveries) {
      const n = (JSON.parse(d.body) as { issue: { number: number } }).issue.number;
      perIssue.set(n, (perIssue.get(n) ?? 0) + 1);
    }
    expect(new Set(deliveries.map((d) => d.headers['x-gitea-delivery'])).size).toBe(deliveries.length);
    expect([...perIssue.keys()].sort((a, b) => a - b)).toEqual(numbers);
    expect([...perIssue.values()].every((v) => v === 1)).toBe(true);
    figures.issuesCreated = N;
    figures.webhookDeliveries = deliveries.length;
  }, 120_000);

  it('concurrent pushes to one branch and concurrent merges: every commit lands, refs and rows agree', async () => {
    const K = 4;
    const work = await Promise.all(
      Array.from({ length: K }, async (_, i) => {
        const dir = git.dir(`w${i}`);
        expect((await git.run(['clone', '-q', remote, dir])).code).toBe(0);
        return dir;
      }),
    );
    // Feature branches (for the merges), pushed concurrently.
    const featurePushes = await Promise.all(
      work.map(async (dir, i) => {
        await git.ok(['checkout', '-q', '-b', `feature-${i}`], { cwd: dir });
        await git.commit(dir, `feature-${i}.txt`, `feature ${i}\n`);
        return git.run(['push', '-q', 'origin', `feature-${i}`], { cwd: dir });
      }),
    );
    expect(featurePushes.filter((p) => p.code !== 0).map((p) => p.stderr)).toEqual([]);
    // Everyone pushes to main at once; a rejected (non-fast-forward) push rebases and tries again.
    let rejected = 0;
    await Promise.all(
      work.map(async (dir, i) => {
        await git.ok(['checkout', '-q', 'main'], { cwd: dir });
        await git.commit(dir, `main-${i}.txt`, `main ${i}\n`);
        for (let attempt = 0; attempt < 20; attempt++) {
          const pushed = await git.run(['push', '-q', 'origin', 'main'], { cwd: dir });
          if (pushed.code === 0) return;
          rejected++;
          expect((await git.run(['pull', '-q', '--rebase', 'origin', 'main'], { cwd: dir })).code).toBe(0);
        }
        throw new Error(`push ${i} never landed`);
      }),
    );
    // Pull requests, merged concurrently through the balancer (405 "try again later" while being checked).
    const pulls = await Promise.all(
      work.map(async (_, i) => {
        const res = await c.fetch('api/v1/repos/alice/scale/pulls', {
          method: 'POST',
          headers: JSON_AUTH,
          body: JSON.stringify({ head: `feature-${i}`, base: 'main', title: `merge ${i}` }),
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { number: number }).number;
      }),
    );
    const mergeStatuses = await Promise.all(
      pulls.map(async (n) => {
        for (let attempt = 0; attempt < 60; attempt++) {
          const res = await c.fetch(`api/v1/repos/alice/scale/pulls/${n}/merge`, {
            method: 'POST',
            headers: JSON_AUTH,
            body: JSON.stringify({ Do: 'merge' }),
          });
          if (res.status !== 405 && res.status !== 409) return res.status;
          await sleep(250);
        }
        return 0;
      }),
    );
    expect(mergeStatuses).toEqual(Array(K).fill(200));
    // A fresh clone has every pushed and merged file.
    const check = git.dir('check');
    expect((await git.run(['clone', '-q', remote, check])).code).toBe(0);
    const files = readdirSync(check).filter((f) => f.endsWith('.txt'));
    for (let i = 0; i < K; i++) expect(files).toEqual(expect.arrayContaining([`main-${i}.txt`, `feature-${i}.txt`]));
    // Bookkeeping: every push job finished, the branch row follows git, the pull requests are merged.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await c.db.job.count({ where: { kind: 'repo.push', status: { in: ['PENDING', 'RUNNING'] } } })) > 0)
      await sleep(200);
    expect(await c.db.job.count({ where: { kind: 'repo.push', status: { not: 'DONE' } } })).toBe(0);
    const head = (await git.run(['rev-parse', 'HEAD'], { cwd: check })).stdout.trim();
    const repo = await c.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', lowerName: 'scale' } });
    const branch = await c.db.branch.findFirst({ where: { repoId: repo.id, name: 'main' } });
    expect(branch?.commitId).toBe(head);
    expect(await c.db.pullRequest.count({ where: { baseRepoId: repo.id, hasMerged: true } })).toBe(K);
    figures.concurrentPushes = K * 2;
    figures.rejectedNonFastForward = rejected;
    figures.merges = K;
  }, 240_000);

  it('a subscription on one instance receives an issue written through the other (Redis)', async () => {
    const [one, two] = c.instances;
    const client = createClient({ url: `${one!.url}api/graphql`, headers: AUTH, retryAttempts: 0 });
    const received: Array<{ data?: { issueEvents?: { action: string; issue: { number: number; title: string } } } }> = [];
    const unsubscribe = client.subscribe(
      { query: 'subscription { issueEvents(owner: "alice", name: "scale") { action issue { number title } } }' },
      { next: (r) => void received.push(r as (typeof received)[number]), error: () => undefined, complete: () => undefined },
    );
    const redis = new Redis(REDIS_URL);
    try {
      // The subscription reached Redis: instance one's channel of the repository has a subscriber. (Its first GraphQL
      // request loads the schema, and SUBSCRIBE follows it: seconds on a loaded machine.)
      const [installation] = await c.db.$queryRawUnsafe<Array<{ uuid: string }>>('SELECT "uuid" FROM "Installation" WHERE "id" = 1');
      const repo = await c.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', lowerName: 'scale' } });
      const channel = `forgegraph:${installation!.uuid}:repo:${repo.id}`;
      await until(async () => Number(((await redis.pubsub('NUMSUB', channel)) as Array<string | number>)[1]) >= 1, 30_000, channel);
      const res = await fetch(`${two!.url}api/v1/repos/alice/scale/issues`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ title: 'heard across instances' }),
      });
      expect(res.status).toBe(201);
      const { number } = (await res.json()) as { number: number };
      const deadline = Date.now() + 20_000;
      while (!received.some((r) => r.data?.issueEvents?.issue.number === number) && Date.now() < deadline) await sleep(50);
      expect(received.map((r) => r.data?.issueEvents)).toContainEqual({
        action: 'CREATED',
        issue: { number, title: 'heard across instances' },
      });
    } finally {
      unsubscribe();
      client.dispose();
      redis.disconnect();
    }
  }, 60_000);

  it('a cron task runs once per slot across both instances', async () => {
    const task = () => c.db.cronTask.findUniqueOrThrow({ where: { name: 'cleanup_hook_task_table' } });
    const before = await task();
    const started = Date.now();
    await sleep(8_000);
    const after = await task();
    const runs = after.execTimes - before.execTimes;
    const slots = (Date.now() - started) / 2000;
    // Both schedulers run the schedule; each slot is claimed by one of them (twice would be ~2 × slots).
    expect(runs).toBeGreaterThanOrEqual(Math.floor(slots) - 1);
    expect(runs).toBeLessThanOrEqual(Math.ceil(slots) + 1);
    figures.cronRuns = runs;
    figures.cronSlots = Math.round(slots * 10) / 10;
  }, 30_000);

  it('kill -9 of one instance under write load: no acknowledged write is lost, numbers stay gapless', async () => {
    const acknowledged: Array<{ number: number; title: string }> = [];
    let failed = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const title = `load ${w}-${i}`;
        try {
          const res = await c.fetch('api/v1/repos/alice/scale/issues', {
            method: 'POST',
            headers: JSON_AUTH,
            body: JSON.stringify({ title }),
          });
          if (res.status === 201) acknowledged.push({ number: ((await res.json()) as { number: number }).number, title });
          else failed++;
        } catch {
          failed++;
        }
      }
    };
    const writers = Array.from({ length: 4 }, (_, w) => writer(w));
    await sleep(1500);
    const victim = c.instances[0]!;
    await victim.process.kill();
    const ackAtKill = acknowledged.length;
    await sleep(3000);
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(ackAtKill); // the survivor kept serving

    let lost = 0;
    const repo = await c.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', lowerName: 'scale' } });
    const rows = await c.db.issue.findMany({ where: { repoId: repo.id }, select: { index: true, title: true } });
    const byNumber = new Map(rows.map((r) => [r.index, r.title]));
    for (const a of acknowledged) if (byNumber.get(a.number) !== a.title) lost++;
    expect(lost).toBe(0);
    expect(new Set(acknowledged.map((a) => a.number)).size).toBe(acknowledged.length);
    const numbers = rows.map((r) => r.index).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    // Every acknowledged issue still gets its webhook (the victim's claimed jobs are taken over after their lease).
    const delivered = () =>
      new Set(
        receiver
          .of('issues')
          .map((d) => JSON.parse(d.body) as { action: string; issue: { number: number } })
          .filter((p) => p.action === 'opened')
          .map((p) => p.issue.number),
      );
    const deadline = Date.now() + 60_000;
    while (acknowledged.some((a) => !delivered().has(a.number)) && Date.now() < deadline) await sleep(200);
    expect(acknowledged.filter((a) => !delivered().has(a.number))).toEqual([]);
    const opened = receiver.of('issues').filter((d) => (JSON.parse(d.body) as { action: string }).action === 'opened');
    figures.loadAcknowledged = acknowledged.length;
    figures.loadUnacknowledged = failed;
    figures.lostWrites = lost;
    figures.deliveriesTotal = opened.length;
    figures.duplicateDeliveriesAfterKill = opened.length - new Set(opened.map((d) => d.headers['x-gitea-delivery'])).size;
    figures.requestsPerInstance = Object.fromEntries(c.servedBy);
    // The survivor shuts down gracefully on SIGTERM.
    await c.instances[1]!.process.stop();
    expect((await c.instances[1]!.process.exited).code).toBe(0);
  }, 180_000);
});
