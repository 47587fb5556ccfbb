import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase } from './runnerClient.ts';

const WORKFLOW = `on:
  issues:
    types: [opened]
  release:
    types: [published]
jobs:
  triage:
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ github.event_name }}
`;

/** issues and release events start the workflows whose `on:` lists them, through a job written with the event. */
describe.each(PROVIDERS)('issue and release triggers (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let owner: Models.User;
  let base: string;
  const as = () => ({ headers: basic('maint') });

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    owner = await t.createUser('maint');
    await createRepoFixture(t, owner, 'lib');
    const dir = git.dir('lib');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, '.gitea/workflows/triage.yml', WORKFLOW, 'triage');
    await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'maint', 'lib', { user: 'maint', secret: PASSWORD }), 'main'], {
      cwd: dir,
    });
    await t.app.jobs.drain();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  const runsOf = async (event: string) =>
    (await t.request('GET', `/api/v1/repos/maint/lib/actions/runs?event=${event}`, as())).json<{
      workflow_runs: Array<Record<string, unknown>>;
    }>().workflow_runs;

  it('a push does not match; an opened issue does, titled by the issue; a closed one does not', async () => {
    expect(await runsOf('push')).toEqual([]);
    const issue = await t.request('POST', '/api/v1/repos/maint/lib/issues', { ...as(), body: { title: 'Crash on start' } });
    expect(issue.statusCode).toBe(201);
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
    expect(await runsOf('issues')).toMatchObject([
      { display_title: 'Crash on start', event: 'issues', head_branch: 'main', status: 'queued' },
    ]);
    await t.request('PATCH', '/api/v1/repos/maint/lib/issues/1', { ...as(), body: { state: 'closed' } });
    await t.app.jobs.drain();
    expect(await runsOf('issues')).toHaveLength(1);
  });

  it('a published release starts a run at its tag', async () => {
    const rel = await t.request('POST', '/api/v1/repos/maint/lib/releases', { ...as(), body: { tag_name: 'v1.0.0', name: 'One' } });
    expect(rel.statusCode).toBe(201);
    await t.app.jobs.drain();
    expect(await runsOf('release')).toMatchObject([{ event: 'release', path: 'triage.yml@refs/tags/v1.0.0' }]);
  });

  it("reads the workflows of the default branch's new head: none run under [skip ci], both after the next commit", async () => {
    const dir = git.dir('lib');
    const remote = gitUrl(Number(new URL(base).port), 'maint', 'lib', { user: 'maint', secret: PASSWORD });
    const openIssue = async (title: string) => {
      expect((await t.request('POST', '/api/v1/repos/maint/lib/issues', { ...as(), body: { title } })).statusCode).toBe(201);
      await t.app.deps.notifier.drain();
      await t.app.jobs.drain();
    };
    await git.commit(dir, '.gitea/workflows/second.yml', WORKFLOW, 'a second workflow [skip ci]');
    await git.ok(['push', '-q', remote, 'main'], { cwd: dir });
    await openIssue('Skipped');
    expect((await runsOf('issues')).map((r) => r.display_title)).toEqual(['Crash on start']);

    await git.commit(dir, 'README.md', 'lib\n', 'readme');
    await git.ok(['push', '-q', remote, 'main'], { cwd: dir });
    await openIssue('Both');
    const runs = await runsOf('issues');
    expect(
      runs
        .filter((r) => r.display_title === 'Both')
        .map((r) => r.path)
        .sort(),
    ).toEqual(['second.yml@refs/heads/main', 'triage.yml@refs/heads/main']);
  });
});
