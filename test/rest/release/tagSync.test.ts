import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { createRepo } from '../../helpers/fixtures.ts';
import { GitClient, gitUrl } from '../../githttp/gitClient.ts';

describe.each(PROVIDERS)('pushed tags and releases (%s)', (provider) => {
  let t: TestApp;
  let git: GitClient;
  let alice: Models.User;
  let work: string;
  let url: string;
  const api = '/api/v1/repos/alice/proj';
  const events: Array<{ type: string; action: string }> = [];

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    git = new GitClient();
    alice = await t.createUser('alice');
    await createRepo(t, alice, 'proj', { autoInit: true });
    url = gitUrl((t.app.server.server.address() as AddressInfo).port, 'alice', 'proj', { user: 'alice', secret: PASSWORD });
    t.app.deps.notifier.subscribe({
      name: 'test-releases',
      handle(e) {
        if (e.type.startsWith('release.') && 'action' in e) events.push({ type: e.type, action: e.action });
      },
    });
    work = git.dir('work');
    await git.ok(['clone', '-q', url, work]);
  });
  afterAll(async () => {
    git.dispose();
    t.app.server.server.closeAllConnections();
    await t.close();
  });

  it('a pushed tag gets a bare-tag row (no release); a release of it keeps the pushed commit', async () => {
    const sha = await git.commit(work, 'a.txt', 'a\n', 'second');
    await git.ok(['push', '-q', 'origin', 'main'], { cwd: work });
    await git.ok(['tag', '-a', 'v1', '-m', 'pushed tag'], { cwd: work });
    await git.ok(['push', '-q', 'origin', 'v1'], { cwd: work });
    const row = await t.db.release.findFirst({ where: { repo: { name: 'proj' }, lowerTagName: 'v1' } });
    expect(row).toMatchObject({ isTag: true, sha1: sha, numCommits: 2, publisherId: alice.id, note: 'pushed tag\n' });
    expect((await t.request('GET', `${api}/releases`)).json<unknown[]>()).toEqual([]);
    expect((await t.request('GET', `${api}/releases/tags/v1`)).statusCode).toBe(404);

    const rel = await t.request('POST', `${api}/releases`, { headers: basic('alice'), body: { tag_name: 'v1', name: 'One' } });
    expect(rel.statusCode).toBe(201);
    expect(rel.json<{ id: number; tag_name: string }>().id).toBe(row!.id);
    expect(await t.db.release.findUniqueOrThrow({ where: { id: row!.id } })).toMatchObject({ isTag: false, sha1: sha });
    // Gitea announces a bare tag turned release as `updated` (its tag existed).
    await t.app.deps.notifier.drain();
    expect(events.splice(0)).toEqual([{ type: 'release.updated', action: 'updated' }]);
  });

  it('deleting a tag by push turns its release into a draft', async () => {
    await git.ok(['push', '-q', 'origin', ':refs/tags/v1'], { cwd: work });
    const rel = await t.request('GET', `${api}/releases/tags/v1`, { headers: basic('alice') });
    expect(rel.json<{ draft: boolean }>().draft).toBe(true);
    expect((await t.request('GET', `${api}/releases/tags/v1`)).statusCode).toBe(404);
    // Publishing it again re-creates the tag at the default branch.
    const id = rel.json<{ id: number }>().id;
    expect((await t.request('PATCH', `${api}/releases/${id}`, { headers: basic('alice'), body: { draft: false } })).statusCode).toBe(200);
    await t.app.deps.notifier.drain();
    expect(events.splice(0)).toEqual([{ type: 'release.published', action: 'published' }]);
    const remote = await git.ok(['ls-remote', '--tags', url]);
    expect(remote).toContain('refs/tags/v1');
  });
});
