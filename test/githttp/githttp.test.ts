import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { capturePushes, createRepoFixture, GitClient, gitUrl, ZERO_SHA } from './gitClient.ts';

describe.each(PROVIDERS)('git smart HTTP clone/push/fetch (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let git: GitClient;
  let alice: Models.User;
  let pushes: ReturnType<typeof capturePushes>;
  const asAlice = { user: 'alice', secret: PASSWORD };
  const url = (name: string, creds?: { user: string; secret: string }, suffix?: string) => gitUrl(port, 'alice', name, creds, suffix);

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as AddressInfo).port;
    git = new GitClient();
    alice = await t.createUser('alice');
    pushes = capturePushes(t);
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  const branchRow = (repoId: number, name: string) => t.db.branch.findUnique({ where: { repoId_name: { repoId, name } } });

  it('installs the pre-receive hook at start, and no post-receive while custom hooks are disabled (a process fewer per push)', () => {
    const hook = path.join(t.config.dataDir, 'hooks', 'pre-receive');
    expect(existsSync(hook)).toBe(true);
    expect(readFileSync(hook, 'utf8')).toContain('FORGEGRAPH_HOOK_CHANNEL');
    expect(t.config.disableGitHooks).toBe(true);
    expect(existsSync(path.join(t.config.dataDir, 'hooks', 'post-receive'))).toBe(false);
  });

  it('clones an empty repository, then the first push records branch, isEmpty, size and the event', async () => {
    const repo = await createRepoFixture(t, alice, 'first');
    const work = git.dir('first');
    const clone = await git.run(['clone', url('first'), work]);
    expect(clone.code, clone.stderr).toBe(0);
    expect(clone.stderr).toContain('empty repository');

    const sha = await git.commit(work, 'README.md', '# first\n', 'Initial commit\n\nwith a body');
    const push = await git.run(['push', url('first', asAlice), 'main'], { cwd: work });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain('* [new branch]      main -> main');

    const row = await branchRow(repo.id, 'main');
    expect(row).toMatchObject({ commitId: sha, commitMessage: 'Initial commit', pusherId: alice.id, isDeleted: false });
    const after = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    expect(after.isEmpty).toBe(false);
    // The size is measured by a job the push enqueued (off the push's answer path).
    await t.app.jobs.drain();
    const measured = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    expect(measured.size > 0n).toBe(true);
    expect(measured.gitSize).toBe(measured.size - measured.lfsSize);
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(repo.updatedAt.getTime());
    expect(await pushes.take()).toEqual([
      { repoId: repo.id, pusherId: alice.id, updates: [{ ref: 'refs/heads/main', oldSha: ZERO_SHA, newSha: sha }] },
    ]);
  });

  it("receive-pack runs no auto gc: the push's upkeep job does, after the answer", async () => {
    const repo = await createRepoFixture(t, alice, 'upkeep');
    const gitDir = path.join(t.config.repositoriesDir, 'alice', 'upkeep.git');
    // Every push keeps its pack, and two packs are one too many: `git gc --auto` repacks (in the foreground).
    for (const [key, value] of [
      ['receive.unpackLimit', '1'],
      ['gc.autoPackLimit', '1'],
      ['gc.autoDetach', 'false'],
    ] as const)
      await git.ok(['--git-dir', gitDir, 'config', key, value]);
    const packs = () => readdirSync(path.join(gitDir, 'objects', 'pack')).filter((f) => f.endsWith('.pack')).length;
    const work = git.dir('upkeep');
    await git.ok(['init', '-q', '-b', 'main', work]);
    await git.commit(work, 'a.txt', 'a\n');
    await git.ok(['push', '-q', url('upkeep', asAlice), 'main'], { cwd: work });
    await t.app.jobs.drain();
    expect(packs()).toBe(1);
    await git.commit(work, 'b.txt', 'b\n');
    await git.ok(['push', '-q', url('upkeep', asAlice), 'main'], { cwd: work });
    expect(packs()).toBe(2);
    const before = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    await t.app.jobs.drain();
    expect(packs()).toBe(1);
    const after = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    expect(after.gitSize).not.toBe(before.gitSize);
  });

  it('sets the default branch (and HEAD) when the first push is another branch', async () => {
    const repo = await createRepoFixture(t, alice, 'trunk');
    const work = git.dir('trunk');
    await git.ok(['init', '-q', '-b', 'trunk', work]);
    await git.commit(work, 'a.txt', 'a\n');
    await git.ok(['push', url('trunk', asAlice), 'trunk'], { cwd: work });
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).defaultBranch).toBe('trunk');
    const clone = git.dir('trunk-clone');
    await git.ok(['clone', '-q', url('trunk'), clone]);
    expect((await git.ok(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: clone })).trim()).toBe('trunk');
    await pushes.take();
  });

  describe('on a repository with history', () => {
    let repo: Models.Repository;
    let work: string;
    let main1: string;

    beforeAll(async () => {
      repo = await createRepoFixture(t, alice, 'proj');
      work = git.dir('proj');
      await git.ok(['init', '-q', work]);
      main1 = await git.commit(work, 'src/app.txt', 'v1\n');
      await git.ok(['remote', 'add', 'origin', url('proj', asAlice)], { cwd: work });
      await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
      await pushes.take();
    });

    it('clones anonymously with protocol v2 and with protocol v0, with and without .git', async () => {
      const v2 = git.dir('proj-v2');
      const r2 = await git.run(['-c', 'protocol.version=2', 'clone', url('proj'), v2], { env: { GIT_TRACE_PACKET: '1' } });
      expect(r2.code, r2.stderr).toBe(0);
      expect(r2.stderr).toContain('git< version 2');
      expect(readFileSync(path.join(v2, 'src/app.txt'), 'utf8')).toBe('v1\n');

      const v0 = git.dir('proj-v0');
      const r0 = await git.run(['-c', 'protocol.version=0', 'clone', url('proj', undefined, ''), v0], { env: { GIT_TRACE_PACKET: '1' } });
      expect(r0.code, r0.stderr).toBe(0);
      expect(r0.stderr).not.toContain('git< version 2');
      expect((await git.ok(['rev-parse', 'HEAD'], { cwd: v0 })).trim()).toBe(main1);
    });

    it('pushes a new branch (with a slash), lightweight and annotated tags', async () => {
      await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: work });
      const fx = await git.commit(work, 'f.txt', 'feature\n', 'Add feature');
      await git.ok(['tag', 'v1.0'], { cwd: work });
      await git.ok(['tag', '-a', 'v1.1', '-m', 'release 1.1'], { cwd: work });
      const r = await git.run(['push', 'origin', 'feature/x', 'v1.0', 'v1.1'], { cwd: work });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('[new branch]      feature/x -> feature/x');
      expect(r.stderr).toContain('[new tag]         v1.1 -> v1.1');
      expect(await branchRow(repo.id, 'feature/x')).toMatchObject({ commitId: fx, commitMessage: 'Add feature', isDeleted: false });
      const annotated = (await git.ok(['rev-parse', 'v1.1'], { cwd: work })).trim();
      const [event] = await pushes.take();
      expect(event?.updates).toEqual(
        expect.arrayContaining([
          { ref: 'refs/heads/feature/x', oldSha: ZERO_SHA, newSha: fx },
          { ref: 'refs/tags/v1.0', oldSha: ZERO_SHA, newSha: fx },
          { ref: 'refs/tags/v1.1', oldSha: ZERO_SHA, newSha: annotated },
        ]),
      );
      expect(event?.updates).toHaveLength(3);
      expect(await t.db.branch.count({ where: { repoId: repo.id } })).toBe(2);
    });

    it('rejects a non-fast-forward push, accepts it forced', async () => {
      await git.ok(['checkout', '-q', 'main'], { cwd: work });
      await git.ok(['commit', '-q', '--amend', '-m', 'rewritten'], { cwd: work });
      const amended = (await git.ok(['rev-parse', 'HEAD'], { cwd: work })).trim();
      const plain = await git.run(['push', 'origin', 'main'], { cwd: work });
      expect(plain.code).not.toBe(0);
      expect(plain.stderr).toMatch(/rejected|non-fast-forward/);
      expect(await pushes.take()).toEqual([]);

      const forced = await git.run(['push', '-f', 'origin', 'main'], { cwd: work });
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stderr).toContain('(forced update)');
      expect(await branchRow(repo.id, 'main')).toMatchObject({ commitId: amended, commitMessage: 'rewritten' });
      expect((await pushes.take())[0]?.updates).toEqual([{ ref: 'refs/heads/main', oldSha: main1, newSha: amended }]);
      main1 = amended;
    });

    it('deletes a branch and a tag', async () => {
      const fx = (await branchRow(repo.id, 'feature/x'))?.commitId;
      const r = await git.run(['push', 'origin', ':feature/x', ':refs/tags/v1.0'], { cwd: work });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('[deleted]');
      expect(await branchRow(repo.id, 'feature/x')).toMatchObject({ isDeleted: true, deletedById: alice.id });
      const [event] = await pushes.take();
      expect(event?.updates).toEqual(
        expect.arrayContaining([
          { ref: 'refs/heads/feature/x', oldSha: fx, newSha: ZERO_SHA },
          { ref: 'refs/tags/v1.0', oldSha: fx, newSha: ZERO_SHA },
        ]),
      );
    });

    it('fetches new commits into an existing clone (gzip-encoded negotiation included)', async () => {
      const other = git.dir('proj-fetch');
      await git.ok(['clone', '-q', url('proj'), other]);
      // Many local-only commits make git send a large set of haves; git gzips request bodies over 1 KiB, and
      // negotiation rounds grow (16, 32, 64 … haves), so 200 commits give a round well over that.
      for (let i = 0; i < 200; i++) await git.ok(['commit', '-q', '--allow-empty', '-m', `local ${i}`], { cwd: other });
      const next = await git.commit(work, 'src/app.txt', 'v2\n', 'v2');
      await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
      const f = await git.run(['fetch', 'origin'], { cwd: other, env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' } });
      expect(f.code, f.stderr.slice(-2000)).toBe(0);
      expect(f.stderr).toMatch(/Content-Encoding: gzip/i);
      expect((await git.ok(['rev-parse', 'origin/main'], { cwd: other })).trim()).toBe(next);
      await pushes.take();
    });

    it('pushes more than http.postBuffer (chunked, after the probe request)', async () => {
      await pushes.take(); // only this test's pushes below
      await git.commit(work, 'big.bin', randomBytes(1536 * 1024), 'big file');
      const r = await git.run(['push', 'origin', 'main'], { cwd: work, env: { GIT_TRACE_CURL: '1', GIT_TRACE_CURL_NO_DATA: '1' } });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(r.stderr).toMatch(/Transfer-Encoding: chunked/i);
      const head = (await git.ok(['rev-parse', 'HEAD'], { cwd: work })).trim();
      expect((await branchRow(repo.id, 'main'))?.commitId).toBe(head);
      expect((await pushes.take())[0]?.updates[0]?.newSha).toBe(head);
    });
  });

  it('asks for credentials on a bad password (Authentication failed)', async () => {
    await createRepoFixture(t, alice, 'badpw', { isPrivate: true });
    const r = await git.run(['ls-remote', url('badpw', { user: 'alice', secret: 'wrong-password' })]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Authentication failed');
  });

  it('pushes with a token (as password and as user name)', async () => {
    const repo = await createRepoFixture(t, alice, 'tokpush');
    const token = await t.createToken('alice', ['write:repository']);
    const work = git.dir('tokpush');
    await git.ok(['init', '-q', work]);
    const sha = await git.commit(work, 'a.txt', 'a\n');
    await git.ok(['push', '-q', url('tokpush', { user: 'alice', secret: token }), 'main'], { cwd: work });
    await git.commit(work, 'b.txt', 'b\n');
    await git.ok(['push', '-q', url('tokpush', { user: token, secret: 'x-oauth-basic' }), 'main'], { cwd: work });
    expect((await branchRow(repo.id, 'main'))?.commitId).not.toBe(sha);
    expect(await pushes.take()).toHaveLength(2);
  });
});
