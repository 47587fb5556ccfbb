// gh against the forge (see ghCli.test.ts): `gh workflow list|view|run|enable|disable` and `gh run list|view [--log]
// |cancel|rerun` on /api/v3's Actions routes. A runner speaking the runner protocol (as act_runner does) takes the
// jobs and reports their steps and log lines; each effect is checked through /api/v1.
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Client } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunnerService } from '../../src/runner/gen/runner/v1/services_pb.ts';
import { basic } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { GH, startGhHarness, type GhHarness } from '../helpers/ghHarness.ts';
import { listenBase, registeredRunner } from '../runner/runnerClient.ts';

const WORKFLOW = `name: CI
on:
  push:
  workflow_dispatch:
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo setting up
      - name: Test
        run: echo testing
`;

interface RunJson {
  databaseId: number;
  status: string;
  conclusion: string;
  event: string;
  headBranch: string;
  workflowName: string;
  workflowDatabaseId: number;
  jobs: { name: string; status: string; conclusion: string; steps: { name: string; number: number; conclusion: string }[] }[];
}

describe.skipIf(!GH).each(CLIENT_PROVIDERS)('gh workflow and gh run (%s)', (provider) => {
  let h: GhHarness;
  let runner: Client<typeof RunnerService>;
  const R = () => ['-R', h.repo];
  const runs = async () =>
    (await h.v1('/repos/alice/demo/actions/runs')).workflow_runs as unknown as {
      id: number;
      event: string;
      status: string;
      conclusion?: string;
    }[];

  /** The runner takes the next job and ends it: step 1 logs one line and succeeds, step 2 logs two and ends `result`. */
  async function runJob(result: 'success' | 'failure'): Promise<void> {
    const { task } = await runner.fetchTask({ tasksVersion: 0n });
    if (!task) throw new Error('no job to run');
    const now = timestampFromDate(new Date());
    const rows = ['setting up', `testing ${result}`, 'done'].map((content) => ({ time: now, content }));
    await runner.updateLog({ taskId: task.id, index: 0n, rows, noMore: true });
    const code = result === 'success' ? 1 : 2;
    await runner.updateTask({
      state: {
        id: task.id,
        result: code,
        startedAt: now,
        stoppedAt: now,
        steps: [
          { id: 0n, result: 1, startedAt: now, stoppedAt: now, logIndex: 0n, logLength: 1n },
          { id: 1n, result: code, startedAt: now, stoppedAt: now, logIndex: 1n, logLength: 2n },
        ],
      },
    });
  }

  beforeAll(async () => {
    h = await startGhHarness(provider);
    ({ client: runner } = await registeredRunner(h.t, await listenBase(h.t), {
      tokenPath: '/repos/alice/demo/actions/runners/registration-token',
      headers: basic('alice'),
      name: 'gh-runner',
      labels: ['ubuntu-latest'],
    }));
    // The push that adds the workflow starts its first run.
    const file = await h.t.request('POST', '/api/v1/repos/alice/demo/contents/.gitea/workflows/ci.yml', {
      headers: basic('alice'),
      body: { content: Buffer.from(WORKFLOW).toString('base64'), message: 'Add CI' },
    });
    expect(file.statusCode, file.body).toBe(201);
    for (let i = 0; i < 100 && !(await runs()).length; i++) await new Promise((r) => setTimeout(r, 100));
    await runJob('success');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('workflow list, view (by name, file and GitHub number) and view --yaml', async () => {
    const [line] = (await h.gh('workflow', 'list', ...R())).trim().split('\n');
    const [name, state, id] = (line ?? '').split('\t');
    expect([name, state]).toEqual(['CI', 'active']);
    expect(Number(id)).toBeGreaterThan(0);
    for (const selector of ['CI', 'ci.yml', id ?? '']) {
      const view = await h.gh('workflow', 'view', selector, ...R());
      expect(view).toContain(`CI - ci.yml\nID: ${id}\n`);
      expect(view).toMatch(/Total runs 1\n/);
    }
    expect(await h.gh('workflow', 'view', 'ci.yml', '--yaml', ...R())).toContain('runs-on: ubuntu-latest');
  });

  it('run list, run view (jobs, --json, --log)', async () => {
    const [run] = await runs();
    expect(await h.gh('run', 'list', ...R())).toMatch(new RegExp(`^completed\\tsuccess\\tAdd CI\\tCI\\tmain\\tpush\\t${run?.id}\\t`, 'm'));
    const view = await h.gh('run', 'view', String(run?.id), ...R());
    expect(view).toMatch(/✓ main CI · \d+\nTriggered via push/);
    expect(view).toMatch(/JOBS\n✓ build in \S+ \(ID \d+\)/);
    const json = JSON.parse(
      await h.gh(
        'run',
        'view',
        String(run?.id),
        '--json',
        'databaseId,status,conclusion,event,headBranch,workflowName,workflowDatabaseId,jobs',
        ...R(),
      ),
    ) as RunJson;
    expect(json).toMatchObject({ databaseId: run?.id, status: 'completed', conclusion: 'success', event: 'push', headBranch: 'main' });
    expect(json.workflowName).toBe('CI');
    expect(json.jobs).toEqual([
      expect.objectContaining({
        name: 'build',
        conclusion: 'success',
        steps: [
          expect.objectContaining({ name: 'Run echo setting up', number: 1, conclusion: 'success' }),
          expect.objectContaining({ name: 'Test', number: 2, conclusion: 'success' }),
        ],
      }),
    ]);
    const workflows = (await h.gh('workflow', 'list', ...R())).split('\t');
    expect(String(json.workflowDatabaseId)).toBe(workflows[2]?.trim());
    const log = await h.gh('run', 'view', String(run?.id), '--log', ...R());
    expect(log).toMatch(/^build\tRun echo setting up\t\S+ setting up$/m);
    expect(log).toMatch(/^build\tTest\t\S+ testing success\nbuild\tTest\t\S+ done$/m);
  });

  it('workflow disable and enable, workflow run, run cancel and run rerun', async () => {
    await h.gh('workflow', 'disable', 'CI', ...R());
    expect(((await h.v1('/repos/alice/demo/actions/workflows')).workflows as unknown as { state: string }[])[0]?.state).toBe(
      'disabled_manually',
    );
    expect(await h.gh('workflow', 'list', '--all', ...R())).toMatch(/^CI\tdisabled_manually\t/);
    await expect(h.gh('workflow', 'run', 'ci.yml', ...R())).rejects.toThrow(/403|disabled/);
    await h.gh('workflow', 'enable', 'ci.yml', ...R());
    expect(await h.gh('workflow', 'list', ...R())).toMatch(/^CI\tactive\t/);

    await h.gh('workflow', 'run', 'CI', '--ref', 'main', ...R());
    const [dispatched] = await runs();
    expect(dispatched).toMatchObject({ event: 'workflow_dispatch', status: 'queued' });
    await h.gh('run', 'cancel', String(dispatched?.id), ...R());
    expect((await runs())[0]).toMatchObject({ id: dispatched?.id, status: 'completed', conclusion: 'cancelled' });
    await h.gh('run', 'rerun', String(dispatched?.id), ...R());
    expect((await runs())[0]).toMatchObject({ id: dispatched?.id, status: 'queued' });

    // The rerun fails its second step: gh shows it as failed and prints only that step's log.
    await runJob('failure');
    expect(await h.gh('run', 'list', '--workflow', 'ci.yml', ...R())).toMatch(
      new RegExp(`^completed\\tfailure\\t.*\\tworkflow_dispatch\\t${dispatched?.id}\\t`, 'm'),
    );
    const failed = await h.gh('run', 'view', String(dispatched?.id), '--log-failed', ...R());
    expect(failed).toMatch(/^build\tTest\t\S+ testing failure$/m);
    expect(failed).not.toContain('setting up');
    await expect(h.gh('run', 'view', String(dispatched?.id), '--exit-status', ...R())).rejects.toThrow(/X build/);
  });

  it('a run nobody may see is GitHub’s 404; runs without artifacts list none', async () => {
    const other = await h.t.createUser('mallory');
    const mallory = await h.t.createToken(other.name, ['all']);
    await h.t.request('PATCH', '/api/v1/repos/alice/demo', { headers: basic('alice'), body: { private: true } });
    await expect(h.ghAs(mallory, h.home, 'run', 'list', ...R())).rejects.toThrow(/HTTP 404/);
    const [run] = await runs();
    const artifacts = await h.t.request('GET', `/api/v3/repos/alice/demo/actions/runs/${run?.id}/artifacts`, {
      headers: { authorization: `token ${h.token}` },
    });
    expect(artifacts.json()).toEqual({ total_count: 0, artifacts: [] });
  });
});
