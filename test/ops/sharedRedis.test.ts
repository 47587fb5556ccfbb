import { createClient } from 'graphql-sse';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { basic } from '../helpers/app.ts';
import { PROVIDERS, type TestDatabase } from '../helpers/db.ts';
import { prepareServerDatabase, serverEnv } from '../helpers/serverDatabase.ts';
import { freePort, ServerProcess, until } from '../helpers/serverProcess.ts';

const ON_POSTGRES = PROVIDERS.includes('postgresql');
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
if (!ON_POSTGRES) console.warn('shared Redis test skipped: it runs on PostgreSQL only (set TEST_DATABASE_URL)');

const AUTH = basic('alice');
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

interface Installation {
  database: TestDatabase;
  db: Db;
  server: ServerProcess;
  url: string;
}

type Received = { data?: { issueEvents?: { action: string; issue: { title: string } } } };

/** issueEvents of alice/same on `at`, collected. */
function subscribe(at: Installation) {
  const client = createClient({ url: `${at.url}api/graphql`, headers: AUTH, retryAttempts: 0 });
  const received: Received[] = [];
  const unsubscribe = client.subscribe(
    { query: 'subscription { issueEvents(owner: "alice", name: "same") { action issue { title } } }' },
    {
      next: (r) => void received.push(r as Received),
      error: (e) => void received.push({ data: { issueEvents: { action: String(e), issue: { title: '' } } } }),
      complete: () => undefined,
    },
  );
  return {
    titles: () => received.map((r) => `${r.data?.issueEvents?.action} ${r.data?.issueEvents?.issue.title}`),
    close() {
      unsubscribe();
      client.dispose();
    },
  };
}

/**
 * Two installations (two `forgegraph serve` processes on two PostgreSQL databases) configured with one REDIS_URL:
 * their repositories and issues have the same ids, yet a subscriber of one never hears the other's writes.
 */
describe.skipIf(!ON_POSTGRES)('two installations sharing one Redis (postgresql)', () => {
  const installations: Installation[] = [];
  let spy: Redis;
  let admin: Redis;

  beforeAll(async () => {
    spy = new Redis(REDIS_URL);
    admin = new Redis(REDIS_URL);
    for (const prepared of await Promise.all([prepareServerDatabase('postgresql'), prepareServerDatabase('postgresql')])) {
      const port = await freePort();
      const server = new ServerProcess(serverEnv(prepared.database, port, { REDIS_URL }));
      installations.push({ ...prepared, server, url: `http://127.0.0.1:${port}/` });
      await server.ready(port);
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(installations.map((i) => i.server.stop()));
    for (const i of installations) {
      await i.db.$disconnect();
      await i.database.drop();
    }
    spy?.disconnect();
    admin?.disconnect();
  });

  const post = async (at: Installation, path: string, body: object) => {
    const res = await fetch(`${at.url}api/v1/${path}`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify(body) });
    expect(`${res.status} ${await res.text()}`).toMatch(/^201/);
  };

  it("a subscriber on one installation receives its own events only, never the other's for the same repository id", async () => {
    const [a, b] = installations as [Installation, Installation];
    for (const at of [a, b]) await post(at, 'user/repos', { name: 'same' });
    const repoA = await a.db.repository.findFirstOrThrow({ where: { lowerName: 'same' } });
    const repoB = await b.db.repository.findFirstOrThrow({ where: { lowerName: 'same' } });
    expect(repoA.id).toBe(repoB.id);
    // A's first issue has the id B's first issue will get.
    await post(a, 'repos/alice/same/issues', { title: 'only on A, before anyone subscribed' });

    // Every channel of repository <id>, whatever installation published it (to know when B's event went out).
    const seen: string[] = [];
    spy.on('pmessage', (_pattern, channel) => void seen.push(channel));
    await spy.psubscribe(`*repo:${repoA.id}`);
    const onA = subscribe(a);
    const onB = subscribe(b);
    try {
      // Both subscriptions reached Redis: two channels of repository <id> (one per installation) have a subscriber.
      await until(
        async () => {
          const channels = (await admin.pubsub('CHANNELS', `*repo:${repoA.id}`)) as string[];
          const counts = channels.length ? ((await admin.pubsub('NUMSUB', ...channels)) as Array<string | number>) : [];
          return counts.filter((_, i) => i % 2 === 1).reduce((n: number, c) => n + Number(c), 0) >= 2;
        },
        30_000,
        'both subscriptions',
      );

      await post(b, 'repos/alice/same/issues', { title: 'only on B' });
      await until(() => seen.length >= 1, 20_000, "B's event on Redis");
      await post(a, 'repos/alice/same/issues', { title: 'marker on A' });
      await until(() => onA.titles().length >= 1 && onA.titles().at(-1) === 'CREATED marker on A', 20_000, "A's marker");
      await until(() => onB.titles().length >= 1, 20_000, "B's own event");
      // Redis delivers in publish order: had B's event reached A, it would be there before the marker.
      expect(onA.titles()).toEqual(['CREATED marker on A']);
      expect(onB.titles()).toEqual(['CREATED only on B']);
    } finally {
      onA.close();
      onB.close();
    }
  }, 120_000);
});
