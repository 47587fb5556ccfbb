import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { errorCodes, gql } from '../helpers/graphql.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, runnerClients } from '../runner/runnerClient.ts';

const WORKFLOW = `on: push
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
  test:
    needs: build
    runs-on: ubuntu-latest
    steps:
      - run: echo test
`;

interface Run {
  runNumber: number;
  event: string;
  status: string;
  conclusion: string | null;
  headBranch: string;
  headSha: string;
  jobs: {
    totalCount: number;
    nodes: { name: string; status: string; logUrl: string; steps: { name: string; number: number; status: string }[] }[];
  };
}
const RUNS = (filter = '') => `{ repository(owner: "owner", name: "svc") { workflowRuns(first: 10${filter}) { totalCount nodes {
  runNumber event status conclusion headBranch headSha jobs(first: 10) { totalCount nodes { name status logUrl steps { name number status } } } } } } }`;

/** Issue 16 item 5 in the graph: runs, jobs with steps and log URLs, and runners for site admins. */
describe.each(PROVIDERS)('GraphQL workflow runs and runners (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  let owner: Models.User;
  let dir: string;

  const runs = async (user: string, filter = '') => {
    const res = await gql<{ repository: { workflowRuns: { totalCount: number; nodes: Run[] } | null } | null }>(t, RUNS(filter), {
      headers: basic(user),
    });
    expect(res.errors).toBeUndefined();
    return res.data?.repository?.workflowRuns ?? null;
  };
  const push = async (file: string) => {
    await git.commit(dir, file, `${file}\n`, file);
    await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'owner', 'svc', { user: 'owner', secret: PASSWORD }), 'main'], {
      cwd: dir,
    });
    await t.app.jobs.drain();
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    owner = await t.createUser('owner');
    await t.createUser('outsider');
    await t.createUser('root', { admin: true });
    await createRepoFixture(t, owner, 'svc', { isPrivate: true });
    dir = git.dir('svc');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/ci.yaml', WORKFLOW, 'ci');
    await push('a.txt');
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('lists runs with their jobs and steps as the REST routes, and runners to site admins only', async () => {
    const first = await runs('owner');
    expect(first?.totalCount).toBe(1);
    const [run] = first!.nodes;
    expect(run).toMatchObject({ runNumber: 1, event: 'push', headBranch: 'main', conclusion: null, jobs: { totalCount: 2 } });
    expect(run?.jobs.nodes.map((j) => j.name)).toEqual(['build', 'test']);
    expect(run?.jobs.nodes[0]?.logUrl).toMatch(/\/api\/v1\/repos\/owner\/svc\/actions\/jobs\/\d+\/logs$/);
    const rest = (await t.request('GET', '/api/v1/repos/owner/svc/actions/runs', { headers: basic('owner') })).json<{
      workflow_runs: { head_sha: string }[];
    }>();
    expect(run?.headSha).toBe(rest.workflow_runs[0]?.head_sha);
    // A private repository's runs: the repository itself is invisible to outsiders.
    expect(await runs('outsider')).toBeNull();

    const token = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', { headers: basic('root') })).json<{
      token: string;
    }>().token;
    const c = runnerClients(base, 'json');
    const { runner } = await c.runner().register({ name: 'gq-runner', token, labels: ['ubuntu-latest'] });
    const r = c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' });
    const task = (await r.fetchTask({})).task;
    const now = timestampFromDate(new Date());
    await r.updateTask({ state: { id: task?.id ?? 0n, steps: [{ id: 0n, startedAt: now }] } });
    const running = (await runs('owner', ', status: "in_progress"'))!;
    expect(running.totalCount).toBe(1);
    expect(running.nodes[0]?.jobs.nodes[0]).toMatchObject({
      name: 'build',
      status: 'IN_PROGRESS',
      steps: [{ number: 1, status: 'IN_PROGRESS' }],
    });
    expect((await runs('owner', ', status: "completed"'))?.totalCount).toBe(0);
    const bad = await gql(t, '{ repository(owner: "owner", name: "svc") { workflowRuns(status: "nope") { totalCount } } }', {
      headers: basic('owner'),
    });
    expect(bad.errors?.[0]?.message).toBe('invalid status nope');

    const RUNNERS = '{ runners(first: 10) { totalCount nodes { name status labels disabled } } }';
    const asRoot = await gql<{ runners: { totalCount: number; nodes: { name: string; labels: string[] }[] } }>(t, RUNNERS, {
      headers: basic('root'),
    });
    expect(asRoot.errors).toBeUndefined();
    expect(asRoot.data?.runners.nodes).toMatchObject([{ name: 'gq-runner', labels: ['ubuntu-latest'], disabled: false }]);
    const asOwner = await gql<{ runners: unknown }>(t, RUNNERS, { headers: basic('owner') });
    expect(asOwner.data?.runners ?? null).toBeNull();
    expect(errorCodes(asOwner).length).toBe(1);
  });

  it('workflowRuns { jobs { steps } } costs the same statements for 2 runs as for 4', async () => {
    const count = async () => {
      t.queries.length = 0;
      const n = (await runs('owner'))!.nodes.length;
      return { n, statements: t.queries.length };
    };
    while ((await runs('owner'))!.totalCount < 2) await push(`b${Date.now()}.txt`);
    const small = await count();
    await push('c1.txt');
    await push('c2.txt');
    const large = await count();
    expect(large.n).toBe(small.n + 2);
    console.info(
      `[${provider}] workflowRuns { jobs { steps } }: ${small.statements} statements for ${small.n} runs, ${large.statements} for ${large.n}`,
    );
    expect(large.statements).toBe(small.statements);
  });
});
