import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, registeredRunner } from './runnerClient.ts';

const WORKFLOW = `on: push
jobs:
  each:
    runs-on: box
    strategy:
      matrix:
        n: [1, 2, 3, 4]
    steps:
      - run: echo \${{ matrix.n }}
`;

/**
 * Jobs of one run that finish at the same moment (several runners, or one runner with capacity) each roll the run
 * up; on PostgreSQL two of those transactions could each see the other job still running, and the run stayed
 * "running" for ever. Every run must end completed.
 */
describe.each(PROVIDERS)('jobs of one run finishing at once (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  const git = new GitClient();
  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    const root = await t.createUser('root', { admin: true });
    await createRepoFixture(t, root, 'app');
  });
  afterAll(async () => {
    git.dispose();
    await t?.close();
  });

  it('every run ends completed with all its jobs', async () => {
    const { client } = await registeredRunner(t, base, {
      tokenPath: '/admin/actions/runners/registration-token',
      headers: basic('root'),
      name: 'box',
      labels: ['box'],
    });
    const dir = git.dir('work');
    await git.ok(['init', '-q', dir]);
    const url = gitUrl(Number(new URL(base).port), 'root', 'app', { user: 'root', secret: PASSWORD });
    const RUNS = 4;
    for (let run = 1; run <= RUNS; run++) {
      await git.commit(dir, '.gitea/workflows/ci.yml', `${WORKFLOW}# ${run}\n`, `run ${run}`);
      await git.ok(['push', '-q', url, 'HEAD:main'], { cwd: dir });
      await t.app.jobs.drain();
      const tasks = [];
      for (let i = 0; i < 4; i++) {
        const task = (await client.fetchTask({ tasksVersion: 0n })).task;
        expect(task, `run ${run}: task ${i + 1}`).toBeDefined();
        tasks.push(task?.id ?? 0n);
      }
      const now = timestampFromDate(new Date());
      await Promise.all(tasks.map((id) => client.updateTask({ state: { id, result: 1, startedAt: now, stoppedAt: now } })));
    }
    const runs = (await t.request('GET', '/api/v1/repos/root/app/actions/runs', { headers: basic('root') })).json<{
      workflow_runs: Array<{ run_number: number; status: string; conclusion: string }>;
    }>().workflow_runs;
    expect(runs.map((r) => [r.run_number, r.status, r.conclusion]).sort()).toEqual(
      Array.from({ length: RUNS }, (_, i) => [i + 1, 'completed', 'success']),
    );
  });
});
