// The wiki over git smart HTTP (`/{owner}/{repo}.wiki.git`, Gitea httpBase with isWiki), with the real git client:
// clone and push with the wiki unit's permission, pushes that bypass the code's gate and bookkeeping, and the
// wiki's directory following its repository through renames, transfers and deletion.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { wikiPath } from '../../src/git/repoPath.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, editRepo } from '../helpers/fixtures.ts';
import { createOrgAs } from '../helpers/org.ts';
import { capturePushes, createRepoFixture, GitClient, gitUrl } from './gitClient.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(PROVIDERS)('wiki over git smart HTTP (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let git: GitClient;
  let owner: Models.User;
  let pushes: ReturnType<typeof capturePushes>;
  const as = (user: string) => ({ user, secret: PASSWORD });
  const wikiUrl = (repo: string, user?: string) => gitUrl(port, 'gwowner', `${repo}.wiki`, user ? as(user) : undefined);
  const api = (method: string, url: string, body?: unknown, user: string | null = 'gwowner') =>
    t.request(method, `/api/v1${url}`, { headers: user ? basic(user) : {}, ...(body === undefined ? {} : { body }) });
  const createPage = async (repo: string, title: string, content: string, ownerName = 'gwowner') => {
    const res = await api('POST', `/repos/${ownerName}/${repo}/wiki/new`, { title, content_base64: b64(content) });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as AddressInfo).port;
    git = new GitClient();
    owner = await t.createUser('gwowner');
    for (const u of ['gwreader', 'gwoutsider']) await t.createUser(u);
    pushes = capturePushes(t);
    await createRepoFixture(t, owner, 'book');
    const secret = await createRepoFixture(t, owner, 'secret', { isPrivate: true });
    await addCollaborator(t, secret, { name: 'gwreader' }, 'read');
    await createRepoFixture(t, owner, 'nowiki', { units: ['CODE', 'ISSUES'] });
    await createPage('book', 'Home', '# Book\n');
    await createPage('secret', 'Home', 'hidden\n');
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('clones a public wiki anonymously, with or without .git; its pages are the files', async () => {
    const dir = git.dir('book-wiki');
    const r = await git.run(['clone', '-q', wikiUrl('book'), dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'Home.md'), 'utf8')).toBe('# Book\n');
    expect((await git.ok(['log', '-1', '--format=%an <%ae> %s'], { cwd: dir })).trim()).toBe('gwowner <gwowner@example.com> Add "Home"');
    const bare = await git.run(['clone', '-q', gitUrl(port, 'gwowner', 'book.wiki', undefined, ''), git.dir('book-wiki-bare')]);
    expect(bare.code, bare.stderr).toBe(0);
  });

  it('a pushed page shows in the API; the push runs none of the code’s push bookkeeping or branch protection', async () => {
    // The code's main branch is protected against every push: the wiki's main is another repository's branch.
    const rule = await api('POST', '/repos/gwowner/book/branch_protections', { rule_name: 'main', enable_push: false });
    expect(rule.statusCode, rule.body).toBe(201);
    const code = git.dir('book-code');
    await git.ok(['init', '-q', code]);
    await git.commit(code, 'README.md', 'code\n');
    const blocked = await git.run(['push', gitUrl(port, 'gwowner', 'book', as('gwowner')), 'main'], { cwd: code });
    expect(blocked.code, 'the rule blocks pushes to the code').not.toBe(0);
    await pushes.take();
    const dir = git.dir('book-wiki-push');
    await git.ok(['clone', '-q', wikiUrl('book', 'gwowner'), dir]);
    await git.commit(dir, 'Legacy Name.md', 'spaced\n', 'A file named with a space');
    await git.commit(dir, 'Pushed-Page.md', 'from git\n', 'Add a page by push');
    const r = await git.run(['push', 'origin', 'main'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const page = await api('GET', '/repos/gwowner/book/wiki/page/Pushed-Page', undefined, null);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ title: 'Pushed Page', last_commit: { message: 'Add a page by push\n' } });
    expect(Buffer.from(page.json().content_base64 as string, 'base64').toString()).toBe('from git\n');
    // A file name Gitea would not write is still reachable as `<file name>.md`, escaped (Gitea's WebPathToGitPath).
    const legacy = await api('GET', '/repos/gwowner/book/wiki/page/Legacy%20Name.md', undefined, null);
    expect(legacy.statusCode, legacy.body).toBe(200);
    expect(legacy.json()).toMatchObject({ title: 'Legacy Name', commit_count: 1 });
    expect(await pushes.take()).toEqual([]);
    const repo = await t.db.repository.findFirstOrThrow({ where: { lowerName: 'book' } });
    expect(await t.db.branch.count({ where: { repoId: repo.id } })).toBe(0);
    expect(await t.db.action.count({ where: { repoId: repo.id, opType: 'COMMIT_REPO' } })).toBe(0);
  });

  it('the wiki unit’s permission decides: readers clone but cannot push, outsiders see nothing', async () => {
    expect((await git.run(['clone', '-q', wikiUrl('secret', 'gwreader'), git.dir('reader-wiki')])).code).toBe(0);
    const dir = git.dir('reader-wiki');
    await git.commit(dir, 'Mine.md', 'x\n');
    const push = await git.run(['push', 'origin', 'main'], { cwd: dir });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain('User permission denied for writing.');
    const out = await fetch(`http://127.0.0.1:${port}/gwowner/secret.wiki.git/info/refs?service=git-upload-pack`, {
      headers: basic('gwoutsider'),
    });
    expect(out.status).toBe(404);
    expect(await out.text()).toBe('Repository not found\n');
    const anon = await fetch(`http://127.0.0.1:${port}/gwowner/secret.wiki.git/info/refs?service=git-upload-pack`);
    expect(anon.status).toBe(401);
    // A disabled wiki does not exist.
    const disabled = await fetch(`http://127.0.0.1:${port}/gwowner/nowiki.wiki.git/info/refs?service=git-upload-pack`, {
      headers: basic('gwowner'),
    });
    expect(disabled.status).toBe(404);
  });

  it('the first push makes a wiki that had no page; before it there is nothing to clone', async () => {
    await createRepoFixture(t, owner, 'fresh');
    const none = await fetch(`http://127.0.0.1:${port}/gwowner/fresh.wiki.git/info/refs?service=git-upload-pack`, {
      headers: basic('gwowner'),
    });
    expect(none.status).toBe(404);
    expect(existsSync(wikiPath(t.config.repositoriesDir, 'gwowner', 'fresh'))).toBe(false);
    const dir = git.dir('fresh-wiki');
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, 'Home.md', 'first\n');
    const r = await git.run(['push', wikiUrl('fresh', 'gwowner'), 'main'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const list = await api('GET', '/repos/gwowner/fresh/wiki/pages', undefined, null);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject([{ title: 'Home', sub_url: 'Home' }]);
  });

  it('the wiki follows its repository: renamed, transferred, deleted', async () => {
    await createRepoFixture(t, owner, 'moving');
    await createPage('moving', 'Home', 'moving\n');
    const renamed = await api('PATCH', '/repos/gwowner/moving', { name: 'moved' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(existsSync(wikiPath(t.config.repositoriesDir, 'gwowner', 'moving'))).toBe(false);
    expect((await api('GET', '/repos/gwowner/moved/wiki/page/Home', undefined, null)).statusCode).toBe(200);
    expect((await git.run(['clone', '-q', wikiUrl('moved'), git.dir('moved-wiki')])).code).toBe(0);

    await createOrgAs(t, owner, 'gworg');
    const transferred = await api('POST', '/repos/gwowner/moved/transfer', { new_owner: 'gworg' });
    expect(transferred.statusCode, transferred.body).toBe(202);
    expect(existsSync(wikiPath(t.config.repositoriesDir, 'gwowner', 'moved'))).toBe(false);
    const page = await api('GET', '/repos/gworg/moved/wiki/page/Home', undefined, null);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ html_url: 'http://localhost:3000/gworg/moved/wiki/Home' });

    const dir = wikiPath(t.config.repositoriesDir, 'gworg', 'moved');
    expect(existsSync(dir)).toBe(true);
    expect((await api('DELETE', '/repos/gworg/moved')).statusCode).toBe(204);
    expect(existsSync(dir)).toBe(false);
  });

  it('an archived repository’s wiki is read-only over git too', async () => {
    const repo = await createRepoFixture(t, owner, 'shelf');
    await createPage('shelf', 'Home', 'old\n');
    await editRepo(t, repo, { archived: true });
    const dir = git.dir('shelf-wiki');
    await git.ok(['clone', '-q', wikiUrl('shelf', 'gwowner'), dir]);
    writeFileSync(path.join(dir, 'Home.md'), 'new\n');
    await git.ok(['commit', '-q', '-am', 'edit'], { cwd: dir });
    const r = await git.run(['push', 'origin', 'main'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('This repo is archived');
  });
});
