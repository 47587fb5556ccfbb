import type { AddressInfo } from 'node:net';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo } from '../../helpers/fixtures.ts';

describe.each(PROVIDERS)('gitea-js 1.23 against releases and assets (%s)', (provider) => {
  let t: TestApp;
  let base: string;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}`;
    const alice = await t.createUser('alice');
    await createRepo(t, alice, 'proj', { autoInit: true });
    token = await t.createToken('alice', ['write:repository']);
  });
  afterAll(async () => {
    // A streamed download's response may finish a moment after the client has every byte: its keep-alive
    // connection is not idle when close starts and would hold close for the keep-alive timeout (72 s).
    t.app.server.server.closeAllConnections();
    await t.close();
  });

  it('creates a release, edits it, uploads an asset and downloads it unchanged', async () => {
    const api = giteaApi(base, { token });
    const created = await api.repos.repoCreateRelease('alice', 'proj', { tag_name: 'v1.0.0', name: 'One', body: 'first', draft: true });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ tag_name: 'v1.0.0', name: 'One', draft: true });

    const edited = await api.repos.repoEditRelease('alice', 'proj', created.data.id!, { draft: false, body: 'published' });
    expect(edited.data).toMatchObject({ draft: false, body: 'published', name: 'One' });
    const tags = await api.repos.repoListTags('alice', 'proj');
    expect(tags.data.map((tag) => tag.name)).toEqual(['v1.0.0']);

    const bytes = new Uint8Array(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const file = new File([bytes], 'app.bin', { type: 'application/octet-stream' });
    const asset = await api.repos.repoCreateReleaseAttachment(
      'alice',
      'proj',
      created.data.id!,
      { attachment: file },
      { name: 'app-linux.bin' },
    );
    expect(asset.status).toBe(201);
    expect(asset.data).toMatchObject({ name: 'app-linux.bin', size: 70_000 });

    const listed = await api.repos.repoListReleaseAttachments('alice', 'proj', created.data.id!);
    expect(listed.data.map((a) => a.name)).toEqual(['app-linux.bin']);
    const got = await api.repos.repoGetReleaseByTag('alice', 'proj', 'v1.0.0');
    expect(got.data.assets?.map((a) => a.uuid)).toEqual([asset.data.uuid]);

    const download = await fetch(asset.data.browser_download_url!.replace('http://localhost:3000', base), {
      headers: { authorization: `token ${token}` },
    });
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });
});
