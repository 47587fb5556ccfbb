// GET /repos/{o}/{r}/editorconfig/{filepath} on both databases: sections matched by editorconfig globs (basename
// anywhere, paths from the root, braces, numeric ranges, `**`), later sections winning, Gitea's four encoded
// properties, `ref`, 404 without .editorconfig, and the read gate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { definitionFor, parseEditorConfig } from '../../../src/services/repo/editorconfig.ts';

const CONFIG = `root = true

[*]
charset = UTF-8
end_of_line = LF
indent_style = space
indent_size = 2
insert_final_newline = true

[*.go]
indent_style = Tab ; tabs for Go
indent_size = tab

[Makefile]
indent_style = tab

[lib/**.js]
indent_size = 4

[{package.json,.travis.yml}]
indent_size = 8

[file{1..3}.txt]
end_of_line = crlf
`;

describe('editorconfig matching', () => {
  const sections = parseEditorConfig(CONFIG);
  it('merges the matching sections, later ones winning, lower-casing what Gitea does', () => {
    expect(definitionFor(sections, 'main.go')).toEqual({ charset: 'utf-8', end_of_line: 'lf', indent_style: 'tab', indent_size: 'tab' });
    expect(definitionFor(sections, 'cmd/x/main.go')).toMatchObject({ indent_style: 'tab' });
    expect(definitionFor(sections, 'sub/Makefile')).toMatchObject({ indent_style: 'tab', indent_size: '2' });
    expect(definitionFor(sections, 'lib/a/b.js')).toMatchObject({ indent_size: '4' });
    expect(definitionFor(sections, 'src/lib/b.js')).toMatchObject({ indent_size: '2' });
    expect(definitionFor(sections, 'package.json')).toMatchObject({ indent_size: '8' });
    expect(definitionFor(sections, 'file2.txt')).toMatchObject({ end_of_line: 'crlf' });
    expect(definitionFor(sections, 'file4.txt')).toMatchObject({ end_of_line: 'lf' });
  });

  it('answers {} when nothing matches', () => {
    expect(definitionFor(parseEditorConfig('[*.py]\nindent_size = 4\n'), 'a.go')).toEqual({});
  });
});

describe.each(PROVIDERS)('REST editorconfig (%s)', (provider) => {
  let t: TestApp;
  const put = (repo: string, path: string, content: string, branch?: string) =>
    t.request('POST', `/api/v1/repos/alice/${repo}/contents/${path}`, {
      headers: basic('alice'),
      body: { content: Buffer.from(content).toString('base64'), ...(branch ? { new_branch: branch } : {}) },
    });

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'outsider']) await t.createUser(n);
    for (const [name, priv] of [
      ['code', false],
      ['secret', true],
    ] as const) {
      const res = await t.request('POST', '/api/v1/user/repos', {
        headers: basic('alice'),
        body: { name, auto_init: true, private: priv, default_branch: 'main' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('404 while the repository has no .editorconfig; then the definition of a path, at a ref', async () => {
    expectGiteaError(
      await t.request('GET', '/api/v1/repos/alice/code/editorconfig/main.go'),
      404,
      'object does not exist [id: , rel_path: .editorconfig]',
    );
    expect((await put('code', '.editorconfig', CONFIG)).statusCode).toBe(201);
    const res = await t.request('GET', '/api/v1/repos/alice/code/editorconfig/cmd/tool/main.go');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ charset: 'utf-8', indent_style: 'tab', indent_size: 'tab', end_of_line: 'lf' });
    expect((await t.request('GET', '/api/v1/repos/alice/code/editorconfig/README.md')).json()).toEqual({
      charset: 'utf-8',
      indent_style: 'space',
      indent_size: '2',
      end_of_line: 'lf',
    });
    // Another branch with another configuration.
    const branch = await t.request('POST', '/api/v1/repos/alice/code/branches', {
      headers: basic('alice'),
      body: { new_branch_name: 'other' },
    });
    expect(branch.statusCode, branch.body).toBe(201);
    const sha = (await t.request('GET', '/api/v1/repos/alice/code/contents/.editorconfig?ref=other')).json().sha as string;
    const upd = await t.request('PUT', '/api/v1/repos/alice/code/contents/.editorconfig', {
      headers: basic('alice'),
      body: { content: Buffer.from('[*.md]\nindent_size = 3\n').toString('base64'), sha, branch: 'other' },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect((await t.request('GET', '/api/v1/repos/alice/code/editorconfig/README.md?ref=other')).json()).toEqual({ indent_size: '3' });
    expect((await t.request('GET', '/api/v1/repos/alice/code/editorconfig/x.go?ref=other')).json()).toEqual({});
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/code/editorconfig/x.go?ref=nope'), 404);
  });

  it('private repositories are 404 to others', async () => {
    expect((await put('secret', '.editorconfig', CONFIG)).statusCode).toBe(201);
    expect((await t.request('GET', '/api/v1/repos/alice/secret/editorconfig/a.go', { headers: basic('alice') })).statusCode).toBe(200);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/secret/editorconfig/a.go', { headers: basic('outsider') }), 404);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/secret/editorconfig/a.go'), 404);
  });
});
