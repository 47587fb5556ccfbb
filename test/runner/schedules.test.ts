import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase } from './runnerClient.ts';

const NIGHTLY = `on:
  schedule:
    - cron: '*/5 * * * *'
    - cron: 'not a cron'
jobs:
  nightly:
    runs-on: linux
    steps:
      - run: echo nightly
`;

/**
 * Waits out the last 30 s before a five-minute boundary: the schedule's next run (`*\/5`) is computed when the push
 * registers it, and a test crossing that boundary afterwards would find it due (a CI run failed so, 73 ms past it).
 */
async function clearOfFiveMinuteBoundary(): Promise<void> {
  const left = 300_000 - (Date.now() % 300_000);
  if (left < 30_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** `on: schedule`: registered by pushes to the default branch, started by start_schedule_tasks when due. */
describe.each(PROVIDERS)('scheduled workflows (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let dir: string;
  let push: (branch: string) => Promise<void>;
  const cron = async () => {
    const res = await t.request('POST', '/api/v1/admin/cron/start_schedule_tasks', { headers: basic('root') });
    expect(res.statusCode, res.body).toBe(204);
    return (await t.db.cronTask.findUniqueOrThrow({ where: { name: 'start_schedule_tasks' } })).lastMessage;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    const base = await listenBase(t);
    git = new GitClient();
    const dev = await t.createUser('dev');
    await t.createUser('root', { admin: true });
    await createRepoFixture(t, dev, 'app');
    dir = git.dir('app');
    push = async (branch) => {
      await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'dev', 'app', { user: 'dev', secret: PASSWORD }), branch], {
        cwd: dir,
      });
      await t.app.jobs.drain();
    };
    await git.ok(['init', '-q', '-b', 'main', dir]);
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('registers on the default branch, starts schedule runs when due, and forgets a removed file', async () => {
    const sha = await git.commit(dir, '.gitea/workflows/nightly.yml', NIGHTLY, 'nightly');
    await clearOfFiveMinuteBoundary();
    await push('main');
    const rows = await t.db.actionSchedule.findMany();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    if (!row) throw new Error('no schedule');
    expect(row).toMatchObject({ workflowId: 'nightly.yml', spec: '*/5 * * * *', ref: 'refs/heads/main', commitSha: sha, prev: null });
    expect(row.next.getTime()).toBeGreaterThan(Date.now());
    expect(await t.db.actionRun.count()).toBe(0);
    expect(await cron()).toBe('started 0 scheduled run(s) of 0 due schedule(s)');

    await t.db.actionSchedule.update({ where: { id: row.id }, data: { next: new Date(Date.now() - 1000) } });
    expect(await cron()).toBe('started 1 scheduled run(s) of 1 due schedule(s)');
    const runs = await t.db.actionRun.findMany();
    expect(runs.map((r) => [r.event, r.scheduleId, r.workflowId, r.commitSha])).toEqual([['schedule', row.id, 'nightly.yml', sha]]);
    const api = await t.request('GET', '/api/v1/repos/dev/app/actions/runs', { headers: basic('dev') });
    expect(api.json()).toMatchObject({ workflow_runs: [{ event: 'schedule', head_branch: 'main' }] });
    const after = await t.db.actionSchedule.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.prev).not.toBeNull();
    expect(after.next.getTime()).toBeGreaterThan(Date.now());
    expect(await cron()).toBe('started 0 scheduled run(s) of 0 due schedule(s)');

    // A branch other than the default one changes nothing; removing the file on the default branch removes it.
    await git.ok(['checkout', '-q', '-b', 'side'], { cwd: dir });
    await git.commit(dir, '.gitea/workflows/other.yml', NIGHTLY.replace('*/5', '*/7'), 'other');
    await push('side');
    expect((await t.db.actionSchedule.findMany()).map((s) => s.spec)).toEqual(['*/5 * * * *']);
    await git.ok(['checkout', '-q', 'main'], { cwd: dir });
    await git.ok(['rm', '-q', '.gitea/workflows/nightly.yml'], { cwd: dir });
    await git.ok(['commit', '-q', '-m', 'drop nightly'], { cwd: dir });
    await push('main');
    expect(await t.db.actionSchedule.count()).toBe(0);
  });
});
