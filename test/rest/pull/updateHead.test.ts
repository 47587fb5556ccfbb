import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

describe.each(PROVIDERS)('POST /repos/{o}/{r}/pulls/{index}/update (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'reader', 'forker']) await t.createUser(u);
    await f.createRepo('alice', 'demo');
    const res = await t.request('PUT', '/api/v1/repos/alice/demo/collaborators/reader', {
      headers: basic('alice'),
      body: { permission: 'read' },
    });
    expect(res.statusCode, res.body).toBe(204);
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const tip = async (branch: string, owner = 'alice') =>
    (await readRefs(repoPath(t.config.repositoriesDir, owner, 'demo'), [`refs/heads/${branch}`])).get(`refs/heads/${branch}`);
  const update = (index: number, style = '', user: string | null = 'alice') =>
    t.request(
      'POST',
      `/api/v1/repos/alice/demo/pulls/${index}/update${style ? `?style=${style}` : ''}`,
      user ? { headers: basic(user) } : {},
    );
  /** `git log --format='%P %s'` of a branch in a fresh clone, newest first. */
  const log = async (branch: string, owner = 'alice') => {
    const dir = f.git.dir(`log-${Math.random().toString(36).slice(2)}`);
    await f.git.ok(['clone', '-q', '--branch', branch, f.url(owner, 'demo', 'alice'), dir]);
    return (await f.git.ok(['log', '--format=%P|%s'], { cwd: dir })).trim().split('\n');
  };

  it('merges the base into the head: a merge commit with the head then the base as parents, and the pull request follows', async () => {
    const index = await f.pushAndOpen('alice', 'demo', 'alice', 'merge-me', { 'm.txt': 'm\n' });
    const head = await tip('merge-me');
    const main = await f.push('alice', 'demo', 'alice', 'main', { 'base1.txt': 'b\n' });
    expect((await update(index)).statusCode).toBe(200);
    await t.app.deps.notifier.drain();
    const [top] = await log('merge-me');
    expect(top).toBe(`${head} ${main}|Merge branch 'main' into merge-me`);
    const pull = (await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}`, { headers: basic('alice') })).json() as {
      head: { sha: string };
    };
    expect(pull.head.sha).toBe(await tip('merge-me'));
    expectGiteaError(await update(index), 422, /up to date/);
  });

  it('style=rebase replays the head onto the base (no merge commit)', async () => {
    const index = await f.pushAndOpen('alice', 'demo', 'alice', 'rebase-me', { 'r.txt': 'r\n' });
    const main = await f.push('alice', 'demo', 'alice', 'main', { 'base2.txt': 'b\n' });
    expect((await update(index, 'rebase')).statusCode).toBe(200);
    const [top, second] = await log('rebase-me');
    expect(top).toMatch(/^[0-9a-f]{40}\|change r\.txt$/);
    expect(second).toMatch(/\|change base2\.txt$/);
    expect(top?.split('|')[0]).toBe(main);
  });

  it('409 on conflicts, the head branch left alone', async () => {
    const index = await f.pushAndOpen('alice', 'demo', 'alice', 'clash', { 'c.txt': 'head side\n' });
    const before = await tip('clash');
    await f.push('alice', 'demo', 'alice', 'main', { 'c.txt': 'base side\n' });
    expectGiteaError(await update(index), 409, 'merge failed because of conflict');
    expectGiteaError(await update(index, 'rebase'), 409, 'rebase failed because of conflict');
    expect(await tip('clash')).toBe(before);
  });

  it('updates a fork head through the fork, for the head owner', async () => {
    await f.fork('alice', 'demo', 'forker');
    await f.push('forker', 'demo', 'forker', 'from-fork', { 'k.txt': 'k\n' });
    const index = ((await f.open('alice', 'demo', 'forker', { head: 'forker:from-fork', base: 'main' })).json.number as number) ?? 0;
    const main = await f.push('alice', 'demo', 'alice', 'main', { 'base3.txt': 'b\n' });
    expect((await update(index, '', 'forker')).statusCode).toBe(200);
    const [top] = await log('from-fork', 'forker');
    expect(top).toContain(main);
  });

  it('403 for a reader, 401 anonymous, 404 for an unknown pull request, 422 once merged', async () => {
    const index = await f.pushAndOpen('alice', 'demo', 'alice', 'gates', { 'g.txt': 'g\n' });
    await f.push('alice', 'demo', 'alice', 'main', { 'base4.txt': 'b\n' });
    expectGiteaError(await update(index, '', 'reader'), 403);
    expectGiteaError(await update(index, '', null), 401);
    expectGiteaError(await update(9999), 404);
    const merged = await t.request('POST', `/api/v1/repos/alice/demo/pulls/${index}/merge`, {
      headers: basic('alice'),
      body: { Do: 'merge' },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    expectGiteaError(await update(index), 422);
  });
});
