import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { createSystemContext } from '../../../src/services/context.ts';
import { onPullBaseUpdated, refreshPullsAfterPush, type BaseUpdate } from '../../../src/services/pull/refresh.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { holdRepoLock } from '../../helpers/heldLock.ts';
import { PullFixture } from '../../helpers/pull.ts';
import { until } from '../../helpers/serverProcess.ts';

describe.each(PROVIDERS)('pull requests follow pushes (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;
  let alice: Models.User;
  const baseUpdates: BaseUpdate[] = [];

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    alice = await t.createUser('alice');
    await t.createUser('bob');
    repo = await f.createRepo('alice', 'demo');
    onPullBaseUpdated(async (_cx, update) => {
      if (update.repoId === repo.id) baseUpdates.push(update);
    });
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const pullRef = async (owner: string, name: string, index: number) =>
    (await readRefs(repoPath(t.config.repositoriesDir, owner, name), [`refs/pull/${index}/head`])).get(`refs/pull/${index}/head`);
  const get = async (index: number, owner = 'alice', name = 'demo') =>
    (await t.request('GET', `/api/v1/repos/${owner}/${name}/pulls/${index}`, { headers: basic('alice') })).json();
  const row = (index: number) => t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index } });
  const pushComments = async (index: number) => {
    const pr = await row(index);
    const rows = await t.db.comment.findMany({ where: { issueId: pr.issueId, type: 'PULL_PUSH' }, orderBy: { id: 'asc' } });
    return rows.map((c) => JSON.parse(c.content) as { is_force_push: boolean; commit_ids: string[] });
  };

  it('a push to the head branch moves refs/pull/N/head, recomputes the stats, records PULL_PUSH and marks reviews stale', async () => {
    const first = await f.push('alice', 'demo', 'alice', 'feature', { 'a.txt': 'a\n' });
    const n = (await f.open('alice', 'demo', 'alice', { head: 'feature', base: 'main' })).json.number as number;
    const pr = await row(n);
    const bob = await t.db.user.findFirstOrThrow({ where: { lowerName: 'bob' } });
    const approval = await t.db.review.create({
      data: { type: 'APPROVE', reviewerId: bob.id, issueId: pr.issueId, commitId: first, official: true },
    });
    const request = await t.db.review.create({ data: { type: 'REQUEST', reviewerId: alice.id, issueId: pr.issueId } });
    expect(await get(n)).toMatchObject({ additions: 1, changed_files: 1, head: { sha: first } });

    const second = await f.push('alice', 'demo', 'alice', 'feature', { 'b.txt': 'b\nb\n', 'c.txt': 'c\n' });
    expect(await pullRef('alice', 'demo', n)).toBe(second);
    expect(await get(n)).toMatchObject({ additions: 4, changed_files: 3, head: { sha: second } });
    expect(await row(n)).toMatchObject({ statsHeadSha: second, commitsAhead: 3 });
    const comments = await pushComments(n);
    expect(comments).toHaveLength(2);
    expect(comments[1]).toMatchObject({ is_force_push: false });
    expect(comments[1]?.commit_ids).toHaveLength(2);
    expect(comments[1]?.commit_ids[1]).toBe(second);
    expect((await t.db.review.findUniqueOrThrow({ where: { id: approval.id } })).stale).toBe(true);
    expect((await t.db.review.findUniqueOrThrow({ where: { id: request.id } })).stale).toBe(false);
  });

  it('a push that leaves the diff alone (an empty commit) keeps reviews fresh; a force push is recorded as one', async () => {
    const n = 1;
    const pr = await row(n);
    const head = await pullRef('alice', 'demo', n);
    await t.db.review.updateMany({ where: { issueId: pr.issueId }, data: { stale: false } });
    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['commit', '-q', '--allow-empty', '-m', 'nothing'], { cwd: dir });
    await f.git.ok(['push', '-q', 'origin', 'feature'], { cwd: dir });
    await t.app.deps.notifier.drain();
    const moved = await pullRef('alice', 'demo', n);
    expect(moved).not.toBe(head);
    expect(await t.db.review.count({ where: { issueId: pr.issueId, stale: true } })).toBe(0);

    await f.git.ok(['reset', '-q', '--hard', 'HEAD~2'], { cwd: dir });
    const forced = await f.git.commit(dir, 'z.txt', 'z\n');
    await f.git.ok(['push', '-q', '-f', 'origin', 'feature'], { cwd: dir });
    await t.app.deps.notifier.drain();
    expect(await pullRef('alice', 'demo', n)).toBe(forced);
    const comments = await pushComments(n);
    expect(comments.at(-1)).toEqual({ is_force_push: true, commit_ids: [moved, forced] });
    expect(await t.db.review.count({ where: { issueId: pr.issueId, type: 'APPROVE', stale: true } })).toBe(1);
  });

  it('a push to the base branch queues a job that recomputes divergence, stats and mergeability, then runs the base hooks', async () => {
    const n = 1;
    const before = await row(n);
    expect(before.commitsBehind).toBe(0);
    const baseTip = await f.push('alice', 'demo', 'alice', 'main', { 'z.txt': 'conflicting\n' });
    // One job per moved branch, whatever the number of pull requests into it (the push does not wait for them).
    expect(await t.db.job.count({ where: { kind: 'pull.refreshBase' } })).toBe(1);
    await t.app.jobs.drain();
    const after = await row(n);
    expect(after).toMatchObject({ commitsBehind: 1, statsBaseSha: baseTip, status: 'CONFLICT', conflictedFiles: '["z.txt"]' });
    expect((await get(n)).mergeable).toBe(false);
    expect(baseUpdates.at(-1)).toMatchObject({ repoId: repo.id, branch: 'main', newSha: baseTip, pusherId: alice.id });
    expect(baseUpdates.at(-1)?.pulls.map((p) => p.index)).toEqual([n]);
  });

  it('a push to the base keeps the diff stats while the merge base stays, and recomputes them when the base takes part of the head', async () => {
    const s1 = await f.push('alice', 'demo', 'alice', 'stats', { 's1.txt': 'one\n' });
    await f.push('alice', 'demo', 'alice', 'stats', { 's2.txt': 'two\ntwo\n' });
    const n = (await f.open('alice', 'demo', 'alice', { head: 'stats', base: 'main' })).json.number as number;
    await t.app.jobs.drain();
    const opened = await row(n);
    expect(await get(n)).toMatchObject({ additions: 3, changed_files: 2 });

    // The base moves on without the head: the same merge base, the same diff.
    const unrelated = await f.push('alice', 'demo', 'alice', 'main', { 'u.txt': 'unrelated\n' });
    await t.app.jobs.drain();
    expect(await row(n)).toMatchObject({ statsBaseSha: unrelated, mergeBase: opened.mergeBase, commitsBehind: opened.commitsBehind + 1 });
    expect(await get(n)).toMatchObject({ additions: 3, deletions: 0, changed_files: 2, mergeable: true });

    // The base merges the head's first commit: the merge base moves to it, and the diff is the second commit's alone.
    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['fetch', '-q', 'origin'], { cwd: dir });
    await f.git.ok(['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: dir });
    await f.git.ok(['merge', '-q', '--no-ff', '-m', 'take s1', s1], { cwd: dir });
    await f.git.ok(['push', '-q', 'origin', 'main:refs/heads/main'], { cwd: dir });
    await t.app.deps.notifier.drain();
    await t.app.jobs.drain();
    expect(await row(n)).toMatchObject({ mergeBase: s1, commitsAhead: 1 });
    expect(await get(n)).toMatchObject({ additions: 2, changed_files: 1, mergeable: true });
  });

  it('a fresh clone fetches a pull request with git fetch origin refs/pull/N/head', async () => {
    const clone = f.git.dir('fresh');
    await f.git.ok(['clone', '-q', f.url('alice', 'demo'), clone]);
    await f.git.ok(['fetch', '-q', 'origin', 'refs/pull/1/head'], { cwd: clone });
    const fetched = (await f.git.ok(['rev-parse', 'FETCH_HEAD'], { cwd: clone })).trim();
    expect(fetched).toBe(await pullRef('alice', 'demo', 1));
    expect((await f.git.ok(['show', '--stat', '--format=%s', 'FETCH_HEAD'], { cwd: clone })).split('\n')[0]).toBe('change z.txt');
  });

  it("a push to a fork's head branch is copied into the base repository's refs/pull/N/head", async () => {
    await f.fork('alice', 'demo', 'bob');
    await f.push('bob', 'demo', 'bob', 'fix', { 'fix.txt': 'one\n' });
    const n = (await f.open('alice', 'demo', 'bob', { head: 'bob:fix', base: 'main' })).json.number as number;
    const next = await f.push('bob', 'demo', 'bob', 'fix', { 'fix2.txt': 'two\n' });
    expect(await pullRef('alice', 'demo', n)).toBe(next);
    expect(await get(n)).toMatchObject({ changed_files: 2, head: { sha: next, repo: { full_name: 'bob/demo' } } });
    expect((await pushComments(n)).at(-1)).toEqual({ is_force_push: false, commit_ids: [next] });
  });

  it("a fork's push moves refs/pull/N/head under that ref's lock: not while a merge holds it", async () => {
    if (!existsSync(repoPath(t.config.repositoriesDir, 'bob', 'demo'))) await f.fork('alice', 'demo', 'bob');
    await f.push('bob', 'demo', 'bob', 'locked', { 'l1.txt': 'one\n' });
    const n = (await f.open('alice', 'demo', 'bob', { head: 'bob:locked', base: 'main' })).json.number as number;
    const before = await pullRef('alice', 'demo', n);
    const held = holdRepoLock(t.app.deps.repoLocks, repo.id, [`refs/pull/${n}/head`]);
    await held.entered;
    const pushing = f.push('bob', 'demo', 'bob', 'locked', { 'l2.txt': 'two\n' });
    const forkHead = async () =>
      (await readRefs(repoPath(t.config.repositoriesDir, 'bob', 'demo'), ['refs/heads/locked'])).get('refs/heads/locked');
    try {
      await until(async () => (await forkHead()) !== before, 60_000, "the push to bob's fork");
      // The push has landed in the fork and its refresh has started; the base repository's ref waits for the lock.
      await sleep(1000);
      expect(await pullRef('alice', 'demo', n)).toBe(before);
    } finally {
      held.release();
    }
    const next = await pushing;
    expect(await pullRef('alice', 'demo', n)).toBe(next);
    expect(await get(n)).toMatchObject({ head: { sha: next } });
  });

  it("a late refresh of an earlier push never moves refs/pull/N/head back: it follows the head branch's tip", async () => {
    const fork = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'bob', name: 'demo' } });
    const bob = await t.db.user.findFirstOrThrow({ where: { lowerName: 'bob' } });
    const first = await f.push('bob', 'demo', 'bob', 'overlap', { 'o1.txt': 'one\n' });
    const n = (await f.open('alice', 'demo', 'bob', { head: 'bob:overlap', base: 'main' })).json.number as number;
    const second = await f.push('bob', 'demo', 'bob', 'overlap', { 'o2.txt': 'two\n' });
    expect(await pullRef('alice', 'demo', n)).toBe(second);
    const comments = (await pushComments(n)).length;
    // The first push's refresh, arriving after the second's (two instances, or a retried job): nothing to do.
    const cx = createSystemContext(t.app.deps);
    const late = { ref: 'refs/heads/overlap', oldSha: '0'.repeat(40), newSha: first };
    await refreshPullsAfterPush(cx, { repoId: fork.id, repo: fork, pusherId: bob.id, pusher: bob, updates: [late] });
    expect(await pullRef('alice', 'demo', n)).toBe(second);
    expect(await pushComments(n)).toHaveLength(comments);
    expect(await get(n)).toMatchObject({ head: { sha: second } });
  });

  it('closed and merged pull requests are left alone', async () => {
    await f.push('alice', 'demo', 'alice', 'closing', { 'k.txt': 'k\n' });
    const n = (await f.open('alice', 'demo', 'alice', { head: 'closing', base: 'main' })).json.number as number;
    const ref = await pullRef('alice', 'demo', n);
    await t.request('PATCH', `/api/v1/repos/alice/demo/issues/${n}`, { headers: basic('alice'), body: { state: 'closed' } });
    await f.push('alice', 'demo', 'alice', 'closing', { 'k2.txt': 'k\n' });
    expect(await pullRef('alice', 'demo', n)).toBe(ref);
    expect(await pushComments(n)).toHaveLength(1);
  });

  it('deleting a head branch with git closes its open pull requests (Gitea CloseBranchPulls), counters exact', async () => {
    await f.push('alice', 'demo', 'alice', 'doomed', { 'doomed.txt': 'd\n' });
    const n = (await f.open('alice', 'demo', 'alice', { head: 'doomed', base: 'main' })).json.number as number;
    const before = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    await f.deleteBranch('alice', 'demo', 'alice', 'doomed');
    const pr = await get(n);
    expect(pr).toMatchObject({ state: 'closed', merged: false, head: { ref: `refs/pull/${n}/head` } });
    const issueId = (await row(n)).issueId;
    expect(await t.db.comment.count({ where: { issueId, type: 'CLOSE' } })).toBe(1);
    const after = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    expect(after.numClosedPulls).toBe(before.numClosedPulls + 1);
  });
});
