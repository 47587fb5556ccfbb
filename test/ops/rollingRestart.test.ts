// Issue #30 finding 9: a rolling restart behind HAProxy under load. Each instance, stopped with SIGTERM, keeps
// serving while only /readyz fails for SHUTDOWN_DELAY, so the balancer takes it out of rotation before its
// listener closes; what it accepted it answers. Clients must see no error at all, and every acknowledged write
// must be there.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../helpers/app.ts';
import { haproxyBinary, startCluster, type Cluster } from '../helpers/cluster.ts';
import { PROVIDERS } from '../helpers/db.ts';

const HAPROXY = haproxyBinary();
const ON_POSTGRES = PROVIDERS.includes('postgresql');
const JSON_AUTH = { ...basic('alice'), 'content-type': 'application/json' };

describe.skipIf(!HAPROXY || !ON_POSTGRES)('a rolling restart behind HAProxy (postgresql)', () => {
  let c: Cluster;

  beforeAll(async () => {
    // HAProxy's checks (cluster.ts: every 300 ms, down after 3 failures) notice a draining instance within ~1 s.
    c = await startCluster(2, { SHUTDOWN_DELAY: '2s' });
    const created = await c.fetch('api/v1/user/repos', {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify({ name: 'roll', auto_init: true }),
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => c?.close());

  it('restarting each instance in turn under load fails no request and loses no acknowledged write', async () => {
    const failures: string[] = [];
    const acknowledged: number[] = [];
    let requests = 0;
    let running = true;
    const client = async (id: number) => {
      for (let i = 0; running; i++) {
        try {
          if (i % 3 === 0) {
            const res = await c.fetch('api/v1/repos/alice/roll/issues', {
              method: 'POST',
              headers: JSON_AUTH,
              body: JSON.stringify({ title: `client ${id} write ${i}` }),
            });
            const body = await res.text();
            if (res.status !== 201) failures.push(`POST issue: ${res.status} ${body.slice(0, 200)}`);
            else acknowledged.push((JSON.parse(body) as { number: number }).number);
          } else {
            const res = await c.fetch('api/v1/repos/alice/roll', { headers: basic('alice') });
            await res.arrayBuffer();
            if (res.status !== 200) failures.push(`GET repository: ${res.status}`);
          }
        } catch (err) {
          failures.push(`request failed: ${(err as Error).message} ${String((err as Error).cause ?? '')}`);
        }
        requests++;
      }
    };
    const clients = [1, 2, 3, 4].map(client);
    await sleep(1000);
    const servedBefore = new Map(c.servedBy);
    // As an orchestrator does: the next instance stops only once the balancer routes to the restarted one again.
    for (const [index, instance] of c.instances.entries()) {
      await c.restart(index);
      const served = c.servedBy.get(instance.name) ?? 0;
      const until = Date.now() + 60_000;
      while ((c.servedBy.get(instance.name) ?? 0) < served + 3 && Date.now() < until) await sleep(100);
    }
    // Both restarted instances serve again.
    const deadline = Date.now() + 60_000;
    while (c.instances.some((i) => (c.servedBy.get(i.name) ?? 0) <= (servedBefore.get(i.name) ?? 0) + 5) && Date.now() < deadline) {
      await sleep(200);
    }
    running = false;
    await Promise.all(clients);

    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(100);
    for (const i of c.instances) expect(c.servedBy.get(i.name) ?? 0).toBeGreaterThan((servedBefore.get(i.name) ?? 0) + 5);
    const repo = await c.db.repository.findFirstOrThrow({ where: { lowerName: 'roll' } });
    const stored = new Set(
      (await c.db.issue.findMany({ where: { repoId: repo.id }, select: { index: true } })).map((r) => Number(r.index)),
    );
    expect(acknowledged.filter((n) => !stored.has(n))).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(20);
  });
});
