import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addTeamMember, createTeam } from '../helpers/fixtures.ts';
import { createOrgAs } from '../helpers/org.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, registeredRunner } from './runnerClient.ts';

const WORKFLOW = `on: push
jobs:
  build:
    runs-on: linux
    steps:
      - run: echo hi
`;

interface Runs {
  workflow_runs: Array<{ id: number; display_title: string; head_sha: string; repository?: { full_name: string } }>;
  total_count: number;
}
interface Jobs {
  jobs: Array<{ id: number; run_id: number; status: string; url: string }>;
  total_count: number;
}

/** The organization's and the user's runs and jobs (owner scope), and a repository's tasks (Gitea ListActionTasks). */
describe.each(PROVIDERS)('actions lists by owner and tasks (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  const as = (u = 'alice') => ({ headers: basic(u) });

  /** Pushes a workflow to `owner/name` as `pusher`; its push starts one run with one job. */
  async function pushWorkflow(owner: Models.User, name: string, pusher: string, isPrivate = false): Promise<void> {
    await createRepoFixture(t, owner, name, { isPrivate });
    const dir = git.dir(`${owner.name}-${name}`);
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/ci.yaml', WORKFLOW, `ci of ${name}`);
    const remote = gitUrl(Number(new URL(base).port), owner.name, name, { user: pusher, secret: PASSWORD });
    await git.ok(['push', '-q', remote, 'main'], { cwd: dir });
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    const alice = await t.createUser('alice');
    const bob = await t.createUser('bob');
    const carol = await t.createUser('carol');
    const acme = await createOrgAs(t, alice, 'acme');
    // carol is a member through a team that reaches no repository: she reads the public one only.
    const team = await createTeam(t, alice, acme, { name: 'crew', permission: 'read', units: ['repo.code'] });
    await addTeamMember(t, alice, team, carol);
    await pushWorkflow(alice, 'app', 'alice', true);
    await pushWorkflow(acme, 'svc', 'alice');
    await pushWorkflow(acme, 'secret', 'alice', true);
    await pushWorkflow(bob, 'tool', 'bob');
    await t.app.jobs.drain();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it("lists only the user's own repositories' runs and jobs under /user", async () => {
    const runs = await t.request('GET', '/api/v1/user/actions/runs', as());
    expect(runs.statusCode).toBe(200);
    expect(runs.headers['x-total-count']).toBe('1');
    const body = runs.json<Runs>();
    expect(body.total_count).toBe(1);
    expect(body.workflow_runs.map((r) => [r.display_title, r.repository?.full_name])).toEqual([['ci of app', 'alice/app']]);
    const bobs = (await t.request('GET', '/api/v1/user/actions/runs', as('bob'))).json<Runs>();
    expect(bobs.workflow_runs.map((r) => r.repository?.full_name)).toEqual(['bob/tool']);

    const jobs = (await t.request('GET', '/api/v1/user/actions/jobs', as())).json<Jobs>();
    expect(jobs.total_count).toBe(1);
    expect(jobs.jobs[0]).toMatchObject({ run_id: body.workflow_runs[0]?.id, status: 'queued' });
    expect(jobs.jobs[0]?.url).toMatch(/\/api\/v1\/repos\/alice\/app\/actions\/jobs\/\d+$/);

    expect((await t.request('GET', '/api/v1/user/actions/runs')).statusCode).toBe(401);
    expect((await t.request('GET', '/api/v1/user/actions/jobs')).statusCode).toBe(401);
  });

  it("lists an organization's runs and jobs to its members, of the repositories whose Actions they read", async () => {
    const names = async (path: string, user: string) =>
      (await t.request('GET', `/api/v1/orgs/acme/actions/${path}`, as(user)))
        .json<Runs>()
        .workflow_runs.map((r) => r.repository?.full_name);
    expect(await names('runs', 'alice')).toEqual(['acme/secret', 'acme/svc']);
    expect(await names('runs', 'carol')).toEqual(['acme/svc']);
    const carolJobs = (await t.request('GET', '/api/v1/orgs/acme/actions/jobs', as('carol'))).json<Jobs>();
    expect(carolJobs.total_count).toBe(1);
    expect(carolJobs.jobs[0]?.url).toMatch(/\/repos\/acme\/svc\/actions\/jobs\/\d+$/);
    const runs = (await t.request('GET', '/api/v1/orgs/acme/actions/runs?status=queued&limit=1&page=2', as())).json<Runs>();
    expect(runs.total_count).toBe(2);
    expect(runs.workflow_runs.map((r) => r.display_title)).toEqual(['ci of svc']);
    const sha = runs.workflow_runs[0]?.head_sha ?? '';
    const count = async (query: string) =>
      (await t.request('GET', `/api/v1/orgs/acme/actions/runs?${query}`, as())).json<Runs>().total_count;
    expect(await count('status=queued')).toBe(2);
    expect(await count('status=success')).toBe(0);
    expect(await count(`head_sha=${sha}`)).toBe(1);
    expect(await count('branch=main&event=push&actor=alice')).toBe(2);
    expect(await count('branch=dev')).toBe(0);
    const badStatus = await t.request('GET', '/api/v1/orgs/acme/actions/runs?status=bogus', as());
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json()).toMatchObject({ message: 'invalid status bogus' });
    const noActor = await t.request('GET', '/api/v1/orgs/acme/actions/runs?actor=nobody', as());
    expect(noActor.statusCode).toBe(404);

    const jobs = (await t.request('GET', '/api/v1/orgs/acme/actions/jobs?sort=id&order=desc', as())).json<Jobs>();
    expect(jobs.total_count).toBe(2);
    expect(jobs.jobs.map((j) => j.url.replace(/.*\/repos\/acme\/(\w+)\/.*/, '$1'))).toEqual(['secret', 'svc']);
    const badSort = await t.request('GET', '/api/v1/orgs/acme/actions/jobs?sort=name', as());
    expect(badSort.statusCode).toBe(422);
    expect(badSort.json()).toMatchObject({ message: 'Invalid sort mode: "name"' });

    // Not a member: 403; an unknown organization: 404; nobody signed in: 401.
    const outsider = await t.request('GET', '/api/v1/orgs/acme/actions/runs', as('bob'));
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toMatchObject({ message: 'Must be an organization member' });
    expect((await t.request('GET', '/api/v1/orgs/acme/actions/jobs', as('bob'))).statusCode).toBe(403);
    expect((await t.request('GET', '/api/v1/orgs/nope/actions/runs', as())).statusCode).toBe(404);
    expect((await t.request('GET', '/api/v1/orgs/acme/actions/runs')).statusCode).toBe(401);
    // A token needs the organization scope for the organization's lists and the user scope for the user's.
    const userOnly = await t.createToken('alice', ['read:user']);
    expect((await t.request('GET', '/api/v1/orgs/acme/actions/runs', { headers: tokenAuth(userOnly) })).statusCode).toBe(403);
    expect((await t.request('GET', '/api/v1/user/actions/runs', { headers: tokenAuth(userOnly) })).statusCode).toBe(200);
  });

  it("lists a repository's tasks newest first as Gitea's ActionTask, to readers of its Actions", async () => {
    const url = '/api/v1/repos/alice/app/actions/tasks';
    expect((await t.request('GET', url, as())).json()).toEqual({ workflow_runs: [], total_count: 0 });
    const run = (await t.request('GET', '/api/v1/repos/alice/app/actions/runs', as())).json<Runs>().workflow_runs[0];
    const { client: r } = await registeredRunner(t, base, {
      tokenPath: '/repos/alice/app/actions/runners/registration-token',
      headers: basic('alice'),
      name: 'r',
      labels: ['linux'],
    });
    const first = (await r.fetchTask({ tasksVersion: 0n })).task;
    const list = await t.request('GET', url, as());
    expect(list.statusCode).toBe(200);
    const body = list.json<{ workflow_runs: Array<Record<string, unknown>>; total_count: number }>();
    expect(body.total_count).toBe(1);
    expect(body.workflow_runs[0]).toEqual({
      id: Number(first?.id),
      name: 'build',
      head_branch: 'main',
      head_sha: run?.head_sha,
      run_number: 1,
      event: 'push',
      display_title: 'ci of app',
      status: 'running',
      workflow_id: 'ci.yaml',
      url: `http://localhost:3000/alice/app/actions/runs/${run?.id}`,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/Z$/),
      run_started_at: expect.not.stringMatching(/^1970/),
    });

    // A re-run job is a second task: newest first, paged with Gitea's headers.
    await r.updateTask({ state: { id: first?.id ?? 0n, result: 1, stoppedAt: timestampFromDate(new Date()) } });
    const jobId = (await t.request('GET', '/api/v1/user/actions/jobs', as())).json<Jobs>().jobs[0]?.id ?? 0;
    expect((await t.request('POST', `/api/v1/repos/alice/app/actions/runs/${run?.id}/jobs/${jobId}/rerun`, as())).statusCode).toBe(201);
    const second = (await r.fetchTask({ tasksVersion: 0n })).task;
    const page = await t.request('GET', `${url}?limit=1`, as());
    expect(page.headers['x-total-count']).toBe('2');
    expect(page.headers.link).toContain('rel="next"');
    const paged = page.json<{ workflow_runs: Array<{ id: number; status: string }>; total_count: number }>();
    expect(paged.total_count).toBe(2);
    expect(paged.workflow_runs).toMatchObject([{ id: Number(second?.id), status: 'running' }]);
    const older = (await t.request('GET', `${url}?limit=1&page=2`, as())).json<{ workflow_runs: Array<{ id: number; status: string }> }>();
    expect(older.workflow_runs).toMatchObject([{ id: Number(first?.id), status: 'success' }]);

    // Other repositories' tasks are not listed; a private repository is 404 to those who cannot see it.
    expect((await t.request('GET', '/api/v1/repos/acme/svc/actions/tasks', as())).json()).toEqual({ workflow_runs: [], total_count: 0 });
    expect((await t.request('GET', url, as('bob'))).statusCode).toBe(404);
    expect((await t.request('GET', url)).statusCode).toBe(404);
  });
});
