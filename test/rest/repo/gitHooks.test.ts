import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

const REJECT_DEV =
  '#!/bin/sh\nwhile read -r old new ref; do\n  case "$ref" in refs/heads/dev*) echo "no pushes to dev" >&2; exit 1 ;; esac\ndone\nexit 0\n';

it("DISABLE_GIT_HOOKS is on unless set (Gitea's default)", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fg-githooks-'));
  expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x' }).disableGitHooks).toBe(true);
  expect(loadConfig({ DATA_DIR: dataDir, SECRET_KEY: 'x', DISABLE_GIT_HOOKS: 'false' }).disableGitHooks).toBe(false);
});

describe.each(PROVIDERS)('/repos/{o}/{r}/hooks/git (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  beforeAll(async () => {
    t = await startTestApp(provider, { DISABLE_GIT_HOOKS: 'false' });
    f = await PullFixture.start(t);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    await t.createUser('hooker');
    await f.createRepo('alice', 'demo');
    await t.db.user.update({ where: { lowerName: 'hooker' }, data: { allowGitHook: true } });
    const res = await t.request('PUT', '/api/v1/repos/alice/demo/collaborators/hooker', {
      headers: basic('alice'),
      body: { permission: 'admin' },
    });
    expect(res.statusCode, res.body).toBe(204);
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });
  afterEach(() => {
    t.config.disableGitHooks = false;
  });

  const hooks = (method: 'GET' | 'PATCH' | 'DELETE', name = '', user: string | null = 'root', body?: Record<string, unknown>) =>
    t.request(method, `/api/v1/repos/alice/demo/hooks/git${name ? `/${name}` : ''}`, {
      ...(user ? { headers: basic(user) } : {}),
      ...(body ? { body } : {}),
    });
  const tip = async (branch: string) =>
    (await readRefs(repoPath(t.config.repositoriesDir, 'alice', 'demo'), [`refs/heads/${branch}`])).get(`refs/heads/${branch}`);
  /** Pushes a new commit on `branch` as alice; resolves with git's exit code and output. */
  const push = async (branch: string, file: string) => {
    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['checkout', '-q', '-B', branch, 'origin/main'], { cwd: dir });
    await f.git.commit(dir, file, `${file}\n`);
    const r = await f.git.run(['push', 'origin', `${branch}:refs/heads/${branch}`], { cwd: dir });
    await t.app.deps.notifier.drain();
    return r;
  };

  it('lists the three server-side hooks, inactive and empty at first', async () => {
    const res = await hooks('GET');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(['pre-receive', 'update', 'post-receive'].map((name) => ({ name, is_active: false, content: '' })));
  });

  it('a pre-receive script set through the API rejects a real push (exit 1) and lets others through; deleting it lifts that', async () => {
    const set = await hooks('PATCH', 'pre-receive', 'root', { content: REJECT_DEV });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ name: 'pre-receive', is_active: true, content: REJECT_DEV });
    expect((await hooks('GET', 'pre-receive')).json()).toMatchObject({ is_active: true, content: REJECT_DEV });

    const refused = await push('dev', 'dev.txt');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('no pushes to dev');
    expect(await tip('dev')).toBeUndefined();
    const ok = await push('other', 'other.txt');
    expect(ok.code, ok.stderr).toBe(0);
    expect(await tip('other')).toBeDefined();

    expect((await hooks('DELETE', 'pre-receive')).statusCode).toBe(204);
    expect((await hooks('GET', 'pre-receive')).json()).toEqual({ name: 'pre-receive', is_active: false, content: '' });
    expect((await push('dev', 'dev2.txt')).code).toBe(0);
    expect(await tip('dev')).toBeDefined();
  });

  it('an update script refuses the one ref it names; a post-receive script runs after the push', async () => {
    await hooks('PATCH', 'update', 'root', {
      content: '#!/bin/sh\n[ "$1" = refs/heads/frozen ] && { echo "frozen ref" >&2; exit 1; }\nexit 0\n',
    });
    await hooks('PATCH', 'post-receive', 'hooker', {
      content: '#!/bin/sh\nwhile read -r old new ref; do echo "post-receive saw $ref"; done\n',
    });
    const frozen = await push('frozen', 'frozen.txt');
    expect(frozen.code).not.toBe(0);
    expect(frozen.stderr).toContain('frozen ref');
    expect(await tip('frozen')).toBeUndefined();
    const fine = await push('thawed', 'thawed.txt');
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).toContain('post-receive saw refs/heads/thawed');
    await hooks('DELETE', 'update');
    await hooks('DELETE', 'post-receive');
  });

  it('with DISABLE_GIT_HOOKS on: 403 for everyone, and a script already in place is not run', async () => {
    await hooks('PATCH', 'pre-receive', 'root', { content: REJECT_DEV });
    t.config.disableGitHooks = true;
    expectGiteaError(await hooks('GET', '', 'root'), 403, 'must be allowed to edit Git hooks');
    expectGiteaError(await hooks('PATCH', 'pre-receive', 'root', { content: '' }), 403);
    expect((await push('dev-off', 'dev3.txt')).code).toBe(0);
    expect(await tip('dev-off')).toBeDefined();
    t.config.disableGitHooks = false;
    expect((await hooks('DELETE', 'pre-receive')).statusCode).toBe(204);
  });

  it('403 for a repository admin not allowed git hooks, 401 anonymous, 404 for an unknown hook name', async () => {
    expectGiteaError(await hooks('GET', '', 'alice'), 403, 'must be allowed to edit Git hooks');
    expectGiteaError(await hooks('GET', '', null), 401);
    expectGiteaError(await hooks('GET', 'pre-commit'), 404);
    expect((await hooks('GET', 'update', 'hooker')).statusCode).toBe(200);
  });
});
