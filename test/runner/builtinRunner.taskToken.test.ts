import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createRepoFixture, GitClient, gitUrl } from '../githttp/gitClient.ts';
import { listenBase, runnerClients } from './runnerClient.ts';

const WORKFLOW = `on: [push]
jobs:
  build:
    runs-on: token-test
    steps:
      - run: echo hi
`;

/**
 * A task's token is Gitea's `gitea-actions` user (id -2) while the task runs, on every door (REST, git smart HTTP):
 * write on its own repository, what anyone may read elsewhere, nothing once the task stopped.
 */
describe.each(PROVIDERS)('task token as the gitea-actions user (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let git: GitClient;
  let root: Models.User;
  let token = '';
  let taskId = 0n;
  let sha = '';
  const port = () => Number(new URL(base).port);
  const asToken = (tk = token) => ({ headers: { authorization: `token ${tk}` } });
  const clone = (name: string, tk = token) => {
    const dir = git.dir(`clone-${name}-${Math.random().toString(36).slice(2)}`);
    return git.run(['clone', '-q', gitUrl(port(), 'root', name, { user: 'x-access-token', secret: tk }), dir]);
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    base = await listenBase(t);
    git = new GitClient();
    root = await t.createUser('root', { admin: true });
    await t.createUser('alice');
    await createRepoFixture(t, root, 'ci', { isPrivate: true });
    await createRepoFixture(t, root, 'other', { isPrivate: true });
    await createRepoFixture(t, root, 'open');
    const dir = git.dir('work');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, 'README.md', 'plain\n');
    for (const repo of ['other', 'open']) {
      await git.ok(['push', '-q', gitUrl(port(), 'root', repo, { user: 'root', secret: PASSWORD }), 'main'], { cwd: dir });
    }
    sha = await git.commit(dir, '.gitea/workflows/ci.yml', WORKFLOW);
    await git.ok(['push', '-q', gitUrl(port(), 'root', 'ci', { user: 'root', secret: PASSWORD }), 'main'], { cwd: dir });
    await t.app.jobs.drain();
    const reg = (await t.request('POST', '/api/v1/admin/actions/runners/registration-token', { headers: basic('root') })).json<{
      token: string;
    }>();
    const c = runnerClients(base, 'binary');
    const { runner } = await c.runner().register({ name: 'r', token: reg.token, version: 'test', labels: ['token-test'] });
    const client = c.runner({ uuid: runner?.uuid ?? '', token: runner?.token ?? '' });
    const { task } = await client.fetchTask({ tasksVersion: 0n });
    token = task?.secrets.GITHUB_TOKEN ?? '';
    taskId = task?.id ?? 0n;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    stopTask = async () => {
      await client.updateTask({ state: { id: taskId, result: 1 } });
    };
  }, 60_000);
  let stopTask = async () => undefined as void;
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('signs in as gitea-actions on the API, with its repository and public ones in reach', async () => {
    const me = await t.request('GET', '/api/v1/user', asToken());
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ id: -2, login: 'gitea-actions' });
    const own = await t.request('GET', '/api/v1/repos/root/ci', asToken());
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ full_name: 'root/ci', permissions: { admin: false, push: true, pull: true } });
    const file = await t.request('GET', `/api/v1/repos/root/ci/contents/.gitea/workflows/ci.yml?ref=${sha}`, asToken());
    expect(file.statusCode, file.body).toBe(200);
    // Another private repository of the same owner is not there for it; a public one reads as for anyone.
    expect((await t.request('GET', '/api/v1/repos/root/other', asToken())).statusCode).toBe(404);
    const open = await t.request('GET', '/api/v1/repos/root/open', asToken());
    expect(open.statusCode).toBe(200);
    expect(open.json()).toMatchObject({ permissions: { push: false, pull: true } });
    // Basic auth with the token as password works too (any user name).
    const viaBasic = await t.request('GET', '/api/v1/repos/root/ci', { headers: basic('x-access-token', token) });
    expect(viaBasic.statusCode).toBe(200);
  });

  it('clones its private repository over smart HTTP, and only that one', async () => {
    const ok = await clone('ci');
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await clone('other');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Repository not found');
    expect((await clone('open')).code).toBe(0);
  });

  it('pushes to its repository (write, as Gitea grants a task outside fork pull requests)', async () => {
    const dir = git.dir('push-work');
    await git.ok(['clone', '-q', gitUrl(port(), 'root', 'ci', { user: 'x-access-token', secret: token }), dir]);
    await git.commit(dir, 'built.txt', 'artifact\n', 'from the job');
    const pushed = await git.run(['push', '-q', 'origin', 'HEAD:refs/heads/from-ci'], { cwd: dir });
    expect(pushed.code, pushed.stderr).toBe(0);
    await t.app.jobs.drain();
    const branch = await t.request('GET', '/api/v1/repos/root/ci/branches/from-ci', { headers: basic('root') });
    expect(branch.statusCode, branch.body).toBe(200);
    // The push's bookkeeping (branch rows, feed, events) went through: no job failed on the virtual pusher.
    expect(await t.db.job.findMany({ where: { lastError: { not: '' } }, select: { kind: true, lastError: true } })).toEqual([]);
    expect(await t.db.branch.findFirst({ where: { name: 'from-ci' }, select: { commitMessage: true } })).toMatchObject({
      commitMessage: 'from the job',
    });
  });

  it('writes what a job reports, as gitea-actions (a commit status)', async () => {
    const res = await t.request('POST', `/api/v1/repos/root/ci/statuses/${sha}`, {
      ...asToken(),
      body: { state: 'success', context: 'job/report', description: 'from the task' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'success', context: 'job/report', creator: { id: -2, login: 'gitea-actions' } });
    // The account is not listed as a user anywhere.
    const users = await t.request('GET', '/api/v1/admin/users', { headers: basic('root') });
    expect(users.json<Array<{ login: string }>>().map((u) => u.login)).not.toContain('gitea-actions');
  });

  it('an unknown token is refused like any bad credential', async () => {
    const wrong = randomBytes(20).toString('hex');
    expect((await t.request('GET', '/api/v1/repos/root/open', asToken(wrong))).statusCode).toBe(401);
    const res = await clone('ci', wrong);
    expect(res.code).not.toBe(0);
  });

  it('stops working when its task stops', async () => {
    await stopTask();
    const res = await t.request('GET', '/api/v1/repos/root/ci', asToken());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ message: 'invalid username, password or token' });
    const cloned = await clone('ci');
    expect(cloned.code).not.toBe(0);
    expect(cloned.stderr).toMatch(/Authentication failed|401/);
  });
});
