// A migrated wiki lands where the wiki door serves it: POST /repos/migrate with `wiki: true` from a second
// Forgegraph instance (whose wiki is at `<repo>.wiki.git`), and a pull mirror whose wiki follows its source's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { freePort } from '../../helpers/serverProcess.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const text = (s: unknown) => Buffer.from(String(s), 'base64').toString('utf8');

describe.each(PROVIDERS)('migrated wikis (%s)', (provider) => {
  let source: TestApp;
  let target: TestApp;
  let port: number;
  const asAlice = basic('alice');
  const asBob = basic('bob');
  const migrate = (body: Record<string, unknown>) =>
    target.request('POST', '/api/v1/repos/migrate', {
      headers: asBob,
      body: { clone_addr: `http://127.0.0.1:${port}/alice/book.git`, ...body },
    });
  const page = (repo: string, name: string) => target.request('GET', `/api/v1/repos/bob/${repo}/wiki/page/${name}`, { headers: asBob });

  beforeAll(async () => {
    port = await freePort();
    source = await startTestApp(provider, { ROOT_URL: `http://127.0.0.1:${port}/` });
    await source.app.server.listen({ port, host: '127.0.0.1' });
    target = await startTestApp(provider, { MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
    await source.createUser('alice');
    await target.createUser('bob');
    const created = await source.request('POST', '/api/v1/user/repos', { headers: asAlice, body: { name: 'book', auto_init: true } });
    expect(created.statusCode).toBe(201);
    const wiki = await source.request('POST', '/api/v1/repos/alice/book/wiki/new', {
      headers: asAlice,
      body: { title: 'Home', content_base64: b64('v1') },
    });
    expect(wiki.statusCode, wiki.body).toBe(201);
  });
  afterAll(async () => {
    await target?.close();
    await source?.close();
  });

  it('a migration with wiki: true brings the wiki, served by the wiki API', async () => {
    const res = await migrate({ repo_name: 'copy', wiki: true });
    expect(res.statusCode, res.body).toBe(201);
    const home = await page('copy', 'Home');
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json()).toMatchObject({ title: 'Home', last_commit: { message: 'Add "Home"\n', author: { name: 'alice' } } });
    expect(text(home.json().content_base64)).toBe('v1');
    // Not a mirror: the copy's wiki is its own to edit.
    const edit = await target.request('PATCH', '/api/v1/repos/bob/copy/wiki/page/Home', {
      headers: asBob,
      body: { content_base64: b64('mine') },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    // Without the flag, no wiki.
    expect((await migrate({ repo_name: 'nowiki' })).statusCode).toBe(201);
    expect((await page('nowiki', 'Home')).statusCode).toBe(404);
  });

  it('a pull mirror’s wiki follows its source at every sync and is read-only', async () => {
    const res = await migrate({ repo_name: 'mirror', wiki: true, mirror: true, mirror_interval: '10m' });
    expect(res.statusCode, res.body).toBe(201);
    expect(text((await page('mirror', 'Home')).json().content_base64)).toBe('v1');
    const refused = await target.request('POST', '/api/v1/repos/bob/mirror/wiki/new', {
      headers: asBob,
      body: { title: 'X', content_base64: '' },
    });
    expect(refused.statusCode).toBe(403);

    const edit = await source.request('PATCH', '/api/v1/repos/alice/book/wiki/page/Home', {
      headers: asAlice,
      body: { content_base64: b64('v2') },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await source.request('POST', '/api/v1/repos/alice/book/wiki/new', {
      headers: asAlice,
      body: { title: 'Second', content_base64: b64('2') },
    });
    expect((await target.request('POST', '/api/v1/repos/bob/mirror/mirror-sync', { headers: asBob })).statusCode).toBe(200);
    await target.app.jobs.drain();
    await target.app.jobs.drain();
    const synced = await page('mirror', 'Home');
    expect(text(synced.json().content_base64)).toBe('v2');
    expect(synced.json()).toMatchObject({ commit_count: 2 });
    expect((await page('mirror', 'Second')).statusCode).toBe(200);
  });
});
