import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { createRepoFixture, GitClient } from '../../githttp/gitClient.ts';

interface ApiBranch {
  name: string;
  commit: {
    id: string;
    message: string;
    url: string;
    author: { name: string; email: string; username: string };
    timestamp: string;
    verification: unknown;
  };
  protected: boolean;
  user_can_push: boolean;
  user_can_merge: boolean;
  status_check_contexts: string[];
  effective_branch_protection_name: string;
}
interface ApiContents {
  name: string;
  path: string;
  sha: string;
  type: string;
  size: number;
  encoding: string | null;
  content: string | null;
  target: string | null;
  url: string;
  html_url: string;
  git_url: string;
  download_url: string | null;
  last_commit_sha: string;
  _links: { self: string; git: string; html: string };
}

describe.each(PROVIDERS)('REST git reads: branches, contents, blobs (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let alice: Models.User;
  const sha: Record<string, string> = {};
  const api = '/api/v1/repos/alice';

  /** Builds history in a work tree and pushes it straight into the bare repository. */
  async function seed(name: string, build: (work: string) => Promise<void>): Promise<string> {
    const work = git.dir(`seed-${name}`);
    await git.ok(['init', '-q', work]);
    await build(work);
    await git.ok(['push', '-q', '--all', repoPath(t.config.repositoriesDir, 'alice', name)], { cwd: work });
    await git.ok(['push', '-q', '--tags', repoPath(t.config.repositoriesDir, 'alice', name)], { cwd: work });
    await t.db.repository.updateMany({ where: { ownerId: alice.id, lowerName: name }, data: { isEmpty: false } });
    return work;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    git = new GitClient();
    alice = await t.createUser('alice');
    for (const u of ['reader', 'outsider']) await t.createUser(u);
    await createRepoFixture(t, alice, 'code');
    const hidden = await createRepoFixture(t, alice, 'hidden', { isPrivate: true });
    await createRepoFixture(t, alice, 'nocode', { units: ['ISSUES'] });
    await createRepoFixture(t, alice, 'void');
    const reader = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'reader' } });
    await addCollaborator(t, hidden, reader, 'read');

    const work = await seed('code', async (w) => {
      sha.first = await git.commit(w, 'README.md', '# code\n', 'first commit');
      sha.main = await git.commit(w, 'src/a.txt', 'alpha\n', 'add a\n\nbody text');
      symlinkSync('README.md', path.join(w, 'link'));
      await git.ok(['add', 'link'], { cwd: w });
      await git.ok(['commit', '-q', '-m', 'link'], { cwd: w });
      sha.main = (await git.ok(['rev-parse', 'HEAD'], { cwd: w })).trim();
      await git.ok(['tag', '-a', 'v1', '-m', 'v1'], { cwd: w });
      await git.ok(['checkout', '-q', '-b', 'feature/slash'], { cwd: w });
      sha.feature = await git.commit(w, 'only-on-feature.txt', 'f\n', 'feature work');
      await git.ok(['checkout', '-q', '-b', 'big'], { cwd: w });
      sha.bigCommit = await git.commit(w, 'big.bin', Buffer.alloc(10 * 1024 * 1024 + 1, 0x61), 'big');
      await git.ok(['checkout', '-q', 'main'], { cwd: w });
    });
    sha.readme = (await git.ok(['rev-parse', 'main:README.md'], { cwd: work })).trim();
    sha.src = (await git.ok(['rev-parse', 'main:src'], { cwd: work })).trim();
    sha.big = (await git.ok(['rev-parse', 'big:big.bin'], { cwd: work })).trim();
    await seed('hidden', async (w) => {
      sha.hidden = await git.commit(w, 'secret.txt', 'psst\n');
    });
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  describe('branches', () => {
    it('lists branches with head commits, paginated with X-Total-Count and Link', async () => {
      const res = await t.request('GET', `${api}/code/branches`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as ApiBranch[];
      expect(body.map((b) => b.name).sort()).toEqual(['big', 'feature/slash', 'main']);
      expect(res.headers['x-total-count']).toBe('3');
      const main = body.find((b) => b.name === 'main');
      expect(main).toMatchObject({
        protected: false,
        user_can_push: false,
        user_can_merge: false,
        status_check_contexts: [],
        effective_branch_protection_name: '',
        commit: {
          id: sha.main,
          message: 'link\n',
          url: `http://localhost:3000/alice/code/commit/${sha.main}`,
          author: { name: 'Test Pusher', email: 'pusher@example.com', username: '' },
        },
      });
      expect(main?.commit.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$/);

      const paged = await t.request('GET', `${api}/code/branches?limit=1&page=2`);
      expect((paged.json() as ApiBranch[]).length).toBe(1);
      expect(paged.headers.link).toContain('rel="next"');
      expect(paged.headers.link).toContain('rel="prev"');
    });

    it('tells the owner it can push and merge', async () => {
      const body = (await t.request('GET', `${api}/code/branches`, { headers: basic('alice') })).json() as ApiBranch[];
      expect(body.every((b) => b.user_can_push && b.user_can_merge)).toBe(true);
    });

    it('gets a branch whose name contains a slash; unknown → 404', async () => {
      const res = await t.request('GET', `${api}/code/branches/feature/slash`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ name: 'feature/slash', commit: { id: sha.feature } });
      expectGiteaError(await t.request('GET', `${api}/code/branches/nope`), 404, 'branch does not exist [name: nope]');
      expectGiteaError(await t.request('GET', `${api}/code/branches/feature`), 404);
    });

    it('an empty repository has no branches', async () => {
      const res = await t.request('GET', `${api}/void/branches`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    });

    it('private: anonymous and outsider get 404, a reader can read but not push', async () => {
      expectGiteaError(await t.request('GET', `${api}/hidden/branches`), 404);
      expectGiteaError(await t.request('GET', `${api}/hidden/branches/main`, { headers: basic('outsider') }), 404);
      const res = await t.request('GET', `${api}/hidden/branches/main`, { headers: basic('reader') });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ name: 'main', commit: { id: sha.hidden }, user_can_push: false, user_can_merge: false });
    });

    it('a repository without the code unit → 404', async () => {
      expectGiteaError(await t.request('GET', `${api}/nocode/branches`, { headers: basic('alice') }), 404);
    });
  });

  describe('contents', () => {
    it('reads a file at the default branch with base64 content and links', async () => {
      const res = await t.request('GET', `${api}/code/contents/README.md`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as ApiContents;
      expect(body).toMatchObject({
        name: 'README.md',
        path: 'README.md',
        sha: sha.readme,
        type: 'file',
        size: 7,
        encoding: 'base64',
        content: Buffer.from('# code\n').toString('base64'),
        target: null,
        url: 'http://localhost:3000/api/v1/repos/alice/code/contents/README.md?ref=main',
        html_url: 'http://localhost:3000/alice/code/src/branch/main/README.md',
        git_url: `http://localhost:3000/api/v1/repos/alice/code/git/blobs/${sha.readme}`,
        download_url: 'http://localhost:3000/alice/code/raw/branch/main/README.md',
        last_commit_sha: sha.first,
        _links: {
          self: 'http://localhost:3000/api/v1/repos/alice/code/contents/README.md?ref=main',
          git: `http://localhost:3000/api/v1/repos/alice/code/git/blobs/${sha.readme}`,
          html: 'http://localhost:3000/alice/code/src/branch/main/README.md',
        },
      });
    });

    it('reads at a branch with a slash, a tag and a commit sha', async () => {
      const onFeature = await t.request('GET', `${api}/code/contents/only-on-feature.txt?ref=feature/slash`);
      expect(onFeature.statusCode, onFeature.body).toBe(200);
      expect((onFeature.json() as ApiContents).url).toBe(
        'http://localhost:3000/api/v1/repos/alice/code/contents/only-on-feature.txt?ref=feature%2Fslash',
      );
      expectGiteaError(
        await t.request('GET', `${api}/code/contents/only-on-feature.txt`),
        404,
        'object does not exist [id: , rel_path: only-on-feature.txt]',
      );
      const tag = (await t.request('GET', `${api}/code/contents/src/a.txt?ref=v1`)).json() as ApiContents;
      expect(tag.html_url).toBe('http://localhost:3000/alice/code/src/tag/v1/src/a.txt');
      const bySha = await t.request('GET', `${api}/code/contents/README.md?ref=${sha.first}`);
      expect(bySha.statusCode).toBe(200);
      expect((bySha.json() as ApiContents).html_url).toBe(`http://localhost:3000/alice/code/src/commit/${sha.first}/README.md`);
      expectGiteaError(await t.request('GET', `${api}/code/contents/README.md?ref=no-such-ref`), 404);
      expectGiteaError(await t.request('GET', `${api}/code/contents/README.md?ref=../../config`), 404);
    });

    it('a listing gives each entry the same last commit as reading the entry alone (one history walk for all)', async () => {
      const root = (await t.request('GET', `${api}/code/contents`)).json() as ApiContents[];
      expect(root.every((e) => /^[0-9a-f]{40}$/.test(e.last_commit_sha))).toBe(true);
      for (const e of root.filter((x) => x.type !== 'dir')) {
        const alone = (await t.request('GET', `${api}/code/contents/${e.path}`)).json() as ApiContents;
        expect(e.last_commit_sha, e.path).toBe(alone.last_commit_sha);
      }
    });

    it('lists a directory and the root without content; a symlink has a type', async () => {
      const dir = await t.request('GET', `${api}/code/contents/src`);
      expect(dir.statusCode).toBe(200);
      expect(dir.json()).toEqual([
        expect.objectContaining({ name: 'a.txt', path: 'src/a.txt', type: 'file', size: 6, content: null, encoding: null }),
      ]);
      const root = (await t.request('GET', `${api}/code/contents`)).json() as ApiContents[];
      expect(root.map((e) => [e.name, e.type])).toEqual([
        ['README.md', 'file'],
        ['link', 'symlink'],
        ['src', 'dir'],
      ]);
      expect(root.find((e) => e.name === 'src')).toMatchObject({
        sha: sha.src,
        git_url: `http://localhost:3000/api/v1/repos/alice/code/git/trees/${sha.src}`,
        download_url: null,
      });
      const link = (await t.request('GET', `${api}/code/contents/link`)).json() as ApiContents;
      expect(link).toMatchObject({ type: 'symlink', target: 'README.md', content: null });
    });

    it('unknown path → 404; empty repository → 404; private → 404 for outsiders', async () => {
      expectGiteaError(
        await t.request('GET', `${api}/code/contents/nope/x.txt`),
        404,
        'object does not exist [id: , rel_path: nope/x.txt]',
      );
      expectGiteaError(await t.request('GET', `${api}/void/contents/README.md`), 404);
      expectGiteaError(await t.request('GET', `${api}/hidden/contents/secret.txt`), 404);
      expectGiteaError(await t.request('GET', `${api}/hidden/contents/secret.txt`, { headers: basic('outsider') }), 404);
      expect((await t.request('GET', `${api}/hidden/contents/secret.txt`, { headers: basic('reader') })).statusCode).toBe(200);
    });
  });

  describe('git/blobs', () => {
    it('returns a blob as base64 with size and url', async () => {
      const res = await t.request('GET', `${api}/code/git/blobs/${sha.readme}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        content: Buffer.from('# code\n').toString('base64'),
        encoding: 'base64',
        url: `http://localhost:3000/api/v1/repos/alice/code/git/blobs/${sha.readme}`,
        sha: sha.readme,
        size: 7,
      });
    });

    it('does not check the object type (a commit sha returns the raw commit)', async () => {
      const res = await t.request('GET', `${api}/code/git/blobs/${sha.first}`);
      expect(res.statusCode).toBe(200);
      expect(Buffer.from((res.json() as { content: string }).content, 'base64').toString('utf8')).toMatch(/^tree [0-9a-f]{40}\n/);
    });

    it('unknown, abbreviated, malformed or zero sha → 400', async () => {
      expectGiteaError(
        await t.request('GET', `${api}/code/git/blobs/${'1'.repeat(40)}`),
        400,
        `object does not exist [id: ${'1'.repeat(40)}, rel_path: ]`,
      );
      expectGiteaError(
        await t.request('GET', `${api}/code/git/blobs/${sha.readme?.slice(0, 7)}`),
        400,
        `length 7 has no matched object format: ${sha.readme?.slice(0, 7)}`,
      );
      expectGiteaError(await t.request('GET', `${api}/code/git/blobs/${'z'.repeat(40)}`), 400);
      expectGiteaError(await t.request('GET', `${api}/code/git/blobs/${'0'.repeat(40)}`), 400);
      expectGiteaError(await t.request('GET', `${api}/void/git/blobs/${sha.readme}`), 400);
    });

    it('content is null above 10 MiB, size is still set', async () => {
      const res = await t.request('GET', `${api}/code/git/blobs/${sha.big}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ content: null, encoding: null, size: 10 * 1024 * 1024 + 1, sha: sha.big });
    });

    it('private: anonymous/outsider 404, reader and read:repository token 200, other scopes 403', async () => {
      const url = `${api}/hidden/git/blobs/${sha.hidden}`;
      expectGiteaError(await t.request('GET', url), 404);
      expectGiteaError(await t.request('GET', url, { headers: basic('outsider') }), 404);
      expect((await t.request('GET', url, { headers: basic('reader') })).statusCode).toBe(200);
      const commitBlob = await t.request('GET', `${api}/hidden/contents/secret.txt`, { headers: basic('reader') });
      const blobSha = (commitBlob.json() as ApiContents).sha;
      const blobUrl = `${api}/hidden/git/blobs/${blobSha}`;
      expect((await t.request('GET', blobUrl, { headers: basic('reader') })).statusCode).toBe(200);
      expect((await t.request('GET', blobUrl, { headers: tokenAuth(await t.createToken('alice', ['read:repository'])) })).statusCode).toBe(
        200,
      );
      expectGiteaError(await t.request('GET', blobUrl, { headers: tokenAuth(await t.createToken('alice', ['read:user'])) }), 403);
      expectGiteaError(await t.request('GET', `${api}/nocode/git/blobs/${blobSha}`, { headers: basic('alice') }), 404);
    });
  });
});
