// GET/POST /repos/{o}/{r}/file-contents and GET …/contents-ext/{filepath} on both databases: several files in
// one answer (null for missing paths, Gitea's cap of 30), the GET form's JSON `body`, `ref`, contents-ext's
// `includes` (content only when asked, commit fields only when asked, 400 for unknown options), and the gates.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

type Entry = Record<string, unknown> & { path: string; type: string; content: string | null; encoding: string | null };

describe.each(PROVIDERS)('REST file-contents and contents-ext (%s)', (provider) => {
  let t: TestApp;
  const api = '/api/v1/repos/alice/code';
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  beforeAll(async () => {
    t = await startTestApp(provider);
    for (const n of ['alice', 'outsider']) await t.createUser(n);
    for (const [name, priv] of [
      ['code', false],
      ['secret', true],
    ] as const) {
      const res = await t.request('POST', '/api/v1/user/repos', {
        headers: basic('alice'),
        body: { name, private: priv, auto_init: true, default_branch: 'main' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const files = [
      { operation: 'create', path: 'a.txt', content: b64('alpha\n') },
      { operation: 'create', path: 'dir/b.txt', content: b64('beta\n') },
      ...Array.from({ length: 32 }, (_, i) => ({ operation: 'create', path: `many/f${i}.txt`, content: b64(`${i}\n`) })),
    ];
    const res = await t.request('POST', `${api}/contents`, { headers: basic('alice'), body: { files, message: 'files' } });
    expect(res.statusCode, res.body).toBe(201);
  });
  /** GET over a real socket with the path exactly as given. */
  const rawGet = async (path: string): Promise<{ status: number; body: string }> => {
    const server = t.app.server.server;
    if (!server.listening) await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
  };
  afterAll(async () => {
    await t.close();
  });

  it('POST answers each path in order: files with content, a directory entry, null for a missing path', async () => {
    const res = await t.request('POST', `${api}/file-contents`, { body: { files: ['dir/b.txt', 'missing.txt', 'a.txt', 'dir'] } });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as Array<Entry | null>;
    expect(list).toHaveLength(4);
    expect(list[0]).toMatchObject({
      path: 'dir/b.txt',
      type: 'file',
      encoding: 'base64',
      content: b64('beta\n'),
      last_commit_message: 'files\n',
    });
    expect(list[1]).toBeNull();
    expect(list[2]).toMatchObject({ path: 'a.txt', content: b64('alpha\n') });
    expect(list[3]).toMatchObject({ path: 'dir', type: 'dir', content: null });
  });

  it('answers at most 30 files; GET takes the body as JSON in the query; 400 for bad JSON; 404 for an unknown ref', async () => {
    const paths = Array.from({ length: 32 }, (_, i) => `many/f${i}.txt`);
    const res = await t.request('POST', `${api}/file-contents`, { body: { files: paths } });
    expect((res.json() as Entry[]).map((e) => e.path)).toEqual(paths.slice(0, 30));
    const get = await t.request('GET', `${api}/file-contents?body=${encodeURIComponent(JSON.stringify({ files: ['a.txt'] }))}&ref=main`);
    expect(get.statusCode, get.body).toBe(200);
    expect((get.json() as Entry[]).map((e) => e.content)).toEqual([b64('alpha\n')]);
    expectGiteaError(await t.request('GET', `${api}/file-contents?body=%7Bnope`), 400);
    expectGiteaError(await t.request('GET', `${api}/file-contents`), 400);
    expectGiteaError(await t.request('POST', `${api}/file-contents?ref=nope`, { body: { files: ['a.txt'] } }), 404);
    expect((await t.request('POST', `${api}/file-contents`, { body: {} })).json()).toEqual([]);
  });

  it('contents-ext lists a directory or describes a file, adding what `includes` asks for', async () => {
    // `.` is the root; sent over a socket as is (the test client, like curl, drops a `/.` segment).
    const root = await rawGet(`${api}/contents-ext/.`);
    expect(root.status, root.body).toBe(200);
    const dir = JSON.parse(root.body) as { dir_contents: Entry[]; file_contents?: unknown };
    expect(dir.file_contents).toBeUndefined();
    expect(dir.dir_contents.map((e) => e.path)).toEqual(expect.arrayContaining(['a.txt', 'dir', 'many', 'README.md']));
    expect(dir.dir_contents[0]).not.toHaveProperty('last_commit_sha');

    const plain = (await t.request('GET', `${api}/contents-ext/dir/b.txt`)).json() as { file_contents: Entry };
    expect(plain.file_contents).toMatchObject({ path: 'dir/b.txt', type: 'file', content: null, encoding: null });
    expect(plain.file_contents).not.toHaveProperty('last_commit_sha');
    expect(plain.file_contents).not.toHaveProperty('last_commit_message');

    const full = (await t.request('GET', `${api}/contents-ext/dir/b.txt?includes=file_content,commit_metadata&ref=main`)).json() as {
      file_contents: Entry;
    };
    expect(full.file_contents).toMatchObject({ content: b64('beta\n'), encoding: 'base64' });
    expect(full.file_contents.last_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(full.file_contents).not.toHaveProperty('last_commit_message');
    const msg = (await t.request('GET', `${api}/contents-ext/dir?includes=commit_message`)).json() as { dir_contents: Entry[] };
    expect(msg.dir_contents[0]).toMatchObject({ last_commit_message: 'files\n', content: null });
    expect(msg.dir_contents[0]).not.toHaveProperty('last_commit_sha');

    expectGiteaError(await t.request('GET', `${api}/contents-ext/a.txt?includes=everything`), 400, 'unknown include option "everything"');
    expectGiteaError(await t.request('GET', `${api}/contents-ext/nothing-here`), 404);
  });

  it('private repositories are 404 to others', async () => {
    const url = '/api/v1/repos/alice/secret';
    expect((await t.request('POST', `${url}/file-contents`, { headers: basic('alice'), body: { files: ['README.md'] } })).statusCode).toBe(
      200,
    );
    expectGiteaError(await t.request('POST', `${url}/file-contents`, { headers: basic('outsider'), body: { files: ['README.md'] } }), 404);
    expectGiteaError(await t.request('GET', `${url}/contents-ext/README.md`), 404);
    expectGiteaError(await t.request('GET', `${url}/contents-ext/README.md?includes=bogus`, { headers: basic('outsider') }), 404);
  });
});
