import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../../src/db/client.ts';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic } from '../../helpers/app.ts';
import { PROVIDERS, type TestDatabase } from '../../helpers/db.ts';
import { prepareServerDatabase, serverEnv, startInProcessServer } from '../../helpers/serverDatabase.ts';
import { freePort, ServerProcess, until } from '../../helpers/serverProcess.ts';

/**
 * A file written through the API is a ref update like a push: its push job is held BEFORE the branch moves, so a
 * server killed between the ref update and the bookkeeping gets the bookkeeping replayed after a restart.
 */
describe.each(PROVIDERS)('a server killed after an API file commit moved the branch (%s)', (provider) => {
  let database: TestDatabase;
  let db: Db;
  let port: number;
  let server: ServerProcess | null = null;
  let env: Record<string, string>;

  const start = async (extra: Record<string, string> = {}) => {
    server = new ServerProcess({ ...env, ...extra });
    await server.ready(port);
    return server;
  };
  const api = (method: string, url: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
      method,
      headers: { ...basic('alice'), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    ({ database, db } = await prepareServerDatabase(provider));
    port = await freePort();
    env = serverEnv(database, port);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await db?.$disconnect();
    await database?.drop();
  });

  it('replays the push job: the Branch row and the feed follow git', { timeout: 240_000 }, async () => {
    // The stage is set by an instance in this process (a server process costs ~5 s of CPU to start).
    const healthy = await startInProcessServer(provider, database, env);
    expect((await api('POST', '/user/repos', { name: 'demo', auto_init: true, default_branch: 'main' })).status).toBe(201);
    await healthy.close();

    const crashing = await start({ FORGEGRAPH_TEST_CRASH_AFTER_REF_UPDATE: '1' });
    await api('POST', '/repos/alice/demo/contents/new.txt', { content: Buffer.from('new\n').toString('base64') }).catch(() => null);
    expect((await crashing.exited).signal).toBe('SIGKILL');
    server = null;

    const repo = await db.repository.findFirstOrThrow({ where: { lowerName: 'demo' } });
    const gitDir = repoPath(path.join(database.dataDir, 'repositories'), 'alice', 'demo');
    const head = (await readRefs(gitDir, ['refs/heads/main'])).get('refs/heads/main');
    const branch = () => db.branch.findUnique({ where: { repoId_name: { repoId: repo.id, name: 'main' } } });
    expect((await branch())?.commitId).not.toBe(head);
    const jobs = await db.job.findMany({ where: { kind: 'repo.push', status: 'RUNNING' } });
    expect(jobs).toHaveLength(1);

    await start();
    await until(async () => (await db.job.count({ where: { id: jobs[0]?.id, status: 'DONE' } })) === 1, 60_000, 'the replayed push job');
    expect(await branch()).toMatchObject({ commitId: head, commitMessage: "Add 'new.txt'" });
    const feed = await db.action.findMany({ where: { repoId: repo.id, opType: 'COMMIT_REPO' } });
    expect(feed.length).toBeGreaterThan(0);
  });
});
