import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createRepoFixture, GitClient } from '../../githttp/gitClient.ts';

interface ApiCommit {
  sha: string;
  url: string;
  html_url: string;
  commit: { message: string; author: { name: string; email: string; date: string } };
  author: { login: string } | null;
  parents: Array<{ sha: string }>;
  files: Array<{ filename: string; status: string }> | null;
  stats: { total: number; additions: number; deletions: number } | null;
}

/** Every file of a directory tree, by relative path, with its bytes. */
function readTree(dir: string, base = dir, out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) readTree(p, base, out);
    else out.set(path.relative(base, p), readFileSync(p));
  }
  return out;
}

describe.each(PROVIDERS)('REST git reads: commits, trees, refs, compare, raw, archives (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let alice: Models.User;
  const sha: Record<string, string> = {};
  const api = '/api/v1/repos/alice';

  beforeAll(async () => {
    t = await startTestApp(provider);
    git = new GitClient();
    alice = await t.createUser('alice');
    const reader = await t.createUser('reader');
    await t.createUser('outsider');
    await createRepoFixture(t, alice, 'code');
    const hidden = await createRepoFixture(t, alice, 'hidden', { isPrivate: true });
    await createRepoFixture(t, alice, 'void');
    await addCollaborator(t, hidden, reader, 'read');
    for (const name of ['hidden', 'code']) {
      const work = git.dir(`seed-${name}`);
      await git.ok(['init', '-q', work]);
      await git.ok(['config', 'user.email', 'alice@example.com'], { cwd: work });
      sha.first = await git.commit(work, 'README.md', '# code\n', 'first commit');
      sha.second = await git.commit(work, 'src/a.txt', 'alpha\nbeta\n', 'add a');
      await git.ok(['tag', 'v1'], { cwd: work });
      await git.ok(['checkout', '-q', '-b', 'feature/x'], { cwd: work });
      sha.feature = await git.commit(work, 'src/b.bin', Buffer.from([0, 1, 2, 3]), 'binary');
      await git.ok(['checkout', '-q', 'main'], { cwd: work });
      sha.main = await git.commit(work, 'README.md', '# code v2\n', 'third');
      const bare = repoPath(t.config.repositoriesDir, 'alice', name);
      await git.ok(['push', '-q', '--all', bare], { cwd: work });
      await git.ok(['push', '-q', '--tags', bare], { cwd: work });
      await t.db.repository.updateMany({ where: { ownerId: alice.id, lowerName: name }, data: { isEmpty: false } });
    }
  });
  afterAll(async () => {
    git.dispose();
    await t.close();
  });

  it('lists commits with Gitea paging headers, stats and files', async () => {
    const res = await t.request('GET', `${api}/code/commits?limit=2`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.headers['x-page']).toBe('1');
    expect(res.headers['x-perpage']).toBe('2');
    expect(res.headers['x-pagecount']).toBe('2');
    expect(res.headers['x-hasmore']).toBe('true');
    expect(String(res.headers.link)).toContain('rel="next"');
    const list = res.json<ApiCommit[]>();
    expect(list.map((c) => c.sha)).toEqual([sha.main, sha.second]);
    expect(list[0]).toMatchObject({
      html_url: `http://localhost:3000/alice/code/commit/${sha.main}`,
      files: [{ filename: 'README.md', status: 'modified' }],
      stats: { total: 2, additions: 1, deletions: 1 },
      author: { login: 'alice' },
    });
    const page2 = await t.request('GET', `${api}/code/commits?limit=2&page=2&stat=false&files=false`);
    expect(page2.json<ApiCommit[]>().map((c) => [c.sha, c.files, c.stats])).toEqual([[sha.first, null, null]]);
    expect(page2.headers['x-hasmore']).toBe('false');
  });

  it('filters commits by sha, path and not; 404 for an unknown sha; 409 on an empty repository', async () => {
    const feature = await t.request('GET', `${api}/code/commits?sha=feature/x&not=main`);
    expect(feature.json<ApiCommit[]>().map((c) => c.sha)).toEqual([sha.feature]);
    const byPath = await t.request('GET', `${api}/code/commits?path=src/a.txt`);
    expect(byPath.json<ApiCommit[]>().map((c) => c.sha)).toEqual([sha.second]);
    expectGiteaError(await t.request('GET', `${api}/code/commits?path=nothing`), 404);
    expectGiteaError(await t.request('GET', `${api}/code/commits?sha=nope`), 404);
    expectGiteaError(await t.request('GET', `${api}/void/commits`), 409, 'Git Repository is empty.');
    const since = await t.request('GET', `${api}/code/commits?since=2999-01-01T00:00:00Z`);
    expect(since.json<ApiCommit[]>()).toEqual([]);
    const until = await t.request('GET', `${api}/code/commits?until=2001-01-01T00:00:00Z`);
    expect(until.json<ApiCommit[]>()).toEqual([]);
    const window = await t.request('GET', `${api}/code/commits?since=2001-01-01T00:00:00Z&until=2999-01-01T00:00:00Z`);
    expect(window.json<ApiCommit[]>().map((c) => c.sha)[0]).toBe(sha.main);
  });

  it('reads one commit, its diff and its patch', async () => {
    const res = await t.request('GET', `${api}/code/git/commits/${sha.second}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ApiCommit>()).toMatchObject({
      sha: sha.second,
      parents: [{ sha: sha.first }],
      files: [{ filename: 'src/a.txt', status: 'added' }],
    });
    expect((await t.request('GET', `${api}/code/git/commits/main`)).json<ApiCommit>().sha).toBe(sha.main);
    expectGiteaError(await t.request('GET', `${api}/code/git/commits/${'0'.repeat(39)}1`), 404);
    const diff = await t.request('GET', `${api}/code/git/commits/${sha.second}.diff`);
    expect(diff.statusCode).toBe(200);
    expect(diff.body).toContain('+++ b/src/a.txt');
    const patch = await t.request('GET', `${api}/code/git/commits/${sha.first}.patch`);
    expect(patch.body).toContain('Subject: [PATCH] first commit');
  });

  it('reads trees (recursive, paged, truncated) and 400 for an unknown sha', async () => {
    const top = await t.request('GET', `${api}/code/git/trees/main`);
    expect(top.statusCode, top.body).toBe(200);
    const body = top.json<{
      sha: string;
      tree: Array<{ path: string; type: string; url: string }>;
      truncated: boolean;
      total_count: number;
      page: number;
    }>();
    expect(body.tree.map((e) => `${e.type}:${e.path}`)).toEqual(['blob:README.md', 'tree:src']);
    expect(body).toMatchObject({ truncated: false, total_count: 2, page: 1 });
    const rec = await t.request('GET', `${api}/code/git/trees/${sha.feature}?recursive=true&per_page=2&page=1`);
    const recBody = rec.json<typeof body>();
    expect(recBody.total_count).toBe(4);
    expect(recBody.truncated).toBe(true);
    expect(recBody.tree.map((e) => e.path)).toEqual(['README.md', 'src']);
    expect(recBody.tree[1]?.url).toMatch(/\/git\/trees\/[0-9a-f]{40}$/);
    expectGiteaError(await t.request('GET', `${api}/code/git/trees/${'a'.repeat(40)}`), 400);
  });

  it('lists refs and answers one object for an exact ref', async () => {
    const all = await t.request('GET', `${api}/code/git/refs`);
    expect(all.json<Array<{ ref: string }>>().map((r) => r.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/tags/v1']);
    const one = await t.request('GET', `${api}/code/git/refs/heads/main`);
    expect(one.json()).toEqual({
      ref: 'refs/heads/main',
      url: 'http://localhost:3000/api/v1/repos/alice/code/git/refs/heads/main',
      object: { type: 'commit', sha: sha.main, url: `http://localhost:3000/api/v1/repos/alice/code/git/commits/${sha.main}` },
    });
    expect(Array.isArray((await t.request('GET', `${api}/code/git/refs/heads`)).json())).toBe(true);
    expectGiteaError(await t.request('GET', `${api}/code/git/refs/heads/nope`), 404);
  });

  it('compares two refs', async () => {
    const res = await t.request('GET', `${api}/code/compare/main...feature/x`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ total_commits: number; commits: ApiCommit[] }>();
    expect(body.total_commits).toBe(1);
    expect(body.commits[0]?.sha).toBe(sha.feature);
    expectGiteaError(await t.request('GET', `${api}/code/compare/main...nope`), 404);
  });

  it('serves raw files through the API and the web routes the JSON links to', async () => {
    const raw = await t.request('GET', `${api}/code/raw/README.md`);
    expect(raw.statusCode).toBe(200);
    expect(raw.body).toBe('# code v2\n');
    expect(raw.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await t.request('GET', `${api}/code/raw/README.md?ref=v1`)).body).toBe('# code\n');
    const bin = await t.request('GET', `${api}/code/media/src/b.bin?ref=feature/x`);
    expect(bin.rawPayload.equals(Buffer.from([0, 1, 2, 3]))).toBe(true);
    expect(bin.headers['content-type']).toBe('application/octet-stream');
    expectGiteaError(await t.request('GET', `${api}/code/raw/src`), 404);
    expect((await t.request('GET', '/alice/code/raw/branch/feature/x/src/b.bin')).rawPayload.equals(Buffer.from([0, 1, 2, 3]))).toBe(true);
    expect((await t.request('GET', '/alice/code/raw/tag/v1/README.md')).body).toBe('# code\n');
    expect((await t.request('GET', `/alice/code/raw/commit/${sha.first}/README.md`)).body).toBe('# code\n');
    const contents = (await t.request('GET', `${api}/code/contents/src/a.txt`)).json<{ download_url: string; html_url: string }>();
    const dl = await t.request('GET', new URL(contents.download_url).pathname);
    expect(dl.body).toBe('alpha\nbeta\n');
    const html = await t.request('GET', new URL(contents.html_url).pathname);
    expect(html.statusCode).toBe(302);
    expect(html.headers.location).toBe('http://localhost:3000/alice/code/raw/branch/main/src/a.txt');
    const dir = await t.request('GET', '/alice/code/src/branch/main/src');
    expect(dir.headers.location).toBe('http://localhost:3000/api/v1/repos/alice/code/contents/src?ref=main');
    expect((await t.request('GET', '/alice/code/raw/branch/main/missing')).statusCode).toBe(404);
  });

  it('serves archives equal to git archive (zip and tar.gz), cached on disk and cleaned by the cron tasks', async () => {
    const bare = repoPath(t.config.repositoriesDir, 'alice', 'code');
    for (const [format, url, ref] of [
      ['zip', `${api}/code/archive/main.zip`, 'main'],
      ['tar.gz', '/alice/code/archive/v1.tar.gz', 'v1'],
    ] as const) {
      const res = await t.request('GET', url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-disposition']).toContain(`code-${ref}.${format}`);
      const ours = git.dir(`ours-${format}`);
      const theirs = git.dir(`theirs-${format}`);
      const oursFile = path.join(ours, `a.${format}`);
      writeFileSync(oursFile, res.rawPayload);
      const expected = execFileSync('git', ['--git-dir', bare, 'archive', `--format=${format}`, '--prefix=code/', ref], {
        maxBuffer: 1 << 26,
      });
      const theirsFile = path.join(theirs, `a.${format}`);
      writeFileSync(theirsFile, expected);
      for (const [file, dir] of [
        [oursFile, path.join(ours, 'x')],
        [theirsFile, path.join(theirs, 'x')],
      ] as const) {
        mkdirSync(dir);
        if (format === 'zip') execFileSync('unzip', ['-q', file, '-d', dir]);
        else execFileSync('tar', ['-xzf', file, '-C', dir]);
      }
      const a = readTree(path.join(ours, 'x'));
      const b = readTree(path.join(theirs, 'x'));
      expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
      for (const [k, v] of a) expect(v.equals(b.get(k)!)).toBe(true);
    }
    expectGiteaError(await t.request('GET', `${api}/code/archive/main.rar`), 400);
    expectGiteaError(await t.request('GET', `${api}/code/archive/nope.zip`), 404);
    const cache = path.join(t.config.dataDir, 'repo-archive');
    const cached = readTree(cache);
    expect(cached.size).toBe(2);
    const old = new Date(Date.now() - 3 * 86_400_000);
    for (const f of cached.keys()) utimesSync(path.join(cache, f), old, old);
    const admin = await t.createUser('root', { admin: true });
    expect(admin.isAdmin).toBe(true);
    const run = await t.request('POST', '/api/v1/admin/cron/archive_cleanup', { headers: basic('root') });
    expect(run.statusCode, run.body).toBe(204);
    for (let i = 0; i < 50 && readTree(cache).size; i++) await new Promise((r) => setTimeout(r, 100));
    expect(readTree(cache).size).toBe(0);
  });

  it('hides a private repository from outsiders (404) on every read route', async () => {
    const routes = [
      `${api}/hidden/commits`,
      `${api}/hidden/git/commits/main`,
      `${api}/hidden/git/commits/main.diff`,
      `${api}/hidden/git/trees/main`,
      `${api}/hidden/git/refs`,
      `${api}/hidden/compare/main...feature/x`,
      `${api}/hidden/raw/README.md`,
      `${api}/hidden/media/README.md`,
      `${api}/hidden/archive/main.zip`,
    ];
    for (const r of routes) {
      expect((await t.request('GET', r)).statusCode, r).toBe(404);
      expect((await t.request('GET', r, { headers: basic('outsider') })).statusCode, r).toBe(404);
      expect((await t.request('GET', r, { headers: basic('reader') })).statusCode, r).toBe(200);
    }
    for (const r of [
      '/alice/hidden/raw/branch/main/README.md',
      '/alice/hidden/archive/main.zip',
      '/alice/hidden/src/branch/main/README.md',
    ]) {
      expect((await t.request('GET', r, { headers: basic('outsider') })).statusCode, r).toBe(404);
      expect((await t.request('GET', r, { headers: basic('reader') })).statusCode, r).not.toBe(404);
    }
  });
});
