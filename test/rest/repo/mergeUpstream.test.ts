import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

describe.each(PROVIDERS)('POST /repos/{o}/{r}/merge-upstream (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob', 'stranger']) await t.createUser(u);
    await f.createRepo('alice', 'demo');
    await f.fork('alice', 'demo', 'bob');
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const tip = async (owner: string, branch = 'main') =>
    (await readRefs(repoPath(t.config.repositoriesDir, owner, 'demo'), [`refs/heads/${branch}`])).get(`refs/heads/${branch}`);
  const sync = (body: Record<string, unknown>, user: string | null = 'bob', owner = 'bob') =>
    t.request('POST', `/api/v1/repos/${owner}/demo/merge-upstream`, { ...(user ? { headers: basic(user) } : {}), body });

  it('up-to-date, then a fast-forward to the upstream branch of the same name', async () => {
    expect((await sync({ branch: 'main' })).json()).toEqual({ merge_type: 'up-to-date' });
    const upstream = await f.push('alice', 'demo', 'alice', 'main', { 'u1.txt': 'u\n' });
    const res = await sync({ branch: 'main' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ merge_type: 'fast-forward' });
    expect(await tip('bob')).toBe(upstream);
  });

  it('diverged: 400 with ff_only, else a merge commit of the fork branch and the upstream', async () => {
    const mine = await f.push('bob', 'demo', 'bob', 'main', { 'fork.txt': 'f\n' });
    const upstream = await f.push('alice', 'demo', 'alice', 'main', { 'u2.txt': 'u\n' });
    expectGiteaError(await sync({ branch: 'main', ff_only: true }), 400);
    expect(await tip('bob')).toBe(mine);
    const res = await sync({});
    expect(res.json()).toEqual({ merge_type: 'merge' });
    const dir = f.git.dir('merged');
    await f.git.ok(['clone', '-q', f.url('bob', 'demo', 'bob'), dir]);
    expect((await f.git.ok(['log', '-1', '--format=%P|%s'], { cwd: dir })).trim()).toBe(
      `${mine} ${upstream}|Merge branch 'main' of alice/demo into main`,
    );
  });

  it("a fork branch missing upstream syncs from the upstream's default branch", async () => {
    await f.push('bob', 'demo', 'bob', 'topic', {}, { from: 'main' });
    const upstream = await f.push('alice', 'demo', 'alice', 'main', { 'u3.txt': 'u\n' });
    expect((await sync({ branch: 'topic' })).json()).toEqual({ merge_type: 'merge' });
    const dir = f.git.dir('topic');
    await f.git.ok(['clone', '-q', '--branch', 'topic', f.url('bob', 'demo', 'bob'), dir]);
    expect((await f.git.ok(['log', '-1', '--format=%P'], { cwd: dir })).trim()).toContain(upstream);
  });

  it("the fork branch's protection applies as to a push (403, nothing moves)", async () => {
    const rule = await t.request('POST', '/api/v1/repos/bob/demo/branch_protections', {
      headers: basic('bob'),
      body: { rule_name: 'main' },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const before = await tip('bob');
    await f.push('alice', 'demo', 'alice', 'main', { 'u4.txt': 'u\n' });
    expectGiteaError(await sync({ branch: 'main' }), 403, /protected branch main/);
    expect(await tip('bob')).toBe(before);
  });

  it('400 for a repository that is no fork, 404 for a missing branch, 401 anonymous, 403 for a non-writer', async () => {
    expectGiteaError(await sync({ branch: 'main' }, 'alice', 'alice'), 400, 'repo is not a fork');
    expectGiteaError(await sync({ branch: 'nope' }), 404);
    expectGiteaError(await sync({ branch: 'main' }, null), 401);
    expectGiteaError(await sync({ branch: 'main' }, 'stranger'), 403);
  });
});
