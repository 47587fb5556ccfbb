import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';

interface Note {
  message: string;
  commit: { sha: string; files: unknown[] | null; stats: { total: number } | null; commit: { verification: unknown } };
}

describe.each(PROVIDERS)('GET /repos/{o}/{r}/git/notes/{sha} (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let noted = '';
  let bare = '';
  let notesTip = '';

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    await t.createUser('alice');
    await t.createUser('stranger');
    await f.createRepo('alice', 'demo');
    await f.createRepo('alice', 'secret', { private: true });
    noted = await f.push('alice', 'demo', 'alice', 'main', { 'one.txt': '1\n' });
    bare = await f.push('alice', 'demo', 'alice', 'main', { 'two.txt': '2\n' });
    const dir = await f.workTree('alice', 'demo', 'alice');
    await f.git.ok(['notes', 'add', '-m', 'reviewed by the release team', noted], { cwd: dir });
    await f.git.ok(['push', '-q', 'origin', 'refs/notes/commits'], { cwd: dir });
    notesTip = (await f.git.ok(['rev-parse', 'refs/notes/commits'], { cwd: dir })).trim();
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  const get = (sha: string, query = '', user: string | null = 'alice', repo = 'demo') =>
    t.request('GET', `/api/v1/repos/alice/${repo}/git/notes/${sha}${query}`, user ? { headers: basic(user) } : {});

  it('answers the note and the notes commit that wrote it, with files and verification by default', async () => {
    const res = await get(noted);
    expect(res.statusCode, res.body).toBe(200);
    const note = res.json() as Note;
    expect(note.message).toBe('reviewed by the release team\n');
    expect(note.commit.sha).toBe(notesTip);
    expect(note.commit.files).not.toBeNull();
    expect(note.commit.stats?.total).toBeGreaterThan(0);
    expect(note.commit.commit.verification).not.toBeNull();
  });

  it('takes an abbreviated id; files=false and verification=false leave them out', async () => {
    expect(((await get(noted.slice(0, 10))).json() as Note).message).toBe('reviewed by the release team\n');
    const res = await get(noted, '?files=false&verification=false');
    expect(res.statusCode, res.body).toBe(200);
    const note = res.json() as Note;
    expect(note.commit.files).toBeNull();
    expect(note.commit.commit.verification).toBeNull();
    expect(note.commit.stats).not.toBeNull();
  });

  it('404 for a commit without a note, an unknown commit, or a repository the viewer cannot see; anonymous reads public notes', async () => {
    expectGiteaError(await get(bare), 404);
    expectGiteaError(await get('0123456789abcdef0123456789abcdef01234567'), 404);
    expectGiteaError(await get('main', '', 'stranger', 'secret'), 404);
    expect((await get(noted, '', null)).statusCode).toBe(200);
  });
});
