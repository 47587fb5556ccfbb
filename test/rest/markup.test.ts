// POST /markdown, /markdown/raw and /markup (Gitea routers/api/v1/misc/markup.go): Gitea's modes, references and
// mentions linked only where the viewer may look, relative links against the context, sanitized HTML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { readRef } from '../../src/git/readRefs.ts';
import { repoPath } from '../../src/git/repoPath.ts';
import { MAX_MARKUP_BYTES } from '../../src/services/markup/markup.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createRepo } from '../helpers/fixtures.ts';
import { expectGiteaError } from '../helpers/giteaAssert.ts';

describe.each(PROVIDERS)('markup rendering (%s)', (provider) => {
  let t: TestApp;
  let owner: Models.User;
  let sha: string;

  const render = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await t.request('POST', `/api/v1${path}`, { body, headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    owner = await t.createUser('mowner');
    await t.createUser('friend');
    await t.createUser('hidden', { visibility: 'PRIVATE' });
    await t.createUser('limited', { visibility: 'LIMITED' });
    await t.createUser('insider');
    const repo = await createRepo(t, owner, 'docs', { autoInit: true });
    await createRepo(t, owner, 'secret', { private: true });
    await addCollaborator(t, { ownerName: 'mowner', name: 'secret' }, { name: 'insider' }, 'read');
    sha = (await readRef(repoPath(t.config.repositoriesDir, 'mowner', repo.name), 'refs/heads/main')) ?? '';
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('renders GFM (tables, strikethrough, autolinks, task lists, heading ids) in document mode', async () => {
    const html = await render('/markdown', {
      Mode: 'gfm',
      Text: '# What is it?\n\n| a | b |\n|---|---|\n| 1 | ~~2~~ |\n\nhttps://example.com/x\n\n- [ ] todo\n- [x] done',
    });
    expect(html).toContain('<h1 id="user-content-what-is-it">What is it?</h1>');
    expect(html).toContain('<td><s>2</s></td>');
    expect(html).toContain('<a href="https://example.com/x" rel="nofollow">https://example.com/x</a>');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" disabled');
    expect(html).toMatch(/<input type="checkbox" disabled checked[^>]*\/>done/);
  });

  it('the raw mode renders markdown without mentions, references, emoji or wiki links', async () => {
    const html = await render('/markdown', { Mode: 'markdown', Text: 'hi @friend #1 :smile: [[Name|Link]]' });
    expect(html).toBe('<p>hi @friend #1 :smile: [[Name|Link]]</p>\n');
    // Empty text is an empty document (Gitea's test).
    expect(await render('/markdown', { Text: '' })).toBe('');
  });

  it('POST /markdown/raw renders the plain-text body as it came', async () => {
    const res = await t.request('POST', '/api/v1/markdown/raw', {
      payload: '{"not": "json"} **bold**',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe('<p>{"not": "json"} <strong>bold</strong></p>\n');
    const json = await t.request('POST', '/api/v1/markdown/raw', { payload: '_x_', headers: { 'content-type': 'application/json' } });
    expect(json.body).toBe('<p><em>x</em></p>\n');
  });

  it('comment mode links #1, !2, commit ids of the context repository and visible mentions', async () => {
    const html = await render('/markdown', {
      Mode: 'comment',
      Context: '/mowner/docs',
      Text: `see #1 and !2, fixed in ${sha.slice(0, 8)} (not 1234567abc), thanks @friend\nnext line`,
    });
    expect(html).toContain('<a href="http://localhost:3000/mowner/docs/issues/1" class="ref-issue" rel="nofollow">#1</a>');
    expect(html).toContain('<a href="http://localhost:3000/mowner/docs/pulls/2" class="ref-issue" rel="nofollow">!2</a>');
    expect(html).toContain(
      `<a href="http://localhost:3000/mowner/docs/commit/${sha.slice(0, 8)}" class="commit" rel="nofollow"><code class="nohighlight">${sha.slice(0, 8)}</code></a>`,
    );
    // A hexadecimal word that names no commit stays text.
    expect(html).toContain('(not 1234567abc)');
    expect(html).toContain('<a href="http://localhost:3000/friend" rel="nofollow">@friend</a>');
    // Comments keep their line breaks.
    expect(html).toContain('<br />\nnext line');
  });

  it('documents (gfm) link only owner/repo#1, not #1', async () => {
    const html = await render('/markdown', { Mode: 'gfm', Context: '/mowner/docs', Text: 'see #1 and mowner/docs#2' });
    expect(html).toContain(
      'see #1 and <a href="http://localhost:3000/mowner/docs/issues/2" class="ref-issue" rel="nofollow">mowner/docs#2</a>',
    );
  });

  it('references into a private repository link only for viewers who can read it', async () => {
    const body = { Mode: 'comment', Text: 'see mowner/secret#3 and mowner/secret@abcdef1 and mowner/nope#4' };
    const anon = await render('/markdown', body);
    expect(anon).toBe('<p>see mowner/secret#3 and mowner/secret@abcdef1 and mowner/nope#4</p>\n');
    const outsider = await render('/markdown', body, basic('friend'));
    expect(outsider).not.toContain('<a');
    const insider = await render('/markdown', body, basic('insider'));
    expect(insider).toContain(
      '<a href="http://localhost:3000/mowner/secret/issues/3" class="ref-issue" rel="nofollow">mowner/secret#3</a>',
    );
    expect(insider).toContain(
      '<a href="http://localhost:3000/mowner/secret/commit/abcdef1" class="commit" rel="nofollow">mowner/secret@abcdef1</a>',
    );
    expect(insider).toContain('mowner/nope#4');
    // A private context repository gives no short references to an outsider either.
    const ctx = { Mode: 'comment', Context: '/mowner/secret', Text: 'see #5' };
    expect(await render('/markdown', ctx, basic('friend'))).toBe('<p>see #5</p>\n');
    expect(await render('/markdown', ctx, basic('insider'))).toContain('/mowner/secret/issues/5');
  });

  it('mentions link existing users the viewer may see (private ones never, limited ones to signed-in viewers)', async () => {
    const body = { Mode: 'comment', Text: '@hidden @limited @nobody @friend' };
    const anon = await render('/markdown', body);
    expect(anon).toBe('<p>@hidden @limited @nobody <a href="http://localhost:3000/friend" rel="nofollow">@friend</a></p>\n');
    const signedIn = await render('/markdown', body, basic('friend'));
    expect(signedIn).toContain('<a href="http://localhost:3000/limited" rel="nofollow">@limited</a>');
    expect(signedIn).toContain('@hidden ');
    expect(signedIn).not.toContain('/hidden"');
  });

  it('renders emoji shortcodes as Gitea does, and leaves unknown ones and :) alone', async () => {
    const html = await render('/markdown', { Mode: 'comment', Text: ':tada: :not_an_emoji: :)' });
    expect(html).toBe('<p><span aria-label="tada" class="emoji">🎉</span> :not_an_emoji: :)</p>\n');
  });

  it('wiki mode: [[links]], wiki-relative links and images, short references', async () => {
    const html = await render('/markup', {
      Mode: 'wiki',
      Context: '/mowner/docs',
      Text: '[[Home Page]] [[Name|Other-Page]] [[images/icon.png]] [a](Page) [b](file.zip) ![c](pic.png) #7',
    });
    expect(html).toContain('<a href="http://localhost:3000/mowner/docs/wiki/Home-Page" rel="nofollow">Home Page</a>');
    expect(html).toContain('<a href="http://localhost:3000/mowner/docs/wiki/Other-Page" rel="nofollow">Name</a>');
    expect(html).toContain(
      '<a href="http://localhost:3000/mowner/docs/wiki/raw/images/icon.png" rel="nofollow"><img src="http://localhost:3000/mowner/docs/wiki/raw/images/icon.png" alt="images/icon.png" title="icon.png" /></a>',
    );
    expect(html).toContain('<a href="http://localhost:3000/mowner/docs/wiki/Page" rel="nofollow">a</a>');
    expect(html).toContain('<a href="http://localhost:3000/mowner/docs/wiki/raw/file.zip" rel="nofollow">b</a>');
    expect(html).toContain('<img src="http://localhost:3000/mowner/docs/wiki/raw/pic.png" alt="c" />');
    expect(html).toContain('/mowner/docs/issues/7');
    // The deprecated Wiki flag is the wiki mode.
    expect(await render('/markdown', { Wiki: true, Context: '/mowner/docs', Text: '[[Tips]]' })).toContain('/mowner/docs/wiki/Tips"');
  });

  it('file mode resolves relative links and images against the previewed ref and directory', async () => {
    const html = await render('/markup', {
      Mode: 'file',
      Context: '/mowner/docs/src/branch/main/doc',
      FilePath: 'doc/README.md',
      Text: '[guide](guide.md) [up](../LICENSE) [abs](/top.md) ![logo](img/logo.png) [anchor](#usage) [web](https://x.org)',
    });
    expect(html).toContain('href="http://localhost:3000/mowner/docs/src/branch/main/doc/guide.md"');
    expect(html).toContain('href="http://localhost:3000/mowner/docs/src/branch/main/LICENSE"');
    expect(html).toContain('href="http://localhost:3000/top.md"');
    expect(html).toContain('src="http://localhost:3000/mowner/docs/media/branch/main/doc/img/logo.png"');
    expect(html).toContain('href="#user-content-usage"');
    expect(html).toContain('href="https://x.org"');
  });

  it('lower-case option names are accepted (Go decodes field names case-insensitively)', async () => {
    const html = await render('/markup', { mode: 'comment', context: '/mowner/docs', text: '#9' });
    expect(html).toContain('/mowner/docs/issues/9');
  });

  it('sanitizes: no scripts, event handlers, javascript: URLs, forged classes or free styles', async () => {
    const html = await render('/markdown', {
      Mode: 'comment',
      Text: [
        '<script>alert(1)</script><img src=x onerror="alert(2)"> <a href="javascript:alert(3)">js</a>',
        '[md](javascript:alert(4)) <iframe src="https://evil"></iframe> <style>body{}</style>',
        '<a class="ref-issue" href="/x" onclick="y()">forged</a> <span class="emoji" style="color: red; position: fixed">s</span>',
        '<input type="text" value="x"> <form action="/x"><button>b</button></form> <svg onload="alert(5)"></svg>',
        '<div id="main" style="background-color: #fff">d</div> <a href="#frag">f</a>',
      ].join('\n\n'),
    });
    for (const bad of [
      '<script',
      'alert(1)',
      'onerror',
      'onclick',
      'href="javascript',
      '<iframe',
      '<style',
      'position',
      '<form',
      '<svg',
      'type="text"',
    ]) {
      expect(html).not.toContain(bad);
    }
    // A markdown link to a javascript: URL is no link at all (markdown-it refuses it), so it stays text.
    expect(html).toContain('<p>[md](javascript:alert(4))');
    expect(html).toContain('<a href="/x" rel="nofollow">forged</a>');
    expect(html).toContain('<span style="color:red">s</span>');
    expect(html).toContain('<div id="user-content-main" style="background-color:#fff">d</div>');
    expect(html).toContain('<a href="#user-content-frag" rel="nofollow">f</a>');
  });

  it('bad input: unknown mode, a file that is not markdown, text over the limit', async () => {
    expectGiteaError(
      await t.request('POST', '/api/v1/markup', { body: { Mode: 'unknown', Text: '## Test' } }),
      422,
      'Unknown mode: unknown',
    );
    expectGiteaError(
      await t.request('POST', '/api/v1/markup', { body: { Mode: 'file', FilePath: 'path/test.unknown', Text: '## Test' } }),
      422,
      'unsupported file to render: "path/test.unknown"',
    );
    expectGiteaError(
      await t.request('POST', '/api/v1/markdown', { body: { Mode: 'gfm', Text: 'x'.repeat(MAX_MARKUP_BYTES + 1) } }),
      413,
      `the text to render is ${MAX_MARKUP_BYTES + 1} bytes, more than the limit of ${MAX_MARKUP_BYTES} bytes`,
    );
    expectGiteaError(
      await t.request('POST', '/api/v1/markdown', { payload: '{"Text": ', headers: { 'content-type': 'application/json' } }),
      422,
    );
  });
});
