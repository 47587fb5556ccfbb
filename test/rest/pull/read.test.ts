import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

describe.each(PROVIDERS)('reading pull requests (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let first: Record<string, unknown>;
  let featureSha: string;

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob', 'reader', 'writer', 'outsider']) await t.createUser(u);
    await f.createRepo('alice', 'demo');
    await f.createRepo('alice', 'secret', { private: true });
    for (const repo of ['demo', 'secret']) {
      for (const [user, permission] of [
        ['reader', 'read'],
        ['writer', 'write'],
      ] as const) {
        const res = await t.request('PUT', `/api/v1/repos/alice/${repo}/collaborators/${user}`, {
          headers: basic('alice'),
          body: { permission },
        });
        expect(res.statusCode, res.body).toBe(204);
      }
    }
    const label = await t.request('POST', '/api/v1/repos/alice/demo/labels', {
      headers: basic('alice'),
      body: { name: 'bug', color: 'ff0000' },
    });
    const milestone = await t.request('POST', '/api/v1/repos/alice/demo/milestones', { headers: basic('alice'), body: { title: 'v1' } });
    featureSha = await f.push('alice', 'demo', 'alice', 'feature', { 'a.txt': 'one\ntwo\nthree\n', 'dir/b c.txt': 'b\n' });
    first = (
      await f.open('alice', 'demo', 'alice', {
        head: 'feature',
        base: 'main',
        title: 'First',
        labels: [label.json().id],
        milestone: milestone.json().id,
      })
    ).json;
    await f.pushAndOpen('alice', 'demo', 'writer', 'second', { 'c.txt': 'c\n' }, { title: 'Second' });
    await f.push('alice', 'demo', 'alice', 'third', { 'd.txt': 'd\n' });
    await f.open('alice', 'demo', 'bob', { head: 'third', base: 'main', title: 'Third' });
    await t.request('PATCH', '/api/v1/repos/alice/demo/issues/3', { headers: basic('alice'), body: { state: 'closed' } });
    await f.pushAndOpen('alice', 'secret', 'alice', 'hidden', { 'h.txt': 'h\n' });
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const numbers = (body: unknown) => (body as Array<{ number: number }>).map((p) => p.number);

  it('lists with Gitea filters: state (empty = all), sort, labels, milestone, poster, base_branch; pagination headers', async () => {
    const list = (q: string) => t.request('GET', `/api/v1/repos/alice/demo/pulls${q}`, { headers: basic('alice') });
    const all = await list('');
    expect(all.statusCode).toBe(200);
    expect(numbers(all.json())).toEqual([3, 2, 1]);
    expect(all.headers['x-total-count']).toBe('3');
    expect(numbers((await list('?state=open')).json())).toEqual([2, 1]);
    expect(numbers((await list('?state=closed')).json())).toEqual([3]);
    expect(numbers((await list('?state=all&sort=oldest')).json())).toEqual([1, 2, 3]);
    expect(numbers((await list(`?labels=${String((first.labels as Array<{ id: number }>)[0]?.id)}`)).json())).toEqual([1]);
    expect(numbers((await list(`?milestone=${String((first.milestone as { id: number }).id)}`)).json())).toEqual([1]);
    expect(numbers((await list('?poster=writer')).json())).toEqual([2]);
    expect(numbers((await list('?base_branch=main&state=open')).json())).toEqual([2, 1]);
    expect(numbers((await list('?base_branch=other')).json())).toEqual([]);
    expectGiteaError(await list('?poster=nobody'), 400);
    const page = await list('?limit=1&page=2&sort=oldest');
    expect(numbers(page.json())).toEqual([2]);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toContain('rel="next"');
    expect(page.headers.link).toContain('rel="prev"');
    // The list shows what GET shows.
    const one = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1', { headers: basic('alice') });
    expect((all.json() as unknown[])[2]).toEqual(one.json());
  });

  it('roles: anonymous and reader read a public repository; outsider and anonymous get 404 on a private one; reader and writer read it', async () => {
    expect((await t.request('GET', '/api/v1/repos/alice/demo/pulls/1')).statusCode).toBe(200);
    expect((await t.request('GET', '/api/v1/repos/alice/demo/pulls')).statusCode).toBe(200);
    for (const path of [
      '/pulls',
      '/pulls/1',
      '/pulls/1/files',
      '/pulls/1/commits',
      '/pulls/1.diff',
      '/pulls/1.patch',
      '/pulls/main/hidden',
    ]) {
      expectGiteaError(await t.request('GET', `/api/v1/repos/alice/secret${path}`, { headers: basic('outsider') }), 404);
      expectGiteaError(await t.request('GET', `/api/v1/repos/alice/secret${path}`), 404);
      for (const user of ['reader', 'writer', 'alice'])
        expect((await t.request('GET', `/api/v1/repos/alice/secret${path}`, { headers: basic(user) })).statusCode, `${user} ${path}`).toBe(
          200,
        );
    }
  });

  it('403 when the viewer reads pull requests but not code (a team without the code unit)', async () => {
    expect((await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'acme' } })).statusCode).toBe(201);
    await f.createRepo('acme', 'tool', { org: true, as: 'alice', private: true });
    const team = await t.request('POST', '/api/v1/orgs/acme/teams', {
      headers: basic('alice'),
      body: {
        name: 'pullers',
        permission: 'read',
        includes_all_repositories: true,
        units_map: { 'repo.pulls': 'read', 'repo.issues': 'read' },
      },
    });
    expect(team.statusCode, team.body).toBe(201);
    expect(
      (await t.request('PUT', `/api/v1/teams/${String(team.json().id)}/members/outsider`, { headers: basic('alice') })).statusCode,
    ).toBe(204);
    expectGiteaError(await t.request('GET', '/api/v1/repos/acme/tool/pulls', { headers: basic('outsider') }), 403);
    expectGiteaError(await t.request('GET', '/api/v1/repos/acme/tool/pulls/1', { headers: basic('outsider') }), 403);
  });

  it('404 for an unknown number and for an issue number; GET by base and head', async () => {
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/pulls/99'), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/pulls/abc'), 404);
    await t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'plain issue' } });
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/pulls/4'), 404);
    const byHead = await t.request('GET', '/api/v1/repos/alice/demo/pulls/main/feature');
    expect(byHead.statusCode).toBe(200);
    expect(byHead.json().number).toBe(1);
    expect((await t.request('GET', '/api/v1/repos/alice/demo/pulls/main/alice:feature')).json().number).toBe(1);
    expect((await t.request('GET', '/api/v1/repos/alice/demo/pulls/main/alice/demo:feature')).json().number).toBe(1);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/pulls/main/nope'), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/pulls/main/ghost:feature'), 404);
  });

  it('files: Gitea ChangedFile JSON, pagination headers, skip-to', async () => {
    const res = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1/files');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        filename: 'a.txt',
        status: 'added',
        additions: 3,
        deletions: 0,
        changes: 3,
        html_url: `http://localhost:3000/alice/demo/src/commit/${featureSha}/a.txt`,
        contents_url: `http://localhost:3000/api/v1/repos/alice/demo/contents/a.txt?ref=${featureSha}`,
        raw_url: `http://localhost:3000/alice/demo/raw/commit/${featureSha}/a.txt`,
      },
      expect.objectContaining({
        filename: 'dir/b c.txt',
        status: 'added',
        additions: 1,
        html_url: `http://localhost:3000/alice/demo/src/commit/${featureSha}/dir/b%20c.txt`,
      }),
    ]);
    expect(res.headers).toMatchObject({ 'x-total-count': '2', 'x-page': '1', 'x-perpage': '30', 'x-pagecount': '1', 'x-hasmore': 'false' });
    const page = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1/files?limit=1');
    expect(page.json()).toHaveLength(1);
    expect(page.headers).toMatchObject({ 'x-total-count': '2', 'x-pagecount': '2', 'x-hasmore': 'true' });
    const skipped = await t.request('GET', `/api/v1/repos/alice/demo/pulls/1/files?skip-to=${encodeURIComponent('dir/b c.txt')}`);
    expect((skipped.json() as Array<{ filename: string }>).map((x) => x.filename)).toEqual(['dir/b c.txt']);
  });

  it('commits: newest first, Gitea Commit JSON, stat/files/verification switches', async () => {
    const res = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1/commits', { headers: basic('alice') });
    expect(res.statusCode).toBe(200);
    const commits = res.json() as Array<Record<string, unknown>>;
    expect(commits).toHaveLength(2);
    expect(res.headers).toMatchObject({ 'x-total-count': '2', 'x-hasmore': 'false' });
    const [newest] = commits;
    expect(Object.keys(newest ?? {})).toEqual([
      'url',
      'sha',
      'created',
      'html_url',
      'commit',
      'author',
      'committer',
      'parents',
      'files',
      'stats',
    ]);
    expect(newest).toMatchObject({
      sha: featureSha,
      url: `http://localhost:3000/api/v1/repos/alice/demo/git/commits/${featureSha}`,
      html_url: `http://localhost:3000/alice/demo/commit/${featureSha}`,
      commit: {
        message: 'change dir/b c.txt\n',
        author: { name: 'Test Pusher', email: 'pusher@example.com' },
        verification: { verified: false, reason: 'gpg.error.not_signed_commit' },
      },
      author: null,
      files: [{ filename: 'dir/b c.txt', status: 'added' }],
      stats: { total: 1, additions: 1, deletions: 0 },
    });
    expect((newest?.parents as unknown[]).length).toBe(1);
    const lean = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1/commits?files=false&verification=false&stat=false&limit=1');
    expect(lean.json()[0]).toMatchObject({ files: null, stats: null, commit: { verification: null } });
    expect(lean.headers).toMatchObject({ 'x-total-count': '2', 'x-pagecount': '2', 'x-hasmore': 'true' });
  });

  it('.diff and .patch stream text/plain from git; other suffixes are 404', async () => {
    const diff = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1.diff');
    expect(diff.statusCode).toBe(200);
    expect(diff.headers['content-type']).toMatch(/^text\/plain/);
    expect(diff.body).toContain('diff --git a/a.txt b/a.txt');
    expect(diff.body).toContain('+three');
    const patch = await t.request('GET', '/api/v1/repos/alice/demo/pulls/1.patch');
    expect(patch.statusCode).toBe(200);
    expect(patch.body).toMatch(/^From [0-9a-f]{40} /);
    expect(patch.body).toContain('Subject: [PATCH 1/2] change a.txt');
    expect((await t.request('GET', '/api/v1/repos/alice/demo/pulls/1.txt')).statusCode).toBe(404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/demo/pulls/99.diff'), 404);
  });

  it('reading recomputes nothing when the cached shas match', async () => {
    await t.app.deps.notifier.drain();
    t.queries.length = 0;
    expect((await t.request('GET', '/api/v1/repos/alice/demo/pulls/1')).statusCode).toBe(200);
    expect(t.queries.filter((q) => /^\s*update/i.test(q))).toEqual([]);
  });

  it('the list costs the same statements for 5 or 7 pull requests', async () => {
    const measure = async () => {
      await t.app.deps.notifier.drain();
      t.queries.length = 0;
      const res = await t.request('GET', '/api/v1/repos/alice/demo/pulls?state=all', { headers: basic('alice') });
      expect(res.statusCode).toBe(200);
      return { statements: t.queries.length, count: (res.json() as unknown[]).length };
    };
    // Review requests are loaded only when some pull request has one: both lists have some.
    await f.pushAndOpen('alice', 'demo', 'alice', 'more1', { 'm1.txt': 'm\n' }, { assignees: ['writer'] });
    await f.pushAndOpen('alice', 'demo', 'alice', 'more2', { 'm2.txt': 'm\n' }, { reviewers: ['writer'] });
    await measure();
    const small = await measure();
    await f.pushAndOpen('alice', 'demo', 'alice', 'more3', { 'm3.txt': 'm\n' }, { assignees: ['writer'] });
    await f.pushAndOpen('alice', 'demo', 'alice', 'more4', { 'm4.txt': 'm\n' }, { reviewers: ['writer'] });
    const large = await measure();
    expect(large.count).toBe(small.count + 2);
    expect(large.statements).toBe(small.statements);
  });

  it('shows refs/pull/N/head once the head branch is deleted', async () => {
    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['push', '-q', 'origin', ':second'], { cwd: dir });
    await t.app.deps.notifier.drain();
    const res = await t.request('GET', '/api/v1/repos/alice/demo/pulls/2');
    expect(res.json().head).toMatchObject({ label: 'second', ref: 'refs/pull/2/head' });
    expect(res.json().head.sha).toMatch(/^[0-9a-f]{40}$/);
  });
});
