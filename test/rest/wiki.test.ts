// Wiki pages over REST (Gitea routers/api/v1/repo/wiki.go): shapes, Gitea's name escaping, create/edit/rename/
// delete as commits in <repo>.wiki.git, revisions, permissions of the wiki unit, and the `wiki` webhook.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { wikiPath } from '../../src/git/repoPath.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createRepo, editRepo } from '../helpers/fixtures.ts';
import { expectGiteaError } from '../helpers/giteaAssert.ts';
import { HookReceiver, type Doc } from '../helpers/hookReceiver.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const text = (s: string) => Buffer.from(s, 'base64').toString('utf8');

describe.each(PROVIDERS)('wiki REST (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let rx: HookReceiver;
  const api = (method: string, url: string, body?: unknown, user: string | null = 'wowner') =>
    t.request(method, `/api/v1${url}`, { headers: user ? basic(user) : {}, ...(body === undefined ? {} : { body }) });
  /** The files of the wiki's branch, straight from git. */
  const gitFiles = (repo: string) =>
    execFileSync('git', ['--git-dir', wikiPath(t.config.repositoriesDir, 'wowner', repo), 'ls-tree', '--name-only', 'HEAD'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);

  beforeAll(async () => {
    t = await startTestApp(provider, { WEBHOOK_ALLOWED_HOST_LIST: 'loopback' });
    rx = await HookReceiver.start();
    owner = await t.createUser('wowner', { fullName: 'Wiki Owner' });
    for (const u of ['writer', 'reader', 'outsider']) await t.createUser(u);
    for (const name of ['docs', 'names', 'perm']) await createRepo(t, owner, name);
    await createRepo(t, owner, 'hush', { private: true });
    const nowiki = await createRepo(t, owner, 'nowiki');
    await editRepo(t, nowiki, { hasWiki: false });
    const ext = await createRepo(t, owner, 'extwiki');
    await editRepo(t, ext, { hasWiki: true, externalWiki: { url: 'https://wiki.example.com/' } });
    for (const repo of ['perm', 'hush']) {
      await addCollaborator(t, { ownerName: 'wowner', name: repo }, { name: 'writer' }, 'write');
      await addCollaborator(t, { ownerName: 'wowner', name: repo }, { name: 'reader' }, 'read');
    }
    const hook = await api('POST', '/repos/wowner/docs/hooks', {
      type: 'gitea',
      config: { url: rx.url, content_type: 'json' },
      events: ['wiki'],
      active: true,
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    await rx?.close();
    await t?.close();
  });

  it('a repository whose wiki has no page answers 404', async () => {
    expectGiteaError(await api('GET', '/repos/wowner/docs/wiki/pages', undefined, null), 404);
    expectGiteaError(await api('GET', '/repos/wowner/docs/wiki/page/Home', undefined, null), 404);
  });

  it('creates a page: a commit by the viewer with Gitea’s message, answered as Gitea’s WikiPage', async () => {
    const res = await api('POST', '/repos/wowner/docs/wiki/new', { title: 'Home', content_base64: b64('# Welcome\n') });
    expect(res.statusCode, res.body).toBe(201);
    const page = res.json();
    expect(page).toEqual({
      title: 'Home',
      html_url: 'http://localhost:3000/wowner/docs/wiki/Home',
      sub_url: 'Home',
      last_commit: {
        sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        author: { name: 'Wiki Owner', email: 'wowner@example.com', date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) },
        commiter: { name: 'Wiki Owner', email: 'wowner@example.com', date: expect.any(String) },
        message: 'Add "Home"\n',
      },
      content_base64: b64('# Welcome\n'),
      commit_count: 1,
      sidebar: '',
      footer: '',
    });
    // The page is a file of the wiki's own repository, on its default branch.
    expect(gitFiles('docs')).toEqual(['Home.md']);
    const get = await api('GET', '/repos/wowner/docs/wiki/page/Home', undefined, null);
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual(page);
  });

  it('escapes names as Gitea does: spaces to dashes, a dash marker, query escapes; the title comes back', async () => {
    const cases: Array<[title: string, subUrl: string, file: string]> = [
      ['Home Page', 'Home-Page', 'Home-Page.md'],
      ['100% Free', '100%25-Free', '100%25-Free.md'],
      ['my-page', 'my-page.-', 'my-page.-.md'],
      ['2000-01-02 meeting', '2000-01-02+meeting.-', '2000-01-02 meeting.-.md'],
      ['a/b', 'a%2Fb', 'a%2Fb.md'],
    ];
    for (const [title, subUrl, file] of cases) {
      const res = await api('POST', '/repos/wowner/names/wiki/new', { title, content_base64: b64(title) });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ title, sub_url: subUrl, html_url: `http://localhost:3000/wowner/names/wiki/${subUrl}` });
      const get = await api('GET', `/repos/wowner/names/wiki/page/${subUrl}`, undefined, null);
      expect(get.statusCode, `${subUrl}: ${get.body}`).toBe(200);
      expect(text(get.json().content_base64 as string)).toBe(title);
      expect(gitFiles('names')).toContain(file);
    }
    const list = await api('GET', '/repos/wowner/names/wiki/pages', undefined, null);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('5');
    expect((list.json() as Doc[]).map((p) => [p.title, p.sub_url]).sort()).toEqual(cases.map(([title, sub]) => [title, sub]).sort());
    // Pages of the list window are counted among all entries (Gitea's quirk), the total too.
    const second = await api('GET', '/repos/wowner/names/wiki/pages?page=2&limit=3', undefined, null);
    expect(second.json()).toHaveLength(2);
    expect(second.headers['x-total-count']).toBe('5');
  });

  it('refuses bad input with Gitea’s statuses and messages', async () => {
    expectGiteaError(
      await api('POST', '/repos/wowner/docs/wiki/new', { title: 'Home', content_base64: '' }),
      400,
      'wiki page with same name already exists: Home.md',
    );
    expectGiteaError(
      await api('POST', '/repos/wowner/docs/wiki/new', { title: '_pages', content_base64: '' }),
      400,
      'wiki title is reserved: _pages',
    );
    expectGiteaError(await api('POST', '/repos/wowner/docs/wiki/new', { title: '  ', content_base64: '' }), 400, 'emptyTitle');
    expectGiteaError(
      await api('POST', '/repos/wowner/docs/wiki/new', { title: 'X', content_base64: 'ab$d' }),
      400,
      'illegal base64 data at input byte 2',
    );
    expectGiteaError(
      await api('POST', '/repos/wowner/docs/wiki/new', { title: 'X', content_base64: 'abc' }),
      400,
      'illegal base64 data at input byte 0',
    );
    expectGiteaError(await api('PATCH', '/repos/wowner/docs/wiki/page/Missing', { content_base64: '' }), 404);
    expectGiteaError(await api('DELETE', '/repos/wowner/docs/wiki/page/Missing'), 404);
    expectGiteaError(await api('POST', '/repos/wowner/docs/wiki/new', { title: 7 }), 422);
  });

  it('edits, renames and deletes pages as commits; revisions list them newest first', async () => {
    const edit = await api('PATCH', '/repos/wowner/docs/wiki/page/Home', { content_base64: b64('# Welcome, again\n') });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ title: 'Home', commit_count: 2, last_commit: { message: 'Update "Home"\n' } });
    const custom = await api('PATCH', '/repos/wowner/docs/wiki/page/Home', { content_base64: b64('v3'), message: 'third' });
    expect(custom.json()).toMatchObject({ commit_count: 3, last_commit: { message: 'third\n' }, content_base64: b64('v3') });

    const revisions = await api('GET', '/repos/wowner/docs/wiki/revisions/Home', undefined, null);
    expect(revisions.statusCode).toBe(200);
    expect(revisions.headers['x-total-count']).toBe('3');
    const list = revisions.json();
    expect(list.count).toBe(3);
    expect((list.commits as Doc[]).map((c) => c.message)).toEqual(['third\n', 'Update "Home"\n', 'Add "Home"\n']);
    expect(list.commits[0]).toMatchObject({ author: { name: 'Wiki Owner' }, commiter: { email: 'wowner@example.com' } });
    expect((await api('GET', '/repos/wowner/docs/wiki/revisions/Home?page=2', undefined, null)).json()).toEqual({ commits: [], count: 3 });
    expectGiteaError(await api('GET', '/repos/wowner/docs/wiki/revisions/Nope', undefined, null), 404);

    await api('POST', '/repos/wowner/docs/wiki/new', { title: 'Old Name', content_base64: b64('moving') });
    const renamed = await api('PATCH', '/repos/wowner/docs/wiki/page/Old-Name', { title: 'New Name', content_base64: b64('moved') });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ title: 'New Name', sub_url: 'New-Name', last_commit: { message: 'Update "New-Name"\n' } });
    expectGiteaError(await api('GET', '/repos/wowner/docs/wiki/page/Old-Name', undefined, null), 404);
    expect(gitFiles('docs')).toEqual(['Home.md', 'New-Name.md']);

    const del = await api('DELETE', '/repos/wowner/docs/wiki/page/New-Name');
    expect(del.statusCode, del.body).toBe(204);
    expectGiteaError(await api('GET', '/repos/wowner/docs/wiki/page/New-Name', undefined, null), 404);
    const log = execFileSync('git', ['--git-dir', wikiPath(t.config.repositoriesDir, 'wowner', 'docs'), 'log', '-1', '--format=%s'], {
      encoding: 'utf8',
    });
    expect(log.trim()).toBe('Delete page "New-Name"');
  });

  it('shows the wiki’s sidebar and footer with every page', async () => {
    await api('POST', '/repos/wowner/docs/wiki/new', { title: '_Sidebar', content_base64: b64('side') });
    await api('POST', '/repos/wowner/docs/wiki/new', { title: '_Footer', content_base64: b64('foot') });
    const page = (await api('GET', '/repos/wowner/docs/wiki/page/Home', undefined, null)).json();
    expect(text(page.sidebar as string)).toBe('side');
    expect(text(page.footer as string)).toBe('foot');
  });

  it('the wiki unit decides: private repositories hidden, readers cannot write, disabled and external wikis are 404', async () => {
    await api('POST', '/repos/wowner/hush/wiki/new', { title: 'Secret', content_base64: b64('s') });
    expectGiteaError(await api('GET', '/repos/wowner/hush/wiki/page/Secret', undefined, null), 404);
    expectGiteaError(await api('GET', '/repos/wowner/hush/wiki/pages', undefined, 'outsider'), 404);
    expect((await api('GET', '/repos/wowner/hush/wiki/page/Secret', undefined, 'reader')).statusCode).toBe(200);
    expectGiteaError(await api('POST', '/repos/wowner/hush/wiki/new', { title: 'R', content_base64: '' }, 'reader'), 403);
    expectGiteaError(await api('PATCH', '/repos/wowner/hush/wiki/page/Secret', { content_base64: '' }, 'reader'), 403);
    expectGiteaError(await api('DELETE', '/repos/wowner/hush/wiki/page/Secret', undefined, 'reader'), 403);
    expectGiteaError(await api('POST', '/repos/wowner/hush/wiki/new', { title: 'O', content_base64: '' }, 'outsider'), 404);
    expectGiteaError(await api('POST', '/repos/wowner/perm/wiki/new', { title: 'A', content_base64: '' }, null), 401);
    const byWriter = await api('POST', '/repos/wowner/perm/wiki/new', { title: 'By Writer', content_base64: b64('w') }, 'writer');
    expect(byWriter.statusCode, byWriter.body).toBe(201);
    expect(byWriter.json()).toMatchObject({ last_commit: { author: { name: 'writer' } } });
    // A token that may only read cannot write, whatever its user may do.
    const readOnly = await t.createToken('wowner', ['read:repository']);
    const res = await t.request('POST', '/api/v1/repos/wowner/perm/wiki/new', {
      headers: tokenAuth(readOnly),
      body: { title: 'T', content_base64: '' },
    });
    expectGiteaError(res, 403);
    for (const repo of ['nowiki', 'extwiki']) {
      expectGiteaError(await api('GET', `/repos/wowner/${repo}/wiki/pages`), 404);
      expectGiteaError(await api('POST', `/repos/wowner/${repo}/wiki/new`, { title: 'X', content_base64: '' }), 404);
    }
    await editRepo(t, { ownerName: 'wowner', name: 'perm' }, { archived: true });
    expectGiteaError(await api('POST', '/repos/wowner/perm/wiki/new', { title: 'Late', content_base64: '' }), 423);
    expect((await api('GET', '/repos/wowner/perm/wiki/page/By-Writer', undefined, null)).statusCode).toBe(200);
  });

  it('sends the wiki webhook (created, edited, deleted) with Gitea’s WikiPayload', async () => {
    await api('POST', '/repos/wowner/docs/wiki/new', { title: 'Hooked Page', content_base64: b64('h'), message: 'first words' });
    await api('PATCH', '/repos/wowner/docs/wiki/page/Hooked-Page', { content_base64: b64('h2') });
    await api('DELETE', '/repos/wowner/docs/wiki/page/Hooked-Page');
    const hooked = () =>
      rx
        .of('wiki')
        .map((r) => JSON.parse(r.body) as Doc)
        .filter((p) => p.page === 'Hooked-Page');
    await rx.until(
      () => hooked().length >= 3,
      () => t.app.jobs.drain(),
    );
    // Deliveries run concurrently: their order is not the events'.
    const byAction = (action: string) => hooked().find((p) => p.action === action);
    const [created, edited, deleted] = [byAction('created'), byAction('edited'), byAction('deleted')];
    expect(created).toMatchObject({
      action: 'created',
      page: 'Hooked-Page',
      comment: 'first words',
      repository: { full_name: 'wowner/docs' },
      sender: { login: 'wowner' },
    });
    expect(edited).toMatchObject({ action: 'edited', page: 'Hooked-Page', comment: 'Update "Hooked-Page"' });
    expect(deleted).toMatchObject({ action: 'deleted', page: 'Hooked-Page', comment: '' });
    const delivery = rx.of('wiki').find((r) => r.body.includes('"deleted"'));
    expect(delivery?.headers['x-gitea-event']).toBe('wiki');
    // Gitea marshals WikiPayload with a one-space indent.
    expect(delivery?.body.startsWith('{\n "action": "deleted"')).toBe(true);
  });
});
