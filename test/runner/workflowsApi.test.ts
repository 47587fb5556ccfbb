import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, setUnits } from '../helpers/fixtures.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase } from './runnerClient.ts';

const CI = `name: CI
on: [push, workflow_dispatch]
jobs:
  a:
    runs-on: linux
    steps:
      - run: echo ci
`;
const LINT = `on: push
jobs:
  b:
    runs-on: linux
    steps:
      - run: echo lint
`;

/** The workflows endpoints; a disabled workflow starts no run on push and cannot be dispatched. */
describe.each(PROVIDERS)('repository workflows (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let dir: string;
  let url: string;
  const as = (u = 'dev', body?: unknown) => ({ headers: basic(u), ...(body === undefined ? {} : { body }) });
  const runs = async () =>
    (await t.request('GET', '/api/v1/repos/dev/app/actions/runs', as())).json<{ workflow_runs: Array<{ path: string }> }>().workflow_runs;

  beforeAll(async () => {
    t = await startTestApp(provider);
    const base = await listenBase(t);
    git = new GitClient();
    const dev = await t.createUser('dev');
    await t.createUser('reader');
    const repo = await createRepoFixture(t, dev, 'app');
    await addCollaborator(t, repo, { name: 'reader' }, 'read');
    dir = git.dir('app');
    url = gitUrl(Number(new URL(base).port), 'dev', 'app', { user: 'dev', secret: PASSWORD });
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/ci.yml', CI, 'ci');
    await git.commit(dir, '.gitea/workflows/lint.yaml', LINT, 'lint');
    await git.ok(['push', '-q', url, 'main'], { cwd: dir });
    await t.app.jobs.drain();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('lists and gets workflows; disabling stops push runs and dispatches until enabled again', async () => {
    const list = await t.request('GET', '/api/v1/repos/dev/app/actions/workflows', as());
    expect(list.statusCode).toBe(200);
    const body = list.json<{ workflows: Array<Record<string, unknown>>; total_count: number }>();
    expect(body.total_count).toBe(2);
    expect(body.workflows.map((w) => [w.id, w.name, w.path, w.state])).toEqual([
      ['ci.yml', 'CI', '.gitea/workflows/ci.yml', 'active'],
      ['lint.yaml', 'lint.yaml', '.gitea/workflows/lint.yaml', 'active'],
    ]);
    expect(body.workflows[0]).toMatchObject({
      url: `${t.config.rootUrl}api/v1/repos/dev/app/actions/workflows/ci.yml`,
      html_url: `${t.config.rootUrl}dev/app/src/branch/main/.gitea/workflows/ci.yml`,
      badge_url: `${t.config.rootUrl}dev/app/actions/workflows/ci.yml/badge.svg?branch=main`,
    });
    expect((await t.request('GET', '/api/v1/repos/dev/app/actions/workflows/ci.yml', as())).json()).toEqual(body.workflows[0]);
    const missing = await t.request('GET', '/api/v1/repos/dev/app/actions/workflows/nope.yml', as());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ message: 'workflow "nope.yml" not found' });
    expect((await t.request('GET', '/api/v1/repos/dev/app/actions/workflows')).statusCode).toBe(401);
    expect((await runs()).map((r) => r.path).sort()).toEqual(['ci.yml@refs/heads/main', 'lint.yaml@refs/heads/main']);

    expect((await t.request('PUT', '/api/v1/repos/dev/app/actions/workflows/ci.yml/disable', as('reader'))).statusCode).toBe(403);
    expect((await t.request('PUT', '/api/v1/repos/dev/app/actions/workflows/nope.yml/disable', as())).statusCode).toBe(404);
    expect((await t.request('PUT', '/api/v1/repos/dev/app/actions/workflows/ci.yml/disable', as())).statusCode).toBe(204);
    expect((await t.request('GET', '/api/v1/repos/dev/app/actions/workflows/ci.yml', as())).json()).toMatchObject({
      state: 'disabled_manually',
    });

    await git.commit(dir, 'README.md', 'more\n', 'second');
    await git.ok(['push', '-q', url, 'main'], { cwd: dir });
    await t.app.jobs.drain();
    expect((await runs()).filter((r) => r.path.startsWith('ci.yml'))).toHaveLength(1);
    expect((await runs()).filter((r) => r.path.startsWith('lint.yaml'))).toHaveLength(2);
    const refused = await t.request('POST', '/api/v1/repos/dev/app/actions/workflows/ci.yml/dispatches', as('dev', { ref: 'main' }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: 'workflow is disabled' });

    expect((await t.request('PUT', '/api/v1/repos/dev/app/actions/workflows/ci.yml/enable', as())).statusCode).toBe(204);
    expect(
      (await t.request('POST', '/api/v1/repos/dev/app/actions/workflows/ci.yml/dispatches', as('dev', { ref: 'main' }))).statusCode,
    ).toBe(204);
    expect((await runs()).filter((r) => r.path.startsWith('ci.yml'))).toHaveLength(2);
    const ciRuns = await t.request('GET', '/api/v1/repos/dev/app/actions/workflows/ci.yml/runs?event=workflow_dispatch', as());
    expect(ciRuns.headers['x-total-count']).toBe('1');
    expect(ciRuns.json()).toMatchObject({
      total_count: 1,
      workflow_runs: [{ path: 'ci.yml@refs/heads/main', event: 'workflow_dispatch' }],
    });
    expect((await t.request('GET', '/api/v1/repos/dev/app/actions/workflows/lint.yaml/runs', as())).json()).toMatchObject({
      total_count: 2,
    });
  });

  it('with the Actions unit off, a push starts nothing', async () => {
    const repo = await t.db.repository.findFirstOrThrow({ where: { name: 'app' } });
    const before = await t.db.actionRun.count();
    await setUnits(t, repo, ['CODE', 'ISSUES']);
    await git.commit(dir, 'README.md', 'off\n', 'unit off');
    await git.ok(['push', '-q', url, 'main'], { cwd: dir });
    await t.app.jobs.drain();
    expect(await t.db.actionRun.count()).toBe(before);
    expect((await t.request('GET', '/api/v1/repos/dev/app/actions/workflows', as())).statusCode).toBe(404);
  });
});
