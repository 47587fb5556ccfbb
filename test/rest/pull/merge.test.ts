import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { mergeTestHooks } from '../../../src/services/pull/merge.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { holdRepoLock } from '../../helpers/heldLock.ts';
import { PullFixture } from '../../helpers/pull.ts';

/** `git log --format='%H %P %s'` of a fresh clone's branch, newest first. */
interface LogLine {
  sha: string;
  parents: string[];
  subject: string;
}

describe.each(PROVIDERS)('POST/GET /repos/{o}/{r}/pulls/{index}/merge (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice', { fullName: 'Alice Owner' });
    await t.createUser('writer');
    await t.createUser('reader');
    await t.createUser('bob');
    await t.createUser('root', { admin: true });
    repo = await f.createRepo('alice', 'demo');
    for (const [user, permission] of [
      ['reader', 'read'],
      ['writer', 'write'],
    ] as const) {
      const res = await t.request('PUT', `/api/v1/repos/alice/demo/collaborators/${user}`, {
        headers: basic('alice'),
        body: { permission },
      });
      expect(res.statusCode, res.body).toBe(204);
    }
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });
  afterEach(() => {
    mergeTestHooks.afterChecks = null;
    mergeTestHooks.beforeBaseUpdate = null;
  });

  const merge = (index: number, body: Record<string, unknown>, user = 'alice', repoName = 'demo', owner = 'alice') =>
    t.request('POST', `/api/v1/repos/${owner}/${repoName}/pulls/${index}/merge`, { headers: basic(user), body });
  const getPull = async (index: number, repoName = 'demo', owner = 'alice') => {
    const res = await t.request('GET', `/api/v1/repos/${owner}/${repoName}/pulls/${index}`, { headers: basic('alice') });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown> & { head: { sha: string }; base: { sha: string } };
  };
  const branchTip = async (branch: string, name = 'demo', owner = 'alice') =>
    (await readRefs(repoPath(t.config.repositoriesDir, owner, name), [`refs/heads/${branch}`])).get(`refs/heads/${branch}`);

  /** Clones owner/name afresh with the real git client and returns `git log` of `branch`. */
  async function freshLog(branch = 'main', name = 'demo', owner = 'alice'): Promise<LogLine[]> {
    const dir = f.git.dir(`fresh-${Math.random().toString(36).slice(2)}`);
    await f.git.ok(['clone', '-q', '--branch', branch, f.url(owner, name, 'alice'), dir]);
    const out = await f.git.ok(['log', '--format=%H %P %s'], { cwd: dir });
    return out
      .trim()
      .split('\n')
      .map((line) => {
        const [sha = '', ...rest] = line.split(' ');
        const parents = rest.filter((p) => /^[0-9a-f]{40}$/.test(p));
        return { sha, parents, subject: rest.slice(parents.length).join(' ') };
      });
  }

  /** Advances main with a commit touching `file` (not conflicting with the pull requests' files). */
  const advanceMain = (file: string) => f.push('alice', 'demo', 'alice', 'main', { [file]: `${file}\n` });

  it('merge: a merge commit with the base and the head as parents, Gitea title; PR merged and closed, counters, GET 204', async () => {
    const head = await f.push('alice', 'demo', 'writer', 'f-merge', { 'merge1.txt': 'one\n', 'merge2.txt': 'two\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-merge', base: 'main', title: 'Merge me' })).json.number as number;
    await advanceMain('main-a.txt');
    const before = await branchTip('main');
    const closedBefore = (await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).numClosedPulls;

    expect((await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}/merge`, { headers: basic('reader') })).statusCode).toBe(404);
    const res = await merge(index, { Do: 'merge' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');

    const log = await freshLog();
    expect(log[0]?.parents).toEqual([before, head]);
    expect(log[0]?.subject).toBe(`Merge pull request 'Merge me' (#${index}) from f-merge into main`);
    expect(log.map((l) => l.sha)).toContain(head);

    const pr = await getPull(index);
    expect(pr).toMatchObject({ state: 'closed', merged: true, merge_commit_sha: log[0]?.sha, merged_by: { login: 'alice' } });
    expect(pr.merged_at).toEqual(expect.any(String));
    expect(pr.closed_at).toEqual(expect.any(String));
    expect((await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}/merge`, { headers: basic('reader') })).statusCode).toBe(204);
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).numClosedPulls).toBe(closedBefore + 1);
    const issue = await t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, index } });
    expect(
      await t.db.comment.count({
        where: {
          issueId: issue.id,
          type: 'MERGE_PULL',
          posterId: (await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } })).id,
        },
      }),
    ).toBe(1);

    // The merge is recorded as a push by the merger: Branch row, commit_repo and merge_pull_request feed rows.
    await t.app.deps.notifier.drain();
    const branch = await t.db.branch.findUniqueOrThrow({ where: { repoId_name: { repoId: repo.id, name: 'main' } } });
    expect(branch.commitId).toBe(log[0]?.sha);
    expect(branch.commitMessage).toBe(log[0]?.subject);
    const alice = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } });
    const actions = await t.db.action.findMany({
      where: { userId: alice.id, repoId: repo.id, opType: { in: ['MERGE_PULL_REQUEST', 'COMMIT_REPO'] } },
      orderBy: { id: 'desc' },
      take: 2,
    });
    expect(actions.map((a) => [a.opType, a.actUserId])).toEqual(
      expect.arrayContaining([
        ['MERGE_PULL_REQUEST', alice.id],
        ['COMMIT_REPO', alice.id],
      ]),
    );
    expect(actions.find((a) => a.opType === 'MERGE_PULL_REQUEST')?.content).toBe(`${index}|Merge me`);

    // Merging again: already merged (405).
    expectGiteaError(await merge(index, { Do: 'merge' }), 405, 'The PR is already merged');
  });

  it('a merge keeps the milestone and label counters exact', async () => {
    const milestone = (
      (await t.request('POST', '/api/v1/repos/alice/demo/milestones', { headers: basic('alice'), body: { title: 'm1' } })).json() as {
        id: number;
      }
    ).id;
    const label = (
      (
        await t.request('POST', '/api/v1/repos/alice/demo/labels', { headers: basic('alice'), body: { name: 'merging', color: '#123456' } })
      ).json() as { id: number }
    ).id;
    await f.push('alice', 'demo', 'writer', 'f-counted', { 'counted.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-counted', base: 'main', milestone, labels: [label] })).json
      .number as number;
    expect(await t.db.milestone.findUniqueOrThrow({ where: { id: milestone } })).toMatchObject({ numIssues: 1, numClosedIssues: 0 });
    expect((await merge(index, { Do: 'merge' })).statusCode).toBe(200);
    expect(await t.db.milestone.findUniqueOrThrow({ where: { id: milestone } })).toMatchObject({
      numIssues: 1,
      numClosedIssues: 1,
      completeness: 100,
    });
    expect(await t.db.label.findUniqueOrThrow({ where: { id: label } })).toMatchObject({ numIssues: 1, numClosedIssues: 1 });
  });

  it('rebase: the head commits replayed linearly onto the base (new ids, one parent each), base fast-forwarded', async () => {
    const first = await f.push('alice', 'demo', 'writer', 'f-rebase', { 'rebase1.txt': 'one\n' });
    const second = await f.push('alice', 'demo', 'writer', 'f-rebase', { 'rebase2.txt': 'two\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-rebase', base: 'main', title: 'Rebase me' })).json.number as number;
    await advanceMain('main-b.txt');
    const before = await branchTip('main');
    const res = await merge(index, { do: 'rebase' });
    expect(res.statusCode, res.body).toBe(200);
    const log = await freshLog();
    expect(log.slice(0, 2).map((l) => l.subject)).toEqual(['change rebase2.txt', 'change rebase1.txt']);
    expect(log[1]?.parents).toEqual([before]);
    expect(log[0]?.parents).toEqual([log[1]?.sha]);
    expect([first, second]).not.toContain(log[0]?.sha);
    expect(log.every((l) => l.parents.length <= 1 || l.subject.startsWith('Merge pull request'))).toBe(true);
    expect(await getPull(index)).toMatchObject({ merged: true, merge_commit_sha: log[0]?.sha });
  });

  it('rebase-merge: the rebased commits, then a merge commit of the old base and the rebased head', async () => {
    const original = await f.push('alice', 'demo', 'writer', 'f-rebase-merge', { 'rm1.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-rebase-merge', base: 'main', title: 'Rebase merge me' })).json
      .number as number;
    await advanceMain('main-c.txt');
    const before = await branchTip('main');
    const res = await merge(index, { Do: 'rebase-merge', merge_title_field: 'Custom title', merge_message_field: 'Body line' });
    expect(res.statusCode, res.body).toBe(200);
    const log = await freshLog();
    expect(log[0]?.subject).toBe('Custom title');
    expect(log[0]?.parents[0]).toBe(before);
    const rebased = log[0]?.parents[1];
    expect(rebased).not.toBe(original);
    const replayed = log.find((l) => l.sha === rebased);
    expect(replayed).toMatchObject({ subject: 'change rm1.txt', parents: [before] });
    const dir = f.git.dir(`show-${index}`);
    await f.git.ok(['clone', '-q', f.url('alice', 'demo', 'alice'), dir]);
    expect((await f.git.ok(['log', '-1', '--format=%B'], { cwd: dir })).trim()).toBe('Custom title\n\nBody line');
  });

  it('squash: one commit on the base, authored by the poster, titled "<title> (#N)", co-author trailer for the merger', async () => {
    await f.push('alice', 'demo', 'writer', 'f-squash', { 'sq1.txt': 'one\n' });
    await f.push('alice', 'demo', 'writer', 'f-squash', { 'sq2.txt': 'two\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-squash', base: 'main', title: 'Squash me' })).json.number as number;
    await advanceMain('main-d.txt');
    const before = await branchTip('main');
    const res = await merge(index, { Do: 'squash' });
    expect(res.statusCode, res.body).toBe(200);
    const log = await freshLog();
    expect(log[0]).toMatchObject({ parents: [before], subject: `Squash me (#${index})` });
    expect(log.map((l) => l.subject)).not.toContain('change sq1.txt');
    const dir = f.git.dir(`squash-${index}`);
    await f.git.ok(['clone', '-q', f.url('alice', 'demo', 'alice'), dir]);
    const shown = await f.git.ok(['log', '-1', '--format=%an <%ae>|%cn <%ce>|%B'], { cwd: dir });
    const [authorLine, committerLine, body] = shown.split('|');
    // The PR's commits were made by the test git client (pusher@example.com), not an address of the poster.
    expect(authorLine).toBe('writer <writer@example.com>');
    expect(committerLine).toBe('Alice Owner <alice@example.com>');
    expect(body?.trim()).toBe(`Squash me (#${index})\n\nCo-authored-by: writer <writer@example.com>`);
    const ls = await f.git.ok(['ls-tree', '--name-only', 'HEAD'], { cwd: dir });
    expect(ls.split('\n')).toEqual(expect.arrayContaining(['sq1.txt', 'sq2.txt', 'main-d.txt']));
  });

  it('fast-forward-only: the base moves to the head commit itself; refused (409) when the base has moved on', async () => {
    const head = await f.push('alice', 'demo', 'writer', 'f-ff', { 'ff1.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-ff', base: 'main', title: 'FF me' })).json.number as number;
    const res = await merge(index, { Do: 'fast-forward-only' });
    expect(res.statusCode, res.body).toBe(200);
    const log = await freshLog();
    expect(log[0]?.sha).toBe(head);
    expect(await getPull(index)).toMatchObject({ merged: true, merge_commit_sha: head });

    await f.push('alice', 'demo', 'writer', 'f-ff2', { 'ff2.txt': 'two\n' });
    const index2 = (await f.open('alice', 'demo', 'writer', { head: 'f-ff2', base: 'main', title: 'FF refused' })).json.number as number;
    await advanceMain('main-e.txt');
    const tip = await branchTip('main');
    expectGiteaError(await merge(index2, { Do: 'fast-forward-only' }), 409, /cannot be fast-forwarded/);
    expect(await branchTip('main')).toBe(tip);
    expect(await getPull(index2)).toMatchObject({ merged: false, state: 'open' });
  });

  it('a style the repository disallows is refused with 405, and allowed again after the settings change', async () => {
    await f.push('alice', 'demo', 'writer', 'f-nosquash', { 'ns.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-nosquash', base: 'main' })).json.number as number;
    const patch = (body: Record<string, unknown>) => t.request('PATCH', '/api/v1/repos/alice/demo', { headers: basic('alice'), body });
    expect((await patch({ allow_squash_merge: false })).statusCode).toBe(200);
    expectGiteaError(await merge(index, { Do: 'squash' }), 405, 'squash is not allowed an allowed merge style for this repository');
    expectGiteaError(
      await merge(index, { Do: 'manually-merged', merge_commit_id: '0'.repeat(40) }),
      405,
      'manually-merged is not allowed an allowed merge style for this repository',
    );
    expect((await getPull(index)).merged).toBe(false);
    expect((await patch({ allow_squash_merge: true })).statusCode).toBe(200);
    expect((await merge(index, { Do: 'squash' })).statusCode).toBe(200);
  });

  it('conflicts are refused (405 for merge, naming the files); a stale head_commit_id is 409 "head out of date"', async () => {
    await f.push('alice', 'demo', 'writer', 'f-conflict', { 'shared.txt': 'from the branch\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-conflict', base: 'main', title: 'Conflicting' })).json
      .number as number;
    await f.push('alice', 'demo', 'alice', 'main', { 'shared.txt': 'from main\n' });
    const tip = await branchTip('main');
    for (const style of ['merge', 'squash', 'rebase']) expectGiteaError(await merge(index, { Do: style }), 405, /conflicts in shared\.txt/);
    expect(await branchTip('main')).toBe(tip);
    expect(await getPull(index)).toMatchObject({ merged: false, mergeable: false, state: 'open' });

    const head = await f.push('alice', 'demo', 'writer', 'f-stale', { 'stale.txt': 'one\n' });
    const index2 = (await f.open('alice', 'demo', 'writer', { head: 'f-stale', base: 'main' })).json.number as number;
    await f.push('alice', 'demo', 'writer', 'f-stale', { 'stale2.txt': 'two\n' });
    expectGiteaError(await merge(index2, { Do: 'merge', head_commit_id: head }), 409, 'head out of date');
    expect((await getPull(index2)).merged).toBe(false);
    const current = (await getPull(index2)).head.sha;
    expect((await merge(index2, { Do: 'merge', head_commit_id: current })).statusCode).toBe(200);
  });

  // Writers through Forgegraph wait for the repository's write lock, which the merge holds; a writer outside it (git
  // run on the repository's directory) can still move the base between the merge's computation and its ref update.
  const moveMainOnDisk = async (message: string): Promise<string> => {
    const gitDir = repoPath(t.app.deps.config.repositoriesDir, 'alice', 'demo');
    const sha = (await f.git.ok(['--git-dir', gitDir, 'commit-tree', 'main^{tree}', '-p', 'main', '-m', message])).trim();
    await f.git.ok(['--git-dir', gitDir, 'update-ref', 'refs/heads/main', sha]);
    return sha;
  };

  it('a write to the base between computing the merge and moving the branch is not lost: the merge is recomputed on it', async () => {
    await f.push('alice', 'demo', 'writer', 'f-race', { 'race.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-race', base: 'main', title: 'Racing' })).json.number as number;
    let concurrent = '';
    mergeTestHooks.beforeBaseUpdate = async (attempt) => {
      if (attempt === 1) concurrent = await moveMainOnDisk('written meanwhile');
    };
    const res = await merge(index, { Do: 'merge' });
    expect(res.statusCode, res.body).toBe(200);
    const log = await freshLog();
    expect(log[0]?.subject).toBe(`Merge pull request 'Racing' (#${index}) from f-race into main`);
    expect(log[0]?.parents[0]).toBe(concurrent);
    const pr = await getPull(index);
    expect(pr).toMatchObject({ merged: true, merge_commit_sha: log[0]?.sha });
    await t.app.deps.notifier.drain();
    expect((await t.db.branch.findUniqueOrThrow({ where: { repoId_name: { repoId: repo.id, name: 'main' } } })).commitId).toBe(log[0]?.sha);

    // Two lost races: 409, the base branch keeps the concurrent pushes, the pull request stays open.
    await f.push('alice', 'demo', 'writer', 'f-race2', { 'race2.txt': 'one\n' });
    const index2 = (await f.open('alice', 'demo', 'writer', { head: 'f-race2', base: 'main' })).json.number as number;
    let last = '';
    mergeTestHooks.beforeBaseUpdate = async (attempt) => {
      last = await moveMainOnDisk(`concurrent ${attempt}`);
    };
    expectGiteaError(await merge(index2, { Do: 'merge' }), 409, 'merge push out of date');
    expect(await branchTip('main')).toBe(last);
    expect(await getPull(index2)).toMatchObject({ merged: false, state: 'open' });
  });

  it("a merge's checks do not hold the base branch: a write to it goes on meanwhile; a head moved meanwhile is checked again", async () => {
    await f.push('alice', 'demo', 'writer', 'f-checked', { 'checked.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-checked', base: 'main', title: 'Checked' })).json.number as number;
    // While the merge is between its checks and its locks: a file committed to main through the API (which takes the
    // branch's lock), and a new commit pushed to the head branch with git.
    let written = '';
    let moved = '';
    const attempts: number[] = [];
    mergeTestHooks.afterChecks = async (attempt) => {
      attempts.push(attempt);
      if (attempt !== 1) return;
      const res = await t.request('POST', '/api/v1/repos/alice/demo/contents/meanwhile.txt', {
        headers: basic('alice'),
        body: { content: Buffer.from('meanwhile\n').toString('base64'), branch: 'main', message: 'written meanwhile' },
      });
      expect(res.statusCode, res.body).toBe(201);
      written = (res.json() as { commit: { sha: string } }).commit.sha;
      moved = await f.push('alice', 'demo', 'writer', 'f-checked', { 'checked2.txt': 'two\n' });
    };
    const res = await merge(index, { Do: 'merge' });
    expect(res.statusCode, res.body).toBe(200);
    expect(attempts).toEqual([1, 2]);
    const log = await freshLog();
    // The merge of the moved head, on the base as written meanwhile.
    expect(log[0]?.parents).toEqual([written, moved]);
    expect(await getPull(index)).toMatchObject({ merged: true, merge_commit_sha: log[0]?.sha, head: { sha: moved } });

    // A head that moves after every check: 409, nothing merged.
    await f.push('alice', 'demo', 'writer', 'f-restless', { 'restless.txt': 'one\n' });
    const index2 = (await f.open('alice', 'demo', 'writer', { head: 'f-restless', base: 'main' })).json.number as number;
    const tip = await branchTip('main');
    mergeTestHooks.afterChecks = async (attempt) => {
      await f.push('alice', 'demo', 'writer', 'f-restless', { [`restless${attempt}.txt`]: `${attempt}\n` });
    };
    expectGiteaError(await merge(index2, { Do: 'merge' }), 409, 'head out of date');
    expect(await branchTip('main')).toBe(tip);
    expect(await getPull(index2)).toMatchObject({ merged: false, state: 'open' });
  });

  it('manually-merged: records a merge done with git (409 "Wrong commit ID" unless a base commit containing the head)', async () => {
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/demo', { headers: basic('alice'), body: { allow_manual_merge: true } })).statusCode,
    ).toBe(200);
    const head = await f.push('alice', 'demo', 'writer', 'f-manual', { 'manual.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-manual', base: 'main', title: 'By hand' })).json.number as number;
    const mainTip = (await branchTip('main')) ?? '';
    expectGiteaError(await merge(index, { Do: 'manually-merged' }), 409, 'Wrong commit ID');
    expectGiteaError(await merge(index, { Do: 'manually-merged', merge_commit_id: 'abc' }), 409, 'Wrong commit ID');
    expectGiteaError(await merge(index, { Do: 'manually-merged', merge_commit_id: 'f'.repeat(40) }), 409, 'Wrong commit ID');
    // On the base branch, but without the head in it.
    expectGiteaError(await merge(index, { Do: 'manually-merged', merge_commit_id: mainTip }), 409, 'Wrong commit ID');
    // The head, but not on the base branch.
    expectGiteaError(await merge(index, { Do: 'manually-merged', merge_commit_id: head }), 409, 'Wrong commit ID');

    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: dir });
    await f.git.ok(['merge', '-q', '--no-ff', '-m', 'merged by hand', 'origin/f-manual'], { cwd: dir });
    await f.git.ok(['push', '-q', 'origin', 'main'], { cwd: dir });
    await t.app.deps.notifier.drain();
    const mergeCommit = (await f.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    // autodetect_manual_merge is off: the pull request stays open until marked.
    expect(await getPull(index)).toMatchObject({ merged: false, state: 'open' });
    const res = await merge(index, { Do: 'manually-merged', MergeCommitID: mergeCommit });
    expect(res.statusCode, res.body).toBe(200);
    expect(await getPull(index)).toMatchObject({
      merged: true,
      state: 'closed',
      merge_commit_sha: mergeCommit,
      merged_by: { login: 'alice' },
    });
    expect((await t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index } })).status).toBe('MANUALLY_MERGED');
  });

  it('autodetect_manual_merge: a merge pushed with git marks the pull request merged (merge commit found as Gitea does)', async () => {
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/demo', { headers: basic('alice'), body: { autodetect_manual_merge: true } }))
        .statusCode,
    ).toBe(200);
    const head = await f.push('alice', 'demo', 'writer', 'f-auto', { 'auto.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-auto', base: 'main', title: 'Auto' })).json.number as number;
    await f.push('alice', 'demo', 'writer', 'f-other', { 'other.txt': 'one\n' });
    const other = (await f.open('alice', 'demo', 'writer', { head: 'f-other', base: 'main', title: 'Other' })).json.number as number;
    const closedBefore = (await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).numClosedPulls;

    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: dir });
    await f.git.ok(['merge', '-q', '--no-ff', '-m', 'merge f-auto by hand', 'origin/f-auto'], { cwd: dir });
    const mergeCommit = (await f.git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    await f.git.ok(['push', '-q', 'origin', 'main'], { cwd: dir });
    await t.app.deps.notifier.drain();

    expect(await getPull(index)).toMatchObject({
      merged: true,
      state: 'closed',
      merge_commit_sha: mergeCommit,
      merged_by: { login: 'alice' },
    });
    expect((await t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index } })).status).toBe('MANUALLY_MERGED');
    expect(head).not.toBe(mergeCommit);
    expect(await getPull(other)).toMatchObject({ merged: false, state: 'open' });
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).numClosedPulls).toBe(closedBefore + 1);
    const alice = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } });
    expect(await t.db.action.count({ where: { userId: alice.id, opType: 'MERGE_PULL_REQUEST', content: `${index}|Auto` } })).toBe(1);
    const issue = await t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, index } });
    expect(await t.db.comment.count({ where: { issueId: issue.id, type: 'MERGE_PULL' } })).toBe(1);

    // A fast-forward push of the base to the head: the head itself is the merge commit.
    const ffHead = await f.push('alice', 'demo', 'writer', 'f-auto-ff', { 'auto-ff.txt': 'one\n' });
    const ffIndex = (await f.open('alice', 'demo', 'writer', { head: 'f-auto-ff', base: 'main', title: 'Auto ff' })).json.number as number;
    await f.git.ok(['fetch', '-q', 'origin'], { cwd: dir });
    await f.git.ok(['push', '-q', 'origin', 'origin/f-auto-ff:refs/heads/main'], { cwd: dir });
    await t.app.deps.notifier.drain();
    expect(await getPull(ffIndex)).toMatchObject({ merged: true, state: 'closed', merge_commit_sha: ffHead });
    expect(await getPull(other)).toMatchObject({ merged: false, state: 'open' });
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/demo', { headers: basic('alice'), body: { autodetect_manual_merge: false } }))
        .statusCode,
    ).toBe(200);
  });

  it('gates each role: anonymous 401 (404 on a private repository), outsider 404, reader and poster without write 405, writer and admin merge', async () => {
    await f.createRepo('alice', 'secret', { private: true });
    await f.push('alice', 'secret', 'alice', 'f-secret', { 's.txt': 'one\n' });
    const secret = (await f.open('alice', 'secret', 'alice', { head: 'f-secret', base: 'main' })).json.number as number;
    expectGiteaError(await t.request('POST', `/api/v1/repos/alice/secret/pulls/${secret}/merge`, { body: { Do: 'merge' } }), 404);
    expectGiteaError(await merge(secret, { Do: 'merge' }, 'bob', 'secret'), 404);
    expectGiteaError(await t.request('GET', `/api/v1/repos/alice/secret/pulls/${secret}/merge`, { headers: basic('bob') }), 404);

    // A fork of alice/demo by reader, whose pull request reader (no write on the base) may not merge.
    await f.fork('alice', 'demo', 'reader');
    const forkHead = await f.push('reader', 'demo', 'reader', 'from-fork', { 'fork.txt': 'from the fork\n' });
    const fromFork = (await f.open('alice', 'demo', 'reader', { head: 'reader:from-fork', base: 'main', title: 'From a fork' })).json
      .number as number;
    expectGiteaError(await t.request('POST', `/api/v1/repos/alice/demo/pulls/${fromFork}/merge`, { body: { Do: 'merge' } }), 401);
    expectGiteaError(await merge(fromFork, { Do: 'merge' }, 'reader'), 405, 'User not allowed to merge PR');
    expectGiteaError(await merge(fromFork, { Do: 'merge' }, 'bob'), 405, 'User not allowed to merge PR');
    // Tokens need write:repository (the pulls routes' scope), whatever their issue scopes.
    for (const scopes of [['read:repository'], ['write:issue']]) {
      const token = await t.createToken('writer', scopes);
      const res = await t.request('POST', `/api/v1/repos/alice/demo/pulls/${fromFork}/merge`, {
        headers: { authorization: `token ${token}` },
        body: { Do: 'merge' },
      });
      expectGiteaError(res, 403, /token does not have at least one of required scope/);
    }
    // Bad input: after the gates, before the pull request.
    expectGiteaError(await merge(fromFork, {}, 'writer'), 422, /Do/);
    expectGiteaError(await merge(fromFork, { Do: 'octopus' }, 'writer'), 422, /Do/);
    expectGiteaError(await merge(999, { Do: 'merge' }, 'writer'), 404);
    expectGiteaError(
      await t.request('POST', `/api/v1/repos/alice/demo/pulls/abc/merge`, { headers: basic('writer'), body: { Do: 'merge' } }),
      404,
    );
    expect((await t.request('GET', `/api/v1/repos/alice/demo/pulls/999/merge`)).statusCode).toBe(404);
    const issue = await t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'an issue' } });
    expectGiteaError(await merge((issue.json() as { number: number }).number, { Do: 'merge' }, 'writer'), 404);

    // The writer merges the fork's pull request; the fork's branch stays (alice's merge may not write the fork).
    const res = await merge(fromFork, { Do: 'merge', delete_branch_after_merge: true }, 'writer');
    expect(res.statusCode, res.body).toBe(200);
    const log = await freshLog();
    expect(log[0]?.parents[1]).toBe(forkHead);
    expect(log[0]?.subject).toBe(`Merge pull request 'From a fork' (#${fromFork}) from reader/demo:from-fork into main`);
    expect(await branchTip('from-fork', 'demo', 'reader')).toBe(forkHead);
    expect(await getPull(fromFork)).toMatchObject({ merged: true, merged_by: { login: 'writer' } });

    // A site admin may merge too, and may write the fork: its branch goes.
    const forkRepo = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'reader', lowerName: 'demo' } });
    await f.push('reader', 'demo', 'reader', 'fork-delete', { 'fork-delete.txt': 'x\n' });
    const forkDelete = (await f.open('alice', 'demo', 'reader', { head: 'reader:fork-delete', base: 'main' })).json.number as number;
    expect((await merge(forkDelete, { Do: 'rebase', delete_branch_after_merge: true }, 'root')).statusCode).toBe(200);
    expect(await branchTip('fork-delete', 'demo', 'reader')).toBeUndefined();
    await t.app.deps.notifier.drain();
    expect(await t.db.branch.findUniqueOrThrow({ where: { repoId_name: { repoId: forkRepo.id, name: 'fork-delete' } } })).toMatchObject({
      isDeleted: true,
    });
    await f.push('alice', 'demo', 'writer', 'f-admin', { 'admin.txt': 'one\n' });
    const byAdmin = (await f.open('alice', 'demo', 'writer', { head: 'f-admin', base: 'main' })).json.number as number;
    const adminRes = await merge(byAdmin, { Do: 'squash' }, 'root');
    expect(adminRes.statusCode, adminRes.body).toBe(200);
    expect(await getPull(byAdmin)).toMatchObject({ merged: true, merged_by: { login: 'root' } });
  });

  it('refuses closed (404), work-in-progress (405) and blocked (405) pull requests; an archived repository is 423', async () => {
    await f.push('alice', 'demo', 'writer', 'f-closed', { 'closed.txt': 'one\n' });
    const closed = (await f.open('alice', 'demo', 'writer', { head: 'f-closed', base: 'main' })).json.number as number;
    expect(
      (await t.request('PATCH', `/api/v1/repos/alice/demo/issues/${closed}`, { headers: basic('alice'), body: { state: 'closed' } }))
        .statusCode,
    ).toBe(201);
    expectGiteaError(await merge(closed, { Do: 'merge' }), 404);

    await f.push('alice', 'demo', 'writer', 'f-wip', { 'wip.txt': 'one\n' });
    const wip = (await f.open('alice', 'demo', 'writer', { head: 'f-wip', base: 'main', title: 'WIP: not yet' })).json.number as number;
    expectGiteaError(await merge(wip, { Do: 'merge' }), 405, 'Work in progress PRs cannot be merged');

    await f.push('alice', 'demo', 'writer', 'f-blocked', { 'blocked.txt': 'one\n' });
    const blocked = (await f.open('alice', 'demo', 'writer', { head: 'f-blocked', base: 'main' })).json.number as number;
    const blocker = await t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'blocker' } });
    const dep = await t.request('POST', `/api/v1/repos/alice/demo/issues/${blocked}/dependencies`, {
      headers: basic('alice'),
      body: { owner: 'alice', repo: 'demo', index: (blocker.json() as { number: number }).number },
    });
    expect(dep.statusCode, dep.body).toBe(201);
    expectGiteaError(await merge(blocked, { Do: 'merge' }), 405, /open dependencies/);
    expect((await getPull(blocked)).merged).toBe(false);

    await f.createRepo('alice', 'frozen');
    await f.push('alice', 'frozen', 'alice', 'f-frozen', { 'x.txt': 'one\n' });
    const frozen = (await f.open('alice', 'frozen', 'alice', { head: 'f-frozen', base: 'main' })).json.number as number;
    expect((await t.request('PATCH', '/api/v1/repos/alice/frozen', { headers: basic('alice'), body: { archived: true } })).statusCode).toBe(
      200,
    );
    expectGiteaError(await merge(frozen, { Do: 'merge' }, 'alice', 'frozen'), 423);
    expectGiteaError(await merge(frozen, {}, 'alice', 'frozen'), 423);
    expect((await t.request('GET', `/api/v1/repos/alice/frozen/pulls/${frozen}/merge`, { headers: basic('alice') })).statusCode).toBe(404);
  });

  it('delete_branch_after_merge deletes the head branch (Branch row, DELETE_BRANCH comment, delete_branch feed row) unless still used', async () => {
    await f.push('alice', 'demo', 'writer', 'f-delete', { 'del.txt': 'one\n' });
    const index = (await f.open('alice', 'demo', 'writer', { head: 'f-delete', base: 'main' })).json.number as number;
    expect((await merge(index, { Do: 'merge', delete_branch_after_merge: true }, 'writer')).statusCode).toBe(200);
    expect(await branchTip('f-delete')).toBeUndefined();
    await t.app.deps.notifier.drain();
    expect(await t.db.branch.findUniqueOrThrow({ where: { repoId_name: { repoId: repo.id, name: 'f-delete' } } })).toMatchObject({
      isDeleted: true,
    });
    const issue = await t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, index } });
    expect(await t.db.comment.findFirst({ where: { issueId: issue.id, type: 'DELETE_BRANCH' } })).toMatchObject({ oldRef: 'f-delete' });
    const writer = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'writer' } });
    expect(await t.db.action.count({ where: { userId: writer.id, opType: 'DELETE_BRANCH', refName: 'refs/heads/f-delete' } })).toBe(1);
    // The pull request still shows its head through refs/pull/N/head.
    expect(await getPull(index)).toMatchObject({ merged: true, head: { ref: `refs/pull/${index}/head` } });

    // The repository default; a branch another open pull request uses is kept; false overrides the default.
    expect(
      (await t.request('PATCH', '/api/v1/repos/alice/demo', { headers: basic('alice'), body: { default_delete_branch_after_merge: true } }))
        .statusCode,
    ).toBe(200);
    await f.push('alice', 'demo', 'writer', 'f-default', { 'default.txt': 'one\n' });
    const byDefault = (await f.open('alice', 'demo', 'writer', { head: 'f-default', base: 'main' })).json.number as number;
    expect((await merge(byDefault, { Do: 'merge' })).statusCode).toBe(200);
    expect(await branchTip('f-default')).toBeUndefined();

    await f.push('alice', 'demo', 'alice', 'other-base', { 'ob.txt': 'one\n' });
    await f.push('alice', 'demo', 'writer', 'f-shared', { 'shared-head.txt': 'one\n' });
    const shared = (await f.open('alice', 'demo', 'writer', { head: 'f-shared', base: 'main' })).json.number as number;
    await f.open('alice', 'demo', 'writer', { head: 'f-shared', base: 'other-base' });
    expect((await merge(shared, { Do: 'merge' })).statusCode).toBe(200);
    expect(await branchTip('f-shared')).toEqual(expect.any(String));

    await f.push('alice', 'demo', 'writer', 'f-keep', { 'keep.txt': 'one\n' });
    const keep = (await f.open('alice', 'demo', 'writer', { head: 'f-keep', base: 'main' })).json.number as number;
    expect((await merge(keep, { Do: 'merge', delete_branch_after_merge: false })).statusCode).toBe(200);
    expect(await branchTip('f-keep')).toEqual(expect.any(String));
    expect(
      (
        await t.request('PATCH', '/api/v1/repos/alice/demo', {
          headers: basic('alice'),
          body: { default_delete_branch_after_merge: false },
        })
      ).statusCode,
    ).toBe(200);
  });
  it('a merge holds its refs only: it goes on while another branch is held, waits while its base is held; an API branch waits only for its own ref', async () => {
    const locks = t.app.deps.repoLocks;
    const index = await f.pushAndOpen('alice', 'demo', 'writer', 'f-locks', { 'locks.txt': 'locks\n' });
    await f.push('alice', 'demo', 'alice', 'unrelated', { 'unrelated.txt': 'u\n' });
    const other = holdRepoLock(locks, repo.id, ['refs/heads/unrelated']);
    await other.entered;
    try {
      // A writer of another branch holds it: the merge and an API branch of another name go on.
      expect((await merge(index, { Do: 'merge' })).statusCode).toBe(200);
      const created = await t.request('POST', '/api/v1/repos/alice/demo/branches', {
        headers: basic('alice'),
        body: { new_branch_name: 'from-api', old_ref_name: 'main' },
      });
      expect(created.statusCode, created.body).toBe(201);
      // A branch made from the held one moves only its own ref: it goes on; deleting the held branch waits for the holder.
      let finished = false;
      const moved = t
        .request('POST', '/api/v1/repos/alice/demo/branches', {
          headers: basic('alice'),
          body: { new_branch_name: 'unrelated-2', old_ref_name: 'unrelated' },
        })
        .then((r) => r.statusCode);
      const deleted = t
        .request('DELETE', '/api/v1/repos/alice/demo/branches/unrelated', { headers: basic('alice') })
        .finally(() => (finished = true));
      await new Promise((r) => setTimeout(r, 400));
      expect(finished).toBe(false);
      other.release();
      await other.done;
      expect(await moved).toBe(201);
      expect((await deleted).statusCode).toBe(204);
    } finally {
      other.release();
    }
    // The base branch held (a push to main in progress): a merge into it waits until it is released.
    const second = await f.pushAndOpen('alice', 'demo', 'writer', 'f-locks-2', { 'locks2.txt': 'locks\n' });
    const base = holdRepoLock(locks, repo.id, ['refs/heads/main']);
    await base.entered;
    let merged = false;
    const merging = merge(second, { Do: 'merge' }).finally(() => (merged = true));
    await new Promise((r) => setTimeout(r, 400));
    expect(merged).toBe(false);
    base.release();
    await base.done;
    expect((await merging).statusCode).toBe(200);
  });
});
