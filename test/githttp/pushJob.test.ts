import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { looseRefNames, readRefs } from '../../src/git/readRefs.ts';
import { repoPath } from '../../src/git/repoPath.ts';
import { PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { holdRepoLock } from '../helpers/heldLock.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { until } from '../helpers/serverProcess.ts';
import { createRepoFixture, GitClient, gitUrl, ZERO_SHA } from './gitClient.ts';

/** Pushes record their bookkeeping as a job before git moves a ref (pre-receive), and run it before answering. */
describe.each(PROVIDERS)('push jobs (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let alice: Models.User;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as AddressInfo).port;
    git = new GitClient();
    alice = await t.createUser('alice');
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  /** Alice's new repository `name`, a work tree with one commit on main, and the push URL with her password. */
  async function started(name: string): Promise<{ repo: Models.Repository; work: string; sha: string; url: string }> {
    const repo = await createRepoFixture(t, alice, name);
    const work = git.dir(name);
    await git.ok(['init', '-q', '-b', 'main', work]);
    const sha = await git.commit(work, 'a.txt', 'a\n');
    return { repo, work, sha, url: gitUrl(port, 'alice', name, { user: 'alice', secret: PASSWORD }) };
  }

  /** Resolves once `n` sections of the server hold or wait for a repository lock. */
  const lockSections = (n: number) => until(() => t.app.deps.repoLocks.active >= n, 30_000, `${n} repository lock sections`);

  it('a push leaves a finished repo.push job with what git applied', async () => {
    const { repo, work, sha, url } = await started('done');
    await git.ok(['push', '-q', url, 'main'], { cwd: work });
    const jobs = await t.db.job.findMany({ where: { kind: 'repo.push' }, orderBy: { id: 'desc' }, take: 1 });
    expect(jobs[0]).toMatchObject({ status: 'DONE', attempts: 1, lockedBy: '' });
    const update = { ref: 'refs/heads/main', oldSha: ZERO_SHA, newSha: sha };
    expect(JSON.parse(jobs[0]?.payload ?? '{}')).toEqual({
      repoId: repo.id,
      pusherId: alice.id,
      updates: [update],
      applied: [update],
      recorded: true,
    });
  });

  it('a push to a branch no pull request involves reads its repository in one statement per request and pull requests in one for all follow-ups', async () => {
    const { work, url } = await started('reads');
    await git.ok(['push', '-q', url, 'main'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'topic'], { cwd: work });
    await git.commit(work, 'b.txt', 'b\n');
    await t.app.deps.notifier.drain();
    t.queries.length = 0;
    await git.ok(['push', '-q', url, 'topic'], { cwd: work });
    await t.app.deps.notifier.drain();
    const queries = t.queries.map((q) => q.replace(/\s+/g, ' '));
    // git's three requests (anonymous, then with the password, then the pack) and the push job: the repository and its
    // access facts in one statement each, never its units or its row again through the ORM.
    expect(queries.filter((q) => q.includes('AS "unitTypes"'))).toHaveLength(4);
    expect(queries.filter((q) => /^SELECT "repoId", "type" FROM "RepoUnit"/.test(q))).toEqual([]);
    expect(queries.filter((q) => /^SELECT .* FROM [`"]\w+[`"]\.[`"]Repository[`"]/.test(q))).toEqual([]);
    // The pull request refresh and the manual-merge detection share one answer to which branches open pull requests involve.
    const pulls = queries.filter((q) => q.includes('PullRequest'));
    expect(pulls).toHaveLength(1);
    for (const q of pulls) expect(q).toMatch(/^SELECT pr\."headRepoId"/);
  });

  it('a push to the default branch of a repository without scheduled workflows writes no schedule', async () => {
    const { work, url } = await started('unscheduled');
    await git.ok(['push', '-q', url, 'main'], { cwd: work });
    await git.commit(work, 'b.txt', 'b\n');
    await t.app.deps.notifier.drain();
    t.queries.length = 0;
    await git.ok(['push', '-q', url, 'main'], { cwd: work });
    await t.app.deps.notifier.drain();
    const schedules = t.queries.filter((q) => q.includes('ActionSchedule'));
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatch(/^SELECT "id" FROM "ActionSchedule"/);
  });

  it("a push's upkeep packs the refs once more than 64 are loose; pushes and reads go on as before", async () => {
    const { work, sha, url } = await started('many');
    const branches = Array.from({ length: 70 }, (_, k) => `b${k}`);
    await git.ok(['push', '-q', url, 'main', ...branches.map((b) => `main:refs/heads/${b}`)], { cwd: work });
    await t.app.jobs.drain();
    const gitDir = repoPath(t.config.repositoriesDir, 'alice', 'many');
    expect(await looseRefNames(gitDir, 100)).toEqual([]);
    const refs = await readRefs(gitDir, ['refs/heads/main', 'refs/heads/b69']);
    expect([...refs.values()]).toEqual([sha, sha]);
    const next = await git.commit(work, 'b.txt', 'b\n');
    await git.ok(['push', '-q', url, 'main:refs/heads/after'], { cwd: work });
    const listed = await git.ok(['ls-remote', url], { cwd: work });
    expect(listed).toContain(`${next}\trefs/heads/after`);
    expect(listed.split('\n').filter((l) => l.includes('refs/heads/'))).toHaveLength(72);
  });

  it('no ref moves when the push job cannot be recorded: the pre-receive hook declines the push', async () => {
    const { work, url } = await started('refused');
    await t.db.$executeRawUnsafe('ALTER TABLE "Job" RENAME TO "JobAway"');
    try {
      const push = await git.run(['push', url, 'main'], { cwd: work });
      expect(push.code).not.toBe(0);
      expect(push.stderr).toContain('forgegraph: error could not record the push');
      expect(push.stderr).toContain('pre-receive hook declined');
    } finally {
      await t.db.$executeRawUnsafe('ALTER TABLE "JobAway" RENAME TO "Job"');
    }
    const gitDir = repoPath(t.config.repositoriesDir, 'alice', 'refused');
    expect((await readRefs(gitDir, ['refs/heads/main'])).size).toBe(0);
    await git.ok(['push', '-q', url, 'main'], { cwd: work });
    expect((await readRefs(gitDir, ['refs/heads/main'])).size).toBe(1);
  });
  it('a push holds only the refs it updates: a push of another branch goes on, a push of the held branch waits, as does one while the whole repository is held', async () => {
    const { repo, work, url } = await started('parallel');
    await git.ok(['push', '-q', url, 'main'], { cwd: work });
    for (const branch of ['held', 'free', 'late']) {
      await git.ok(['checkout', '-q', '-b', branch, 'main'], { cwd: work });
      await git.commit(work, `${branch}.txt`, `${branch}\n`);
    }
    const hold = (refs: string[] | null) => holdRepoLock(t.app.deps.repoLocks, repo.id, refs);
    const branchRow = (name: string) => t.db.branch.findFirst({ where: { repoId: repo.id, name } });
    const held = hold(['refs/heads/held']);
    await held.entered;
    // Another branch of the repository: pushed and recorded while the other one is held.
    await git.ok(['push', '-q', url, 'free'], { cwd: work });
    expect(await branchRow('free')).toMatchObject({ isDeleted: false });
    // The held branch: its push waits (git is told nothing yet, no row) until the lock is released. Checked once
    // its hook waits for the lock: a second section, counted once the other push's follow-ups are done.
    await t.app.jobs.drain();
    await until(() => t.app.deps.repoLocks.active === 1, 30_000, 'only the held lock section');
    let finished = false;
    const pushHeld = git.ok(['push', '-q', url, 'held'], { cwd: work }).finally(() => (finished = true));
    await lockSections(2);
    expect(finished).toBe(false);
    expect(await branchRow('held')).toBeNull();
    held.release();
    await Promise.all([held.done, pushHeld]);
    expect(await branchRow('held')).toMatchObject({ isDeleted: false });
    // The whole repository held (a merge, an API commit): every push waits for it.
    await t.app.jobs.drain();
    await t.app.deps.repoLocks.idle();
    const whole = hold(null);
    await whole.entered;
    finished = false;
    const pushLate = git.ok(['push', '-q', url, 'late'], { cwd: work }).finally(() => (finished = true));
    await lockSections(2);
    expect(finished).toBe(false);
    whole.release();
    await Promise.all([whole.done, pushLate]);
    expect(await branchRow('late')).toMatchObject({ isDeleted: false });
  });

  it('a push whose hook got its lock after a rename of the repository is refused, nothing written where the directory was or is', async () => {
    const { repo, work, url } = await started('pushed-then-renamed');
    await git.ok(['push', '-q', url, 'main'], { cwd: work });
    await git.ok(['checkout', '-q', '-b', 'topic', 'main'], { cwd: work });
    const topic = await git.commit(work, 'topic.txt', 'topic\n');
    // The first push's follow-up jobs done: from here on the only lock sections are the three below.
    await t.app.jobs.drain();
    await t.app.deps.repoLocks.idle();
    // A writer holds the repository; the rename waits for it, the push's hook (which takes its lock after git has
    // received the pack) for the rename. Each is started once the one before waits, however slow the machine.
    const whole = holdRepoLock(t.app.deps.repoLocks, repo.id, null);
    await whole.entered;
    const rename = t.request('PATCH', '/api/v1/repos/alice/pushed-then-renamed', {
      headers: { authorization: `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}` },
      body: { name: 'renamed-under-push' },
    });
    await lockSections(2);
    const push = git.run(['push', url, 'topic'], { cwd: work });
    await lockSections(3);
    whole.release();
    await whole.done;
    expect((await rename).statusCode).toBe(200);
    const pushed = await push;
    expect(pushed.code, pushed.stderr).not.toBe(0);
    expect(pushed.stderr).toMatch(/pre-receive hook declined/);
    const moved = repoPath(t.config.repositoriesDir, 'alice', 'renamed-under-push');
    expect((await readRefs(moved, ['refs/heads/topic'])).has('refs/heads/topic')).toBe(false);
    expect(existsSync(repoPath(t.config.repositoriesDir, 'alice', 'pushed-then-renamed'))).toBe(false);
    expect(await t.db.branch.findFirst({ where: { repoId: repo.id, name: 'topic' } })).toBeNull();
    // Under the new name the same push goes through.
    await git.ok(['push', '-q', gitUrl(port, 'alice', 'renamed-under-push', { user: 'alice', secret: PASSWORD }), 'topic'], { cwd: work });
    expect((await readRefs(moved, ['refs/heads/topic'])).get('refs/heads/topic')).toBe(topic);
  });
});
