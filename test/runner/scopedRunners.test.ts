import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator } from '../helpers/fixtures.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, registeredRunner } from './runnerClient.ts';

const WORKFLOW = `on: push
jobs:
  build:
    runs-on: linux
    steps:
      - run: echo \${{ secrets.SEC }} \${{ vars.VAR }}
`;

/**
 * Runners registered with a repository's token run that repository's jobs only; a task carries the owner's and
 * the repository's secrets (decrypted) and variables, the repository's winning.
 */
describe.each(PROVIDERS)('scoped runners, secrets and variables in tasks (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  const as = (u: string, body?: unknown) => ({ headers: basic(u), ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    const dev = await t.createUser('dev');
    await t.createUser('helper');
    await t.createUser('root', { admin: true });
    for (const name of ['one', 'two']) {
      const repo = await createRepoFixture(t, dev, name, { isPrivate: true });
      if (name === 'one') await addCollaborator(t, repo, { name: 'helper' }, 'write');
      const dir = git.dir(name);
      await git.ok(['init', '-q', dir]);
      await git.commit(dir, '.gitea/workflows/ci.yml', WORKFLOW, 'ci');
      await git.ok(['push', '-q', gitUrl(Number(new URL(base).port), 'dev', name, { user: 'dev', secret: PASSWORD }), 'main'], {
        cwd: dir,
      });
    }
    await t.app.jobs.drain();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  const register = (tokenPath: string, name: string) =>
    registeredRunner(t, base, { tokenPath, headers: basic('dev'), name, labels: ['linux'] });

  it('a repository runner gets its repository job with secrets and variables; the scope endpoints see their own', async () => {
    await t.request('PUT', '/api/v1/user/actions/secrets/SEC', as('dev', { data: 'owner-secret' }));
    await t.request('PUT', '/api/v1/user/actions/secrets/OWNER_ONLY', as('dev', { data: 'o' }));
    await t.request('PUT', '/api/v1/repos/dev/one/actions/secrets/SEC', as('dev', { data: 'repo-secret' }));
    await t.request('POST', '/api/v1/user/actions/variables/VAR', as('dev', { value: 'owner-var' }));
    await t.request('POST', '/api/v1/user/actions/variables/OTHER', as('dev', { value: 'x' }));
    await t.request('POST', '/api/v1/repos/dev/one/actions/variables/VAR', as('dev', { value: 'repo-var' }));

    const repoToken = (await t.request('GET', '/api/v1/repos/dev/two/actions/runners/registration-token', as('dev'))).json<{
      token: string;
    }>().token;
    expect((await t.request('POST', '/api/v1/repos/dev/two/actions/runners/registration-token', as('dev'))).json()).toEqual({
      token: repoToken,
    });
    expect((await t.request('POST', '/api/v1/user/actions/runners/registration-token', as('dev'))).json()).not.toEqual({
      token: repoToken,
    });
    expect((await t.request('POST', '/api/v1/repos/dev/one/actions/runners/registration-token', as('helper'))).statusCode).toBe(403);
    expect((await t.request('POST', '/api/v1/repos/dev/two/actions/runners/registration-token', as('helper'))).statusCode).toBe(404);

    const two = await register('/repos/dev/two/actions/runners/registration-token', 'two-runner');
    const taskTwo = (await two.client.fetchTask({ tasksVersion: 0n })).task;
    expect(taskTwo?.context?.repository).toBe('dev/two');
    expect((await two.client.fetchTask({ tasksVersion: 0n })).task).toBeUndefined();
    // Repository two has no secret of its own: the owner's; GITEA_TOKEN is the task token.
    expect(taskTwo?.secrets).toMatchObject({ SEC: 'owner-secret', OWNER_ONLY: 'o' });
    expect(taskTwo?.secrets.GITEA_TOKEN).toBe(taskTwo?.context?.token);
    expect(taskTwo?.vars).toEqual({ VAR: 'owner-var', OTHER: 'x' });

    const one = await register('/repos/dev/one/actions/runners/registration-token', 'one-runner');
    const taskOne = (await one.client.fetchTask({ tasksVersion: 0n })).task;
    expect(taskOne?.context?.repository).toBe('dev/one');
    expect(Object.keys(taskOne?.secrets ?? {}).sort()).toEqual(['GITEA_TOKEN', 'GITHUB_TOKEN', 'OWNER_ONLY', 'SEC']);
    expect(taskOne?.secrets.SEC).toBe('repo-secret');
    expect(taskOne?.vars).toEqual({ VAR: 'repo-var', OTHER: 'x' });

    const list = (await t.request('GET', '/api/v1/repos/dev/one/actions/runners', as('dev'))).json<{
      runners: Array<{ id: number; name: string }>;
      total_count: number;
    }>();
    expect(list).toMatchObject({ total_count: 1, runners: [{ id: one.id, name: 'one-runner' }] });
    expect((await t.request('GET', `/api/v1/repos/dev/one/actions/runners/${one.id}`, as('dev'))).json()).toMatchObject({
      name: 'one-runner',
    });
    const foreign = await t.request('GET', `/api/v1/repos/dev/one/actions/runners/${two.id}`, as('dev'));
    expect(foreign.statusCode).toBe(404);
    expect((await t.request('GET', '/api/v1/repos/dev/one/actions/runners', as('helper'))).statusCode).toBe(403);
    expect((await t.request('GET', '/api/v1/user/actions/runners', as('dev'))).json()).toEqual({ runners: [], total_count: 0 });
    expect((await t.request('GET', '/api/v1/admin/actions/runners', as('root'))).json()).toMatchObject({ total_count: 2 });
    const patched = await t.request('PATCH', `/api/v1/repos/dev/one/actions/runners/${one.id}`, as('dev', { disabled: true }));
    expect(patched.json()).toMatchObject({ disabled: true });

    expect((await t.request('DELETE', `/api/v1/repos/dev/one/actions/runners/${two.id}`, as('dev'))).statusCode).toBe(404);
    expect((await t.request('DELETE', `/api/v1/repos/dev/one/actions/runners/${one.id}`, as('dev'))).statusCode).toBe(204);
    expect((await t.request('GET', `/api/v1/repos/dev/one/actions/runners/${one.id}`, as('dev'))).statusCode).toBe(404);
  });
});
