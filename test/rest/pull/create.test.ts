import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { readRefs } from '../../../src/git/readRefs.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { editRepo } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

describe.each(PROVIDERS)('POST /repos/{o}/{r}/pulls (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repo: Models.Repository;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    await t.createUser('bob');
    await t.createUser('reader');
    await t.createUser('writer');
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

  const refs = (owner: string, name: string, ...names: string[]) => readRefs(repoPath(t.config.repositoriesDir, owner, name), names);

  it('opens a pull request from a branch pushed with git: 201, Gitea JSON, refs/pull/N/head, stats, comment, counters, event', async () => {
    const sha = await f.push('alice', 'demo', 'alice', 'feature', { 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' });
    const res = await t.request('POST', '/api/v1/repos/alice/demo/pulls', {
      headers: basic('alice'),
      body: { head: 'feature', base: 'main', title: 'Add a and b', body: 'please' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const pr = res.json();
    expect(Object.keys(pr)).toEqual([
      'id',
      'url',
      'number',
      'user',
      'title',
      'body',
      'labels',
      'milestone',
      'assignee',
      'assignees',
      'requested_reviewers',
      'requested_reviewers_teams',
      'state',
      'draft',
      'is_locked',
      'comments',
      'additions',
      'deletions',
      'changed_files',
      'html_url',
      'diff_url',
      'patch_url',
      'mergeable',
      'merged',
      'merged_at',
      'merge_commit_sha',
      'merged_by',
      'allow_maintainer_edit',
      'base',
      'head',
      'merge_base',
      'due_date',
      'created_at',
      'updated_at',
      'closed_at',
      'pin_order',
      'content_version',
    ]);
    expect(pr).toMatchObject({
      number: 1,
      url: 'http://localhost:3000/alice/demo/pulls/1',
      html_url: 'http://localhost:3000/alice/demo/pulls/1',
      diff_url: 'http://localhost:3000/alice/demo/pulls/1.diff',
      patch_url: 'http://localhost:3000/alice/demo/pulls/1.patch',
      user: { login: 'alice' },
      title: 'Add a and b',
      body: 'please',
      labels: [],
      assignees: [],
      requested_reviewers: [],
      requested_reviewers_teams: [],
      state: 'open',
      draft: false,
      additions: 3,
      deletions: 0,
      changed_files: 2,
      mergeable: true,
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      merged_by: null,
      head: { label: 'feature', ref: 'feature', sha, repo_id: repo.id, repo: { full_name: 'alice/demo' } },
      base: { label: 'main', ref: 'main', repo_id: repo.id, repo: { full_name: 'alice/demo' } },
    });
    expect(pr.base.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(pr.merge_base).toBe(pr.base.sha);
    expect((await refs('alice', 'demo', 'refs/pull/1/head')).get('refs/pull/1/head')).toBe(sha);

    const row = await t.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    expect(row).toMatchObject({
      status: 'MERGEABLE',
      commitsAhead: 2,
      commitsBehind: 0,
      statsHeadSha: sha,
      statsBaseSha: pr.base.sha,
      conflictedFiles: '[]',
    });
    const issue = await t.db.issue.findUniqueOrThrow({ where: { id: row.issueId } });
    expect(issue).toMatchObject({ isPull: true, index: 1 });
    const push = await t.db.comment.findFirstOrThrow({ where: { issueId: issue.id, type: 'PULL_PUSH' } });
    expect(JSON.parse(push.content)).toMatchObject({ is_force_push: false });
    expect(JSON.parse(push.content).commit_ids).toHaveLength(2);
    expect(JSON.parse(push.content).commit_ids[1]).toBe(sha);
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).numPulls).toBe(1);
    // The feed row is written by the notifier after the commit (src/notify/activity.ts), not by the request.
    await t.app.deps.notifier.drain();
    const action = await t.db.action.findFirst({ where: { repoId: repo.id, opType: 'CREATE_PULL_REQUEST' } });
    expect(action?.content).toBe('1|Add a and b');

    const got = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1', { headers: basic('alice') });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(pr);
  });

  it('shares the number sequence with issues', async () => {
    const issue = await t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'an issue' } });
    expect(issue.json().number).toBe(2);
    const n = await f.pushAndOpen('alice', 'demo', 'alice', 'second', { 'c.txt': 'c\n' });
    expect(n).toBe(3);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/pulls/2'), 404);
  });

  it('409 for a second open pull request with the same targets', async () => {
    const res = await t.request('POST', '/api/v1/repos/alice/demo/pulls', {
      headers: basic('alice'),
      body: { head: 'feature', base: 'main', title: 'again' },
    });
    const first = await t.db.pullRequest.findFirstOrThrow({ where: { baseRepoId: repo.id, index: 1 } });
    expectGiteaError(
      res,
      409,
      `pull request already exists for these targets [id: ${first.id}, issue_id: 1, head_repo_id: ${repo.id}, base_repo_id: ${repo.id}, head_branch: feature, base_branch: main]`,
    );
  });

  it('422 for head = base, nothing to compare, missing fields, tags; 404 for unknown branches and owners', async () => {
    const post = (body: Record<string, unknown>) =>
      t.request('POST', '/api/v1/repos/alice/demo/pulls', { headers: basic('alice'), body: { title: 'x', ...body } });
    expectGiteaError(
      await post({ head: 'main', base: 'main' }),
      422,
      'Invalid PullRequest: There are no changes between the head and the base',
    );
    await f.push('alice', 'demo', 'alice', 'same', {});
    expectGiteaError(
      await post({ head: 'same', base: 'main' }),
      422,
      'Invalid PullRequest: There are no changes between the head and the base',
    );
    expectGiteaError(await post({ head: 'nope', base: 'main' }), 404);
    expectGiteaError(await post({ head: 'feature', base: 'nope' }), 404);
    expectGiteaError(await post({ head: 'ghost:feature', base: 'main' }), 404);
    expectGiteaError(await post({ head: 'bob:feature', base: 'main' }), 404);
    expectGiteaError(await post({ head: 'a:b:c', base: 'main' }), 404);
    expectGiteaError(await post({ base: 'main' }), 422, '[Head]: Required');
    expectGiteaError(await post({ head: 'feature' }), 422, '[Base]: Required');
    expectGiteaError(await post({ head: 'feature', base: 'main', title: '' }), 422, '[Title]: Required');
    const tag = await t.request('POST', '/api/v1/repos/alice/demo/tags', {
      headers: basic('alice'),
      body: { tag_name: 'v1', target: 'main' },
    });
    if (tag.statusCode === 201)
      expectGiteaError(await post({ head: 'v1', base: 'main' }), 422, 'Invalid PullRequest: base and head must be branches');
    expectGiteaError(await post({ head: 'feature', base: 'main', due_date: 'tomorrow' }), 422);
  });

  it('roles: anonymous 401, outsider on a private repository 404, reader and outsider on a public one may open, archived 423', async () => {
    const body = { head: 'second', base: 'main', title: 'dup' };
    expectGiteaError(await t.request('POST', '/api/v1/repos/alice/demo/pulls', { body }), 401);
    await f.createRepo('alice', 'secret', { private: true });
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/secret/pulls', { headers: basic('bob'), body: { head: 'x', base: 'main', title: 't' } }),
      404,
    );
    expectGiteaError(await t.request('POST', '/api/v1/repos/alice/secret/pulls', { body: { head: 'x', base: 'main', title: 't' } }), 404);
    await f.push('alice', 'demo', 'alice', 'by-reader', { 'r.txt': 'r\n' });
    const byReader = await f.open('alice', 'demo', 'reader', { head: 'by-reader', base: 'main', labels: [1], assignees: ['alice'] });
    // Readers open pull requests; the metadata only writers may set is dropped.
    expect(byReader.json).toMatchObject({ user: { login: 'reader' }, labels: [], assignees: [] });
    await f.push('alice', 'demo', 'alice', 'by-writer', { 'w.txt': 'w\n' });
    const byWriter = await f.open('alice', 'demo', 'writer', {
      head: 'by-writer',
      base: 'main',
      assignees: ['alice'],
      due_date: '2030-01-02T03:04:05Z',
    });
    expect(byWriter.json).toMatchObject({
      user: { login: 'writer' },
      assignees: [{ login: 'alice' }],
      assignee: { login: 'alice' },
      due_date: '2030-01-02T03:04:05Z',
    });
    const archived = await f.createRepo('alice', 'old');
    await editRepo(t, archived, { archived: true });
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/old/pulls', { headers: basic('alice'), body: { head: 'x', base: 'main', title: 't' } }),
      423,
    );
  });

  it('404 when the pull requests unit is disabled', async () => {
    const r = await f.createRepo('alice', 'nopulls');
    await editRepo(t, r, { hasPullRequests: false });
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/nopulls/pulls', {
        headers: basic('alice'),
        body: { head: 'x', base: 'main', title: 't' },
      }),
      404,
    );
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/nopulls/pulls/1', { headers: basic('alice') }), 404);
  });

  it('opens a pull request from a fork (owner:branch and owner/repo:branch), copying the head into refs/pull/N/head', async () => {
    await f.fork('alice', 'demo', 'bob');
    const sha = await f.push('bob', 'demo', 'bob', 'fix', { 'fix.txt': 'fixed\n' });
    const { json } = await f.open('alice', 'demo', 'bob', { head: 'bob:fix', base: 'main', title: 'A fix from a fork' });
    const fork = await t.db.repository.findFirstOrThrow({ where: { ownerName: 'bob', lowerName: 'demo' } });
    expect(json).toMatchObject({
      head: { label: 'fix', ref: 'fix', sha, repo_id: fork.id, repo: { full_name: 'bob/demo', fork: true } },
      base: { repo_id: repo.id },
      changed_files: 1,
      additions: 1,
    });
    expect((await refs('alice', 'demo', `refs/pull/${String(json.number)}/head`)).get(`refs/pull/${String(json.number)}/head`)).toBe(sha);
    // No temporary refs are left behind.
    const tmp = execFileSync('git', ['--git-dir', repoPath(t.config.repositoriesDir, 'alice', 'demo'), 'for-each-ref', 'refs/forgegraph'], {
      encoding: 'utf8',
    });
    expect(tmp).toBe('');
    expectGiteaError(
      await t.request('POST', '/api/v1/repos/alice/demo/pulls', {
        headers: basic('bob'),
        body: { head: 'bob/demo:fix', base: 'main', title: 'again' },
      }),
      409,
    );
    const sha2 = await f.push('bob', 'demo', 'bob', 'fix2', { 'fix2.txt': 'fixed\n' });
    const second = await f.open('alice', 'demo', 'bob', { head: 'bob/demo:fix2', base: 'main' });
    expect(second.json).toMatchObject({ head: { sha: sha2, repo_id: fork.id } });
  });

  it('requests the reviewers given (requested_reviewers in the answer, REQUEST review rows)', async () => {
    await f.push('alice', 'demo', 'alice', 'reviewed', { 'rv.txt': 'rv\n' });
    const { json } = await f.open('alice', 'demo', 'alice', { head: 'reviewed', base: 'main', reviewers: ['writer'] });
    expect(json.requested_reviewers).toMatchObject([{ login: 'writer' }]);
    const row = await t.db.pullRequest.findUniqueOrThrow({ where: { id: json.id as number } });
    expect(await t.db.review.count({ where: { issueId: row.issueId, type: 'REQUEST' } })).toBe(1);
  });

  it('an unknown reviewer is a 404 that leaves no pull request behind', async () => {
    await f.push('alice', 'demo', 'alice', 'unreviewed', { 'urv.txt': 'urv\n' });
    const before = await t.db.pullRequest.count();
    const res = await t.request('POST', '/api/v1/repos/alice/demo/pulls', {
      headers: basic('alice'),
      body: { head: 'unreviewed', base: 'main', title: 'x', reviewers: ['nobody-here'] },
    });
    expectGiteaError(res, 404, "user doesn't exist: nobody-here");
    expect(await t.db.pullRequest.count()).toBe(before);
  });

  it('reports conflicts: mergeable false, status CONFLICT with the conflicted files', async () => {
    await f.push('alice', 'demo', 'alice', 'left', { 'clash.txt': 'left\n' });
    await f.push('alice', 'demo', 'alice', 'main', { 'clash.txt': 'main\n' });
    const { json } = await f.open('alice', 'demo', 'alice', { head: 'left', base: 'main' });
    expect(json.mergeable).toBe(false);
    const row = await t.db.pullRequest.findUniqueOrThrow({ where: { id: json.id as number } });
    expect(row.status).toBe('CONFLICT');
    expect(JSON.parse(row.conflictedFiles)).toEqual(['clash.txt']);
  });
});
