import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../src/db/client.ts';
import { readRefs } from '../../src/git/readRefs.ts';
import { repoPath } from '../../src/git/repoPath.ts';
import { basic, PASSWORD } from '../helpers/app.ts';
import { PROVIDERS, type TestDatabase } from '../helpers/db.ts';
import { GitClient, gitUrl } from './gitClient.ts';
import { prepareServerDatabase, serverEnv, startInProcessServer } from '../helpers/serverDatabase.ts';
import { freePort, ServerProcess, until } from '../helpers/serverProcess.ts';

/**
 * The crash this issue is about: the server dies (SIGKILL) after git moved the refs of a push and before any
 * of its bookkeeping ran. The push job recorded by the pre-receive hook is replayed by the restarted server,
 * so the database agrees with git again: Branch rows, refs/pull/N/head, the feed, the pull request's push comment.
 */
describe.each(PROVIDERS)('a server killed between a ref update and its bookkeeping (%s)', (provider) => {
  let database: TestDatabase;
  let db: Db;
  let git: GitClient;
  let port: number;
  let server: ServerProcess | null = null;
  let env: Record<string, string>;

  const start = async (extra: Record<string, string> = {}) => {
    server = new ServerProcess({ ...env, ...extra });
    await server.ready(port);
    return server;
  };
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${url}`, {
      method,
      headers: { ...basic('alice'), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    ({ database, db } = await prepareServerDatabase(provider));
    port = await freePort();
    env = serverEnv(database, port);
    git = new GitClient();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    git?.dispose();
    await db?.$disconnect();
    await database?.drop();
  });

  it('replays the push after a restart: Branch rows and refs/pull/N/head agree with git', { timeout: 240_000 }, async () => {
    // A leftover of the push logs earlier versions wrote is removed at start (it cannot be replayed).
    mkdirSync(path.join(database.dataDir, 'tmp'), { recursive: true });
    writeFileSync(path.join(database.dataDir, 'tmp', 'push-0123abcd.log'), `${'0'.repeat(40)} ${'1'.repeat(40)} refs/heads/x\n`);
    // A repository with a pull request from `feature`, made on a healthy instance in this process (a server process
    // costs ~5 s of CPU to start).
    const healthy = await startInProcessServer(provider, database, env);
    expect((await api('POST', '/user/repos', { name: 'demo', auto_init: true, default_branch: 'main' })).status).toBe(201);
    const url = gitUrl(port, 'alice', 'demo', { user: 'alice', secret: PASSWORD });
    const work = git.dir('work');
    await git.ok(['clone', '-q', url, work]);
    await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: work });
    const first = await git.commit(work, 'a.txt', 'one\n', 'first');
    await git.ok(['push', '-q', 'origin', 'feature'], { cwd: work });
    const pr = await api('POST', '/repos/alice/demo/pulls', { head: 'feature', base: 'main', title: 'feature' });
    expect(pr.status).toBe(201);
    const repo = await db.repository.findFirstOrThrow({ where: { lowerName: 'demo' } });
    const gitDir = repoPath(path.join(database.dataDir, 'repositories'), 'alice', 'demo');
    expect((await readRefs(gitDir, ['refs/pull/1/head'])).get('refs/pull/1/head')).toBe(first);
    await healthy.close();

    // The crashing server: git applies the push, then the process kills itself before any bookkeeping.
    const crashing = await start({ FORGEGRAPH_TEST_CRASH_AFTER_REF_UPDATE: '1' });
    const second = await git.commit(work, 'b.txt', 'two\n', 'second');
    await git.ok(['branch', 'extra'], { cwd: work });
    const push = await git.run(['push', 'origin', 'feature', 'extra'], { cwd: work });
    expect(push.code).not.toBe(0);
    expect((await crashing.exited).signal).toBe('SIGKILL');
    server = null;

    const refs = ['refs/heads/feature', 'refs/heads/extra', 'refs/pull/1/head'];
    let onDisk = await readRefs(gitDir, refs);
    expect(onDisk.get('refs/heads/feature')).toBe(second);
    expect(onDisk.get('refs/heads/extra')).toBe(second);
    // The database is behind git, and the job that will fix it is there, held by the dead process.
    const branch = (name: string) => db.branch.findUnique({ where: { repoId_name: { repoId: repo.id, name } } });
    expect((await branch('feature'))?.commitId).toBe(first);
    expect(await branch('extra')).toBeNull();
    expect(onDisk.get('refs/pull/1/head')).toBe(first);
    const jobs = await db.job.findMany({ where: { kind: 'repo.push', status: 'RUNNING' } });
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0]?.payload ?? '{}')).toMatchObject({ repoId: repo.id, updates: expect.any(Array) });

    // Restart: once the dead lease expires, the job is replayed.
    const restarted = await start();
    await until(async () => (await db.job.count({ where: { id: jobs[0]?.id, status: 'DONE' } })) === 1, 60_000, 'the replayed push job');
    expect(await branch('feature')).toMatchObject({ commitId: second, commitMessage: 'second', isDeleted: false });
    expect(await branch('extra')).toMatchObject({ commitId: second });
    onDisk = await readRefs(gitDir, refs);
    expect(onDisk.get('refs/pull/1/head')).toBe(second);
    const pull = await db.issue.findFirstOrThrow({ where: { repoId: repo.id, index: 1 } });
    const pushComments = await db.comment.findMany({ where: { issueId: pull.id, type: 'PULL_PUSH' } });
    // Opening the pull request recorded its first commit; the replayed push adds the second, once.
    expect(pushComments.map((c) => JSON.parse(c.content) as unknown)).toEqual([
      { is_force_push: false, commit_ids: [first] },
      { is_force_push: false, commit_ids: [second] },
    ]);
    const feed = await db.action.findMany({
      where: { repoId: repo.id, opType: 'COMMIT_REPO', userId: repo.ownerId },
      orderBy: { id: 'asc' },
    });
    expect(feed.map((a) => a.refName)).toEqual(['refs/heads/feature', 'refs/heads/feature', 'refs/heads/extra']);
    // No temporary push logs any more.
    const tmp = path.join(database.dataDir, 'tmp');
    expect(existsSync(tmp) ? readdirSync(tmp).filter((f) => f.startsWith('push-')) : []).toEqual([]);

    // The replay is final: a normal push afterwards is recorded as usual, once.
    const third = await git.commit(work, 'c.txt', 'three\n', 'third');
    const final = await git.run(['push', '-q', 'origin', 'feature'], { cwd: work });
    expect(final.code, `${final.stderr}\nserver output:\n${restarted.output.join('')}`).toBe(0);
    expect((await branch('feature'))?.commitId).toBe(third);
    expect((await readRefs(gitDir, ['refs/pull/1/head'])).get('refs/pull/1/head')).toBe(third);
    expect(await db.job.count({ where: { kind: 'repo.push', status: { not: 'DONE' } } })).toBe(0);
  });
});
