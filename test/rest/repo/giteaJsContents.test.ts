import type { AddressInfo } from 'node:net';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepoFixture } from '../../githttp/gitClient.ts';

describe.each(PROVIDERS)('gitea-js: branches, files, commits and trees (%s)', (provider) => {
  let t: TestApp;
  let api: ReturnType<typeof giteaApi>;

  beforeAll(async () => {
    t = await startTestApp(provider);
    const alice = await t.createUser('alice');
    await createRepoFixture(t, alice, 'demo');
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.server.address() as AddressInfo;
    api = giteaApi(`http://127.0.0.1:${port}`, { token: await t.createToken('alice') });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a file, a branch, a file on it, then lists commits and reads the tree', async () => {
    const first = await api.repos.repoCreateFile('alice', 'demo', 'README.md', { content: Buffer.from('# demo\n').toString('base64') });
    expect(first.status).toBe(201);
    expect(first.data.content?.path).toBe('README.md');

    const branch = await api.repos.repoCreateBranch('alice', 'demo', { new_branch_name: 'feature', old_branch_name: 'main' });
    expect(branch.status).toBe(201);
    expect(branch.data.name).toBe('feature');
    expect(branch.data.commit?.id).toBe(first.data.commit?.sha);

    const file = await api.repos.repoCreateFile('alice', 'demo', 'src/app.ts', {
      content: Buffer.from('export {};\n').toString('base64'),
      branch: 'feature',
      message: 'add app',
      author: { name: 'Ann', email: 'ann@example.com' },
    });
    expect(file.status).toBe(201);
    expect(file.data.commit?.message).toBe('add app\n');
    expect(file.data.commit?.author?.name).toBe('Ann');

    const commits = await api.repos.repoGetAllCommits('alice', 'demo', { sha: 'feature', limit: 10 });
    expect(commits.status).toBe(200);
    expect(commits.data.map((c) => c.commit?.message)).toEqual(['add app\n', "Add 'README.md'\n"]);
    expect(commits.headers.get('x-total-count')).toBe('2');

    const tree = await api.repos.getTree('alice', 'demo', 'feature', { recursive: true });
    expect(tree.status).toBe(200);
    expect(tree.data.tree?.map((e) => `${e.type}:${e.path}`)).toEqual(['blob:README.md', 'tree:src', 'blob:src/app.ts']);
    expect(tree.data.truncated).toBe(false);

    const stale = await api.repos
      .repoUpdateFile('alice', 'demo', 'README.md', { content: Buffer.from('x').toString('base64'), sha: 'f'.repeat(40) })
      .catch((e: Response) => e);
    expect((stale as Response).status).toBe(422);
  });
});
