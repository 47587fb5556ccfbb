import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../src/db/client.ts';
import { basic } from '../helpers/app.ts';
import { PROVIDERS, type TestDatabase } from '../helpers/db.ts';
import { prepareServerDatabase, serverEnv, startInProcessServer } from '../helpers/serverDatabase.ts';
import { freePort, ServerProcess, until } from '../helpers/serverProcess.ts';

async function api(port: number, method: string, url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
    method,
    headers: { ...basic('alice'), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** Two `forgegraph serve` processes on one PostgreSQL database, both running cron: a due mirror is synced once. */
// PostgreSQL only (two processes on one SQLite file are not a supported layout); skipped, not absent, on SQLite.
describe.skipIf(!PROVIDERS.includes('postgresql'))('update_mirrors across two processes (postgresql)', () => {
  const provider = 'postgresql' as const;
  let database: TestDatabase;
  let db: Db;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    ({ database, db } = await prepareServerDatabase(provider));
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await db?.$disconnect();
    await database?.drop();
  });

  it('each due mirror gets one sync job, one set of feed rows', { timeout: 360_000 }, async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const env = (port: number, cron: boolean) =>
      serverEnv(database, port, {
        MIGRATIONS_ALLOW_LOCALNETWORKS: 'true',
        CRON_ENABLED: cron ? 'true' : 'false',
        CRON_UPDATE_MIRRORS_SCHEDULE: '@every 1s',
      });
    // The stage is set by an instance in this process (a server process costs ~5 s of CPU to start).
    const a = await startInProcessServer(provider, database, env(portA, false));
    expect((await api(portA, 'POST', '/user/repos', { name: 'src', auto_init: true })).status).toBe(201);
    const migrated = await api(portA, 'POST', '/repos/migrate', {
      clone_addr: `http://127.0.0.1:${portA}/alice/src.git`,
      repo_name: 'mir',
      mirror: true,
      mirror_interval: '10m',
      auth_username: 'alice',
      auth_password: 'password123!',
    });
    expect(migrated.status).toBe(201);
    const commit = await api(portA, 'POST', '/repos/alice/src/contents/new.txt', { content: 'bmV3' });
    expect(commit.status).toBe(201);
    const sha = (commit.json.commit as { sha: string }).sha;
    await a.close();

    // Both instances run the cron scheduler against the same database; the mirror is due now.
    const mirror = await db.mirror.findFirstOrThrow({});
    await db.mirror.update({ where: { id: mirror.id }, data: { nextUpdateAt: new Date(Date.now() - 1000) } });
    for (const port of [portA, portB]) {
      const s = new ServerProcess(env(port, true));
      servers.push(s);
    }
    await Promise.all([servers[0]?.ready(portA), servers[1]?.ready(portB)]);
    await until(
      async () => (await db.branch.findFirst({ where: { repo: { name: 'mir' }, name: 'main' } }))?.commitId === sha,
      // Two servers just started and a whole suite beside them: the sync can take a while on 2 shared cores.
      120_000,
      'the mirror sync',
    ).catch(async (err: Error) => {
      // What the instances did meanwhile: the sync jobs (attempts, last error), the cron rows, both servers' output.
      const jobs = await db.job.findMany({ where: { kind: 'repo.mirror-sync' } });
      const cron = await db.cronTask.findUnique({ where: { name: 'update_mirrors' } });
      const output = servers.map((s, i) => `--- instance ${i}:\n${s.output.join('').slice(-4000)}`).join('\n');
      throw new Error(`${err.message}\njobs: ${JSON.stringify(jobs)}\ncron: ${JSON.stringify(cron)}\n${output}`);
    });
    // Several more cron ticks on the instances (counted, not slept for: a loaded machine ticks late): nothing is due
    // any more.
    const ticks = async () => (await db.cronTask.findUniqueOrThrow({ where: { name: 'update_mirrors' } })).execTimes;
    const synced = await ticks();
    await until(async () => (await ticks()) >= synced + 3, 120_000, 'three more update_mirrors runs');
    expect(await db.job.count({ where: { kind: 'repo.mirror-sync' } })).toBe(1);
    const repo = await db.repository.findFirstOrThrow({ where: { name: 'mir' } });
    expect(await db.action.count({ where: { repoId: repo.id, opType: 'MIRROR_SYNC_PUSH', userId: repo.ownerId } })).toBe(1);
    const runs = await db.cronTask.findUniqueOrThrow({ where: { name: 'update_mirrors' } });
    expect(runs.execTimes).toBeGreaterThan(1);
  });
});
