import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

describe.each(PROVIDERS)('PUT /repos/{o}/{r}/branches/{branch} (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let main0 = '';
  let ahead = '';
  let side = '';

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    await t.createUser('reader');
    await t.createUser('stranger');
    await f.createRepo('alice', 'demo');
    const res = await t.request('PUT', '/api/v1/repos/alice/demo/collaborators/reader', {
      headers: basic('alice'),
      body: { permission: 'read' },
    });
    expect(res.statusCode, res.body).toBe(204);
    main0 = (await tip('main')) ?? '';
    ahead = await f.push('alice', 'demo', 'alice', 'ahead', { 'a.txt': 'a\n' });
    side = await f.push('alice', 'demo', 'alice', 'side', { 's.txt': 's\n' });
    await f.push('alice', 'demo', 'alice', 'target', {});
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const tip = async (branch: string) =>
    (await readRefs(repoPath(t.config.repositoriesDir, 'alice', 'demo'), [`refs/heads/${branch}`])).get(`refs/heads/${branch}`);
  const put = (branch: string, body: Record<string, unknown>, user = 'alice') =>
    t.request('PUT', `/api/v1/repos/alice/demo/branches/${branch}`, { headers: basic(user), body });

  it('fast-forwards a branch to a commit or a ref, recorded as a push (the branch list follows)', async () => {
    const res = await put('target', { new_commit_id: 'ahead', old_commit_id: main0 });
    expect(res.statusCode, res.body).toBe(204);
    expect(await tip('target')).toBe(ahead);
    await t.app.deps.notifier.drain();
    const branch = await t.request('GET', '/api/v1/repos/alice/demo/branches/target', { headers: basic('alice') });
    expect((branch.json() as { commit: { id: string } }).commit.id).toBe(ahead);
  });

  it('refuses a rewind without force (409) and takes it with force', async () => {
    expectGiteaError(await put('target', { new_commit_id: side }), 409, /not a fast-forward/);
    expect(await tip('target')).toBe(ahead);
    expect((await put('target', { new_commit_id: side, force: true })).statusCode).toBe(204);
    expect(await tip('target')).toBe(side);
  });

  it('409 when old_commit_id is not the tip; 422 for an unknown commit or a missing new_commit_id; 404 for a missing branch', async () => {
    expectGiteaError(await put('target', { new_commit_id: ahead, old_commit_id: main0, force: true }), 409);
    expectGiteaError(await put('target', { new_commit_id: 'no-such-ref' }), 422);
    expectGiteaError(await put('target', {}), 422);
    expectGiteaError(await put('nope', { new_commit_id: ahead }), 404);
    expect(await tip('target')).toBe(side);
  });

  it('protection applies as to a push: no force push onto a protected branch', async () => {
    const rule = await t.request('POST', '/api/v1/repos/alice/demo/branch_protections', {
      headers: basic('alice'),
      body: { rule_name: 'target', enable_push: true },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expectGiteaError(await put('target', { new_commit_id: main0, force: true }), 403, /force push/);
    expect(await tip('target')).toBe(side);
  });

  it('401 anonymous, 403 for a reader, 404 for a stranger (private look-alike) on a private repository', async () => {
    expectGiteaError(await t.request('PUT', '/api/v1/repos/alice/demo/branches/ahead', { body: { new_commit_id: side } }), 401);
    expectGiteaError(await put('ahead', { new_commit_id: side, force: true }, 'reader'), 403);
    await f.createRepo('alice', 'secret', { private: true });
    expectGiteaError(
      await t.request('PUT', '/api/v1/repos/alice/secret/branches/main', { headers: basic('stranger'), body: { new_commit_id: 'main' } }),
      404,
    );
    expect(await tip('ahead')).toBe(ahead);
  });
});
