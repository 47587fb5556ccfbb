import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator } from '../helpers/fixtures.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, registeredRunner } from './runnerClient.ts';

const WORKFLOW = `on: push
jobs:
  a:
    runs-on: linux
    steps:
      - run: echo a
  b:
    needs: a
    runs-on: linux
    steps:
      - run: echo b
  c:
    needs: b
    runs-on: linux
    steps:
      - run: echo c
`;

const RUNNER = { tokenPath: '/repos/dev/app/actions/runners/registration-token', headers: basic('dev'), labels: ['linux'] };

/** Re-running a run, its failed jobs or one job (with what needs it), and deleting a finished run. */
describe.each(PROVIDERS)('re-run and delete runs (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  let dir: string;
  let push: () => Promise<void>;
  const as = (u = 'dev') => ({ headers: basic(u) });
  const url = '/api/v1/repos/dev/app/actions/runs';

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    base = await listenBase(t);
    git = new GitClient();
    const dev = await t.createUser('dev');
    await t.createUser('reader');
    const repo = await createRepoFixture(t, dev, 'app');
    await addCollaborator(t, repo, { name: 'reader' }, 'read');
    dir = git.dir('app');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/chain.yml', WORKFLOW, 'chain');
    push = async () => {
      await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'dev', 'app', { user: 'dev', secret: PASSWORD }), 'main'], {
        cwd: dir,
      });
      await t.app.jobs.drain();
    };
    await push();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('re-runs failed jobs with the next attempt, then one job and its dependents; deletes the finished run', async () => {
    const runId = (await t.request('GET', url, as())).json<{ workflow_runs: Array<{ id: number }> }>().workflow_runs[0]?.id ?? 0;
    const busy = await t.request('DELETE', `${url}/${runId}`, as());
    expect(busy.statusCode).toBe(400);
    expect(busy.json()).toMatchObject({ message: 'this workflow run is not done' });
    expect((await t.request('POST', `${url}/${runId}/rerun`, as())).statusCode).toBe(400);

    const { client: r } = await registeredRunner(t, base, { ...RUNNER, name: 'r', encoding: 'binary' });
    const now = timestampFromDate(new Date());
    /** Fetches the next task and finishes it with `result` (1 success, 2 failure); returns its context. */
    const finishNext = async (result: number) => {
      const task = (await r.fetchTask({ tasksVersion: 0n })).task;
      expect(task).toBeDefined();
      await r.updateLog({ taskId: task?.id ?? 0n, index: 0n, rows: [{ time: now, content: 'hi' }], noMore: true });
      await r.updateTask({ state: { id: task?.id ?? 0n, result, stoppedAt: now } });
      return task?.context ?? {};
    };
    const jobs = async () =>
      (await t.request('GET', `${url}/${runId}/jobs`, as())).json<{
        jobs: Array<{ id: number; name: string; status: string; conclusion?: string; run_attempt: number }>;
      }>().jobs;

    expect((await finishNext(1)).job).toBe('a');
    expect((await finishNext(2)).job).toBe('b');
    expect((await jobs()).map((j) => [j.name, j.conclusion, j.run_attempt])).toEqual([
      ['a', 'success', 1],
      ['b', 'failure', 1],
      ['c', 'skipped', 1],
    ]);

    expect((await t.request('POST', `${url}/${runId}/rerun-failed-jobs`, as('reader'))).statusCode).toBe(403);
    expect((await t.request('POST', `${url}/${runId}/rerun-failed-jobs`, as())).statusCode).toBe(201);
    expect((await jobs()).map((j) => [j.name, j.status, j.run_attempt])).toEqual([
      ['a', 'completed', 1],
      ['b', 'queued', 2],
      ['c', 'waiting', 2],
    ]);
    expect((await t.request('GET', `${url}/${runId}`, as())).json()).toMatchObject({ status: 'queued' });
    const again = await finishNext(1);
    expect([again.job, again.run_attempt]).toEqual(['b', '2']);
    expect((await finishNext(1)).job).toBe('c');
    expect((await t.request('GET', `${url}/${runId}`, as())).json()).toMatchObject({ status: 'completed', conclusion: 'success' });

    const jobA = (await jobs())[0]?.id ?? 0;
    expect((await t.request('POST', `${url}/${runId}/jobs/${jobA + 100}/rerun`, as())).statusCode).toBe(404);
    const rerunA = await t.request('POST', `${url}/${runId}/jobs/${jobA}/rerun`, as());
    expect(rerunA.statusCode).toBe(201);
    expect(rerunA.json()).toMatchObject({ id: jobA, status: 'queued', run_attempt: 3 });
    expect((await jobs()).map((j) => [j.name, j.status])).toEqual([
      ['a', 'queued'],
      ['b', 'waiting'],
      ['c', 'waiting'],
    ]);
    for (const name of ['a', 'b', 'c']) expect((await finishNext(1)).job).toBe(name);

    const whole = await t.request('POST', `${url}/${runId}/rerun`, as());
    expect(whole.statusCode).toBe(201);
    expect(whole.json()).toMatchObject({ id: runId, status: 'queued' });
    expect((await jobs()).map((j) => j.run_attempt)).toEqual([4, 4, 4]);
    expect((await t.request('POST', `${url}/${runId}/cancel`, as())).statusCode).toBe(202);

    const tasks = await t.db.actionTask.findMany({ where: { job: { runId } } });
    expect(tasks.length).toBeGreaterThan(0);
    const logOf = (task: (typeof tasks)[number]) => path.join(t.config.dataDir, 'actions_log', `${task.repoId}/${task.id}.log.gz`);
    expect(tasks.every((x) => existsSync(logOf(x)))).toBe(true);
    expect((await t.request('DELETE', `${url}/${runId}`, as('reader'))).statusCode).toBe(403);
    expect((await t.request('DELETE', `${url}/${runId}`, as())).statusCode).toBe(204);
    expect((await t.request('GET', `${url}/${runId}`, as())).statusCode).toBe(404);
    expect(await t.db.actionTask.count({ where: { id: { in: tasks.map((x) => x.id) } } })).toBe(0);
    expect(tasks.some((x) => existsSync(logOf(x)))).toBe(false);
  });

  it('cleanup_actions removes the logs of tasks stopped more than 365 days ago', async () => {
    await git.commit(dir, 'README.md', 'again\n', 'again');
    await push();
    const { client: r } = await registeredRunner(t, base, { ...RUNNER, name: 'r2' });
    const now = timestampFromDate(new Date());
    const taskIds: bigint[] = [];
    for (let i = 0; i < 2; i++) {
      const task = (await r.fetchTask({ tasksVersion: 0n })).task;
      taskIds.push(task?.id ?? 0n);
      await r.updateLog({ taskId: task?.id ?? 0n, index: 0n, rows: [{ time: now, content: 'old' }], noMore: true });
      await r.updateTask({ state: { id: task?.id ?? 0n, result: 1, stoppedAt: now } });
    }
    const [oldId, newId] = taskIds.map(Number);
    await t.db.actionTask.update({ where: { id: oldId }, data: { stopped: new Date(Date.now() - 400 * 86_400_000) } });
    const cron = await t.request('POST', '/api/v1/admin/cron/cleanup_actions', { headers: basic('root') });
    expect(cron.statusCode, cron.body).toBe(204);
    const row = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'cleanup_actions' } });
    expect(row.lastMessage).toBe('removed the logs of 1 task(s) stopped more than 365 days ago and expired 0 artifact(s)');
    const [oldTask, newTask] = await Promise.all([oldId, newId].map((id) => t.db.actionTask.findUniqueOrThrow({ where: { id } })));
    expect([oldTask?.logExpired, newTask?.logExpired]).toEqual([true, false]);
    const logs = (id: number) => t.request('GET', `/api/v1/repos/dev/app/actions/jobs/${id}/logs`, as());
    expect((await logs(oldTask?.jobId ?? 0)).body).toBe('');
    expect((await logs(newTask?.jobId ?? 0)).body).toContain('old');
  });

  it('cleanup_actions also sweeps files whose rows are gone without the deletion event (a stop in between)', async () => {
    // What a deleted repository leaves when the process stops before its repo.deleted event is handled.
    const missingRepo = path.join(t.config.dataDir, 'actions_log', '987654');
    const missingRun = path.join(t.config.dataDir, 'actions_artifacts', '876543');
    for (const dir of [missingRepo, missingRun]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'left.bin'), 'x');
    }
    const live = path.join(
      t.config.dataDir,
      'actions_log',
      String((await t.db.repository.findFirstOrThrow({ where: { lowerName: 'app' } })).id),
    );
    expect(existsSync(live)).toBe(true);
    const cron = await t.request('POST', '/api/v1/admin/cron/cleanup_actions', { headers: basic('root') });
    expect(cron.statusCode, cron.body).toBe(204);
    const row = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'cleanup_actions' } });
    expect(row.lastMessage).toMatch(/; removed 2 director\(ies\) of deleted repositories, runs and uploads$/);
    expect([existsSync(missingRepo), existsSync(missingRun), existsSync(live)]).toEqual([false, false, true]);
  });

  it('deleting the repository removes its task logs, artifact files and archive cache from the data directory', async () => {
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'app' } });
    const zip = await t.request('GET', '/api/v1/repos/dev/app/archive/main.zip', as());
    expect(zip.statusCode).toBe(200);
    // An artifact of one of its runs, its zip where the artifact store keeps it (test/runner/artifactsV4 uploads real ones).
    const run = await t.db.actionRun.findFirstOrThrow({ where: { repoId: repo.id } });
    const artifact = await t.db.actionArtifact.create({
      data: {
        runId: run.id,
        taskId: 0,
        repoId: repo.id,
        ownerId: repo.ownerId,
        name: 'dist',
        path: 'dist.zip',
        status: 'UPLOAD_CONFIRMED',
      },
    });
    const storagePath = `${run.id}/${artifact.id}.zip`;
    await t.db.actionArtifact.update({ where: { id: artifact.id }, data: { storagePath } });
    const zipFile = path.join(t.config.dataDir, 'actions_artifacts', storagePath);
    mkdirSync(path.dirname(zipFile), { recursive: true });
    writeFileSync(zipFile, 'PK');
    const logs = path.join(t.config.dataDir, 'actions_log', String(repo.id));
    const archives = path.join(t.config.dataDir, 'repo-archive', String(repo.id));
    expect([existsSync(logs), existsSync(archives), existsSync(zipFile)]).toEqual([true, true, true]);
    expect((await t.request('DELETE', '/api/v1/repos/dev/app', as())).statusCode).toBe(204);
    await t.app.deps.notifier.drain(); // logs and artifacts are swept on the repo.deleted event
    expect([existsSync(logs), existsSync(archives), existsSync(zipFile)]).toEqual([false, false, false]);
  });
});
