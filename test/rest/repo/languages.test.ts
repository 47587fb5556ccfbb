// GET /repos/{o}/{r}/languages on both databases: detection from the default branch (pushed with the real git
// client), exclusions, the LanguageStat cache keyed by commit, recomputation after a push, gates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { addCollaborator } from '../../helpers/fixtures.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { PullFixture } from '../../helpers/pull.ts';
import { languageOf, languageSizes } from '../../../src/services/repo/languageDetect.ts';

const as = (viewer: string): Record<string, string> => (viewer === 'anon' ? {} : basic(viewer));

describe('language detection', () => {
  it('names languages by extension and file name, grouped as linguist groups them', () => {
    expect(languageOf('main.go')?.name).toBe('Go');
    expect(languageOf('src/app.ts')?.name).toBe('TypeScript');
    expect(languageOf('src/view.tsx')?.name).toBe('TypeScript');
    expect(languageOf('lib/x.h')?.name).toBe('C');
    expect(languageOf('Makefile')?.name).toBe('Makefile');
    expect(languageOf('README.md')?.name).toBe('Markdown');
    expect(languageOf('blob.unknownext')).toBeNull();
  });

  it('skips vendored, generated, documentation, dotfiles, configuration and prose', () => {
    const sizes = languageSizes([
      { path: 'main.go', size: 100 },
      { path: 'vendor/x/y.go', size: 1000 },
      { path: 'node_modules/a/index.js', size: 1000 },
      { path: 'api/x.pb.go', size: 1000 },
      { path: 'docs/guide.py', size: 1000 },
      { path: '.github/ci.py', size: 1000 },
      { path: 'config.yaml', size: 1000 },
      { path: 'README.md', size: 1000 },
      { path: 'web/index.html', size: 30 },
      { path: 'web/app.min.js', size: 1000 },
    ]);
    expect(Object.fromEntries(sizes)).toEqual({ Go: 100, HTML: 30 });
  });

  it('reports the first other language alone when nothing programming or markup is there', () => {
    expect(
      Object.fromEntries(
        languageSizes([
          { path: 'notes.txt', size: 5 },
          { path: 'more.txt', size: 7 },
        ]),
      ),
    ).toEqual({ Text: 12 });
  });
});

describe.each(PROVIDERS)('REST repository languages (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'outsider', 'reader']) await t.createUser(n);
    f = await PullFixture.start(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('bytes per language of the default branch, keys sorted; cached by commit; recomputed after a push', async () => {
    const repo = await f.createRepo('alice', 'code');
    await f.push('alice', 'code', 'alice', 'main', {
      'main.go': 'package main\n',
      'util/x.py': 'print(1)\n',
      'vendor/v.go': 'package v\n',
    });
    const res = await t.request('GET', '/api/v1/repos/alice/code/languages');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('{"Go":13,"Python":9}\n');
    const rows = await t.db.languageStat.findMany({ where: { repoId: repo.id }, orderBy: { size: 'desc' } });
    expect(rows.map((r) => [r.language, Number(r.size), r.isPrimary])).toEqual([
      ['Go', 13, true],
      ['Python', 9, false],
    ]);
    expect((await t.request('GET', '/api/v1/repos/alice/code')).json().language).toBe('Go');
    // Cached: the same commit is served from the rows.
    t.queries.length = 0;
    expect((await t.request('GET', '/api/v1/repos/alice/code/languages')).json()).toEqual({ Go: 13, Python: 9 });
    expect(t.queries.some((q) => /INSERT/i.test(q))).toBe(false);
    await f.push('alice', 'code', 'alice', 'main', { 'big.py': 'x = 1\n'.repeat(10) });
    expect((await t.request('GET', '/api/v1/repos/alice/code/languages')).json()).toEqual({ Go: 13, Python: 69 });
    expect((await t.request('GET', '/api/v1/repos/alice/code')).json().language).toBe('Python');
  });

  it('an empty repository has none; a private one is 404 to outsiders and readable by collaborators', async () => {
    await t.request('POST', '/api/v1/user/repos', { headers: as('alice'), body: { name: 'empty' } });
    expect((await t.request('GET', '/api/v1/repos/alice/empty/languages')).json()).toEqual({});
    const priv = await f.createRepo('alice', 'secret', { private: true });
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/secret/languages', { headers: as('outsider') }), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/secret/languages'), 404);
    await addCollaborator(t, priv, await t.db.user.findFirstOrThrow({ where: { name: 'reader' } }), 'read');
    expect((await t.request('GET', '/api/v1/repos/alice/secret/languages', { headers: as('reader') })).statusCode).toBe(200);
  });
});
