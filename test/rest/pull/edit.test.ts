import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

type Pull = Record<string, unknown> & {
  number: number;
  base: { ref: string; sha: string };
  head: { sha: string };
  content_version: number;
};

describe.each(PROVIDERS)('PATCH /repos/{o}/{r}/pulls/{index} (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const name of ['alice', 'writer', 'reader', 'bob']) await t.createUser(name);
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

  const patch = (index: number, body: unknown, user: string | null = 'alice', name = 'demo') =>
    t.request('PATCH', `/api/v1/repos/alice/${name}/pulls/${index}`, { ...(user ? { headers: basic(user) } : {}), body });
  const ok = async (index: number, body: unknown, user = 'alice'): Promise<Pull> => {
    const res = await patch(index, body, user);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Pull;
  };
  const issueOf = (index: number) => t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, index } });
  let seq = 0;
  /** A fresh pull request into main, from a branch the writer pushed and opened. */
  const open = async (): Promise<number> => {
    const branch = `edit-${++seq}`;
    return f.pushAndOpen('alice', 'demo', 'writer', branch, { [`${branch}.txt`]: `${branch}\n` }, { title: `pull ${branch}` });
  };

  it('edits title, body and content_version as Gitea: 201 PullRequest, CHANGE_TITLE comment, 409 on a stale version (body or not)', async () => {
    const index = await open();
    const before = (await t.request('GET', `/api/v1/repos/alice/demo/pulls/${index}`, { headers: basic('alice') })).json() as Pull;
    const pr = await ok(index, { title: 'New title', body: 'New body', content_version: before.content_version });
    expect(pr).toMatchObject({ number: index, title: 'New title', body: 'New body', state: 'open', merged: false });
    expect(pr.content_version).toBe(before.content_version + 1);
    const issue = await issueOf(index);
    expect(await t.db.comment.findFirst({ where: { issueId: issue.id, type: 'CHANGE_TITLE' } })).toMatchObject({
      oldTitle: `pull edit-${seq}`,
      newTitle: 'New title',
    });
    expectGiteaError(await patch(index, { body: 'again', content_version: 99999 }), 409, 'the issue is already changed');
    expectGiteaError(await patch(index, { title: 'no body', content_version: 99999 }), 409, 'the issue is already changed');
    expect((await ok(index, { body: 'without version' })).body).toBe('without version');
    // An empty title leaves the title; an empty body clears it.
    expect(await ok(index, { title: '', body: '' })).toMatchObject({ title: 'New title', body: '' });
  });

  it('changes the base: CHANGE_TARGET_BRANCH comment, PULL_PUSH redone, stats for the new base; 404/422/409 refusals', async () => {
    await f.push('alice', 'demo', 'alice', 'develop', { 'develop.txt': 'dev\n' });
    const index = await open();
    const pr = await ok(index, { base: 'develop' });
    expect(pr.base.ref).toBe('develop');
    const develop = (await f.git.ok(['ls-remote', f.url('alice', 'demo', 'alice'), 'refs/heads/develop'])).split('\t')[0];
    expect(pr.base.sha).toBe(develop);
    expect(pr).toMatchObject({ changed_files: 1, additions: 1, deletions: 0, mergeable: true });
    const row = await t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index } });
    expect(row).toMatchObject({ baseBranch: 'develop', statsBaseSha: develop, commitsBehind: 1, commitsAhead: 1 });
    const issue = await issueOf(index);
    expect(await t.db.comment.findFirst({ where: { issueId: issue.id, type: 'CHANGE_TARGET_BRANCH' } })).toMatchObject({
      oldRef: 'main',
      newRef: 'develop',
    });
    const pushes = await t.db.comment.findMany({ where: { issueId: issue.id, type: 'PULL_PUSH' } });
    expect(pushes).toHaveLength(1);
    expect(JSON.parse(pushes[0]?.content ?? '{}')).toEqual({ is_force_push: false, commit_ids: [pr.head.sha] });

    expectGiteaError(await patch(index, { base: 'no-such-branch' }), 404, "new base 'no-such-branch' not exist");
    expectGiteaError(await patch(index, { base: '../bad' }), 404, "new base '../bad' not exist");
    // The same base is no change.
    expect((await ok(index, { base: 'develop' })).base.ref).toBe('develop');

    // Another open pull request from the same head into main: 409.
    const head = (await t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index } })).headBranch;
    const twin = (await f.open('alice', 'demo', 'writer', { head, base: 'main', title: 'twin' })).json.number as number;
    expectGiteaError(await patch(index, { base: 'main' }), 409, /pull request already exists for these targets/);
    expectGiteaError(await patch(twin, { base: head }), 422, /branches are equal/);

    // Closed: 422, unless the same request reopens it.
    expect((await ok(twin, { state: 'closed' })).state).toBe('closed');
    expectGiteaError(await patch(twin, { base: 'develop' }), 422, /Pull Request \[id: \d+, repo_id: \d+, index: \d+\] is already closed/);
    expectGiteaError(await patch(twin, { base: 'develop', state: 'open' }), 409, /already exists/);
    expect((await ok(index, { state: 'closed' })).state).toBe('closed');
    expect(await ok(twin, { state: 'open', title: 'reopened twin' })).toMatchObject({ state: 'open', base: { ref: 'main' } });
  });

  it('closes and reopens with exact numClosedPulls; 412 for unknown states, merged pull requests, open dependencies', async () => {
    const index = await open();
    const closed = async () => (await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).numClosedPulls;
    const start = await closed();
    expect((await ok(index, { state: 'closed' })).state).toBe('closed');
    expect(await closed()).toBe(start + 1);
    await ok(index, { state: 'closed' });
    expect(await closed()).toBe(start + 1);
    expect((await ok(index, { state: 'open' })).state).toBe('open');
    expect(await closed()).toBe(start);
    const issue = await issueOf(index);
    expect(
      (await t.db.comment.findMany({ where: { issueId: issue.id, type: { in: ['CLOSE', 'REOPEN'] } }, orderBy: { id: 'asc' } })).map(
        (c) => c.type,
      ),
    ).toEqual(['CLOSE', 'REOPEN']);
    expectGiteaError(await patch(index, { state: 'merged', title: 'not applied' }), 412, 'unknown state: merged');
    expect((await issueOf(index)).title).not.toBe('not applied');

    const blocker = await t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'blocker' } });
    const dep = await t.request('POST', `/api/v1/repos/alice/demo/issues/${index}/dependencies`, {
      headers: basic('alice'),
      body: { owner: 'alice', repo: 'demo', index: (blocker.json() as { number: number }).number },
    });
    expect(dep.statusCode, dep.body).toBe(201);
    expectGiteaError(
      await patch(index, { state: 'closed' }),
      412,
      'cannot close this issue or pull request because it still has open dependencies',
    );

    const merged = await open();
    expect(
      (await t.request('POST', `/api/v1/repos/alice/demo/pulls/${merged}/merge`, { headers: basic('alice'), body: { Do: 'merge' } }))
        .statusCode,
    ).toBe(200);
    expectGiteaError(await patch(merged, { state: 'open' }), 412, 'cannot change state of this pull request, it was already merged');
    expectGiteaError(await patch(merged, { state: 'closed' }), 412, 'cannot change state of this pull request, it was already merged');
    // A merged pull request's base is not changed (silently, as Gitea).
    expect((await ok(merged, { base: 'develop', title: 'merged, renamed' })).base.ref).toBe('main');
  });

  it('due date kept to the date (23:59:59 in the given offset), unset_due_date; assignees, labels and milestone for writers', async () => {
    const index = await open();
    expect((await ok(index, { due_date: '2030-05-06T10:00:00+02:00' })).due_date).toBe('2030-05-06T21:59:59Z');
    expect((await ok(index, { unset_due_date: true })).due_date).toBeNull();

    const label = async (name: string) =>
      (
        (
          await t.request('POST', '/api/v1/repos/alice/demo/labels', { headers: basic('alice'), body: { name, color: '#00aa00' } })
        ).json() as { id: number }
      ).id;
    const [l1, l2] = [await label('one'), await label('two')];
    const milestone = (
      (await t.request('POST', '/api/v1/repos/alice/demo/milestones', { headers: basic('alice'), body: { title: 'v1' } })).json() as {
        id: number;
      }
    ).id;
    const pr = await ok(index, { assignees: ['writer', 'alice'], labels: [l1, l2, 999999], milestone });
    expect((pr.assignees as Array<{ login: string }>).map((u) => u.login).sort()).toEqual(['alice', 'writer']);
    expect((pr.labels as Array<{ id: number }>).map((l) => l.id).sort()).toEqual([l1, l2].sort());
    expect(pr.milestone).toMatchObject({ id: milestone, open_issues: 1 });
    const labelRow = await t.db.label.findUniqueOrThrow({ where: { id: l1 } });
    expect(labelRow.numIssues).toBe(1);

    // null leaves labels alone; [] removes them all; milestone 0 changes nothing.
    expect((await ok(index, { labels: null, milestone: 0 })).labels).toHaveLength(2);
    const cleared = await ok(index, { labels: [], milestone: 0 });
    expect(cleared.labels).toEqual([]);
    expect(cleared.milestone).toMatchObject({ id: milestone });
    expect((await t.db.label.findUniqueOrThrow({ where: { id: l1 } })).numIssues).toBe(0);
    const issue = await issueOf(index);
    expect(await t.db.comment.count({ where: { issueId: issue.id, type: 'LABEL' } })).toBe(4);

    expectGiteaError(await patch(index, { assignees: ['nobody'] }), 422, /Assignee does not exist/);
    expectGiteaError(await patch(index, { milestone: 987654 }), 422, /milestone does not exist/);
    // Closing keeps the milestone's counters exact.
    await ok(index, { state: 'closed' });
    expect(await t.db.milestone.findUniqueOrThrow({ where: { id: milestone } })).toMatchObject({ numIssues: 1, numClosedIssues: 1 });
  });

  it('allow_maintainer_edit: only the poster with code write on the head repository (403 "SetAllowEdits: …" otherwise)', async () => {
    const index = await open();
    expect((await ok(index, { allow_maintainer_edit: true }, 'writer')).allow_maintainer_edit).toBe(true);
    expect((await ok(index, { allow_maintainer_edit: false }, 'writer')).allow_maintainer_edit).toBe(false);
    expectGiteaError(await patch(index, { allow_maintainer_edit: true }), 403, 'SetAllowEdits: user not allowed to do this action');
    expect((await t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index } })).allowMaintainerEdit).toBe(false);
  });

  it('gates each role: anonymous 401 / 404 private, outsider 404, non-poster reader bare 403, poster without write limited, archived 423', async () => {
    const index = await open();
    expectGiteaError(await patch(index, { title: 'x' }, null), 401);
    for (const user of ['bob', 'reader']) {
      const bare = await patch(index, { title: 'x' }, user);
      expect(bare.statusCode).toBe(403);
      expect(bare.body).toBe('');
    }
    expectGiteaError(await patch(9999, { title: 'x' }), 404);
    const readOnly = await t.createToken('alice', ['read:repository', 'write:issue']);
    expectGiteaError(
      await t.request('PATCH', `/api/v1/repos/alice/demo/pulls/${index}`, {
        headers: { authorization: `token ${readOnly}` },
        body: { title: 'x' },
      }),
      403,
      /required scope/,
    );
    const writeRepo = await t.createToken('alice', ['write:repository']);
    expect(
      (
        await t.request('PATCH', `/api/v1/repos/alice/demo/pulls/${index}`, {
          headers: { authorization: `token ${writeRepo}` },
          body: { title: 'by token' },
        })
      ).statusCode,
    ).toBe(201);
    const plainIssue = (
      await t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'plain' } })
    ).json() as { number: number };
    expectGiteaError(await patch(plainIssue.number, { title: 'x' }), 404);
    expectGiteaError(await patch(index, { title: 42 }), 422);
    expectGiteaError(await patch(index, { due_date: 'tomorrow' }), 422);

    // A reader's pull request from a fork: the poster edits title, body, due date, state; labels and milestone are skipped.
    await f.fork('alice', 'demo', 'reader');
    await f.push('reader', 'demo', 'reader', 'reader-topic', { 'reader.txt': 'r\n' });
    const mine = (await f.open('alice', 'demo', 'reader', { head: 'reader:reader-topic', base: 'main', title: 'by reader' })).json
      .number as number;
    const lab = (
      (
        await t.request('POST', '/api/v1/repos/alice/demo/labels', { headers: basic('alice'), body: { name: 'skip', color: '#aaaaaa' } })
      ).json() as { id: number }
    ).id;
    const edited = await ok(
      mine,
      { title: 'reader title', labels: [lab], assignees: ['alice'], due_date: '2031-01-02T00:00:00Z', allow_maintainer_edit: true },
      'reader',
    );
    expect(edited).toMatchObject({
      title: 'reader title',
      labels: [],
      assignees: [],
      due_date: '2031-01-02T23:59:59Z',
      allow_maintainer_edit: true,
    });
    expect((await ok(mine, { state: 'closed' }, 'reader')).state).toBe('closed');

    // Private repository: anonymous and outsiders see nothing.
    await f.createRepo('alice', 'secret', { private: true });
    await f.push('alice', 'secret', 'alice', 'hidden', { 'h.txt': 'h\n' });
    const hidden = (await f.open('alice', 'secret', 'alice', { head: 'hidden', base: 'main' })).json.number as number;
    expectGiteaError(await patch(hidden, { title: 'x' }, null, 'secret'), 404);
    expectGiteaError(await patch(hidden, { title: 'x' }, 'bob', 'secret'), 404);
    expect((await patch(hidden, { title: 'owner edit' }, 'alice', 'secret')).statusCode).toBe(201);

    // Archived: 423 (Gitea has no archived check on this route; writes to archived repositories are refused here).
    expect((await t.request('PATCH', '/api/v1/repos/alice/secret', { headers: basic('alice'), body: { archived: true } })).statusCode).toBe(
      200,
    );
    expectGiteaError(await patch(hidden, { title: 'x' }, 'alice', 'secret'), 423);
  });
});
