import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator } from '../helpers/fixtures.ts';
import { capturePushes, createRepoFixture, GitClient, gitUrl } from './gitClient.ts';

/** Who may clone and push, over the real git client (Gitea's access model, routers/web/repo/githttp.go). */
describe.each(PROVIDERS)('git smart HTTP access (%s)', (provider) => {
  let t: TestApp;
  let port: number;
  let git: GitClient;
  let owner: Models.User;
  let pushes: ReturnType<typeof capturePushes>;
  const as = (user: string, secret = PASSWORD) => ({ user, secret });

  /** A work tree with one commit on main, ready to push. */
  async function workTree(name: string): Promise<string> {
    const dir = git.dir(`${name}-${Math.random().toString(36).slice(2, 8)}`);
    await git.ok(['init', '-q', dir]);
    await git.commit(dir, 'file.txt', `${name}\n`);
    return dir;
  }

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.server.address() as AddressInfo).port;
    git = new GitClient();
    owner = await t.createUser('gowner');
    for (const u of ['reader', 'writer', 'outsider', 'teamwriter']) await t.createUser(u);
    pushes = capturePushes(t);

    const secret = await createRepoFixture(t, owner, 'secret', { isPrivate: true });
    const pub = await createRepoFixture(t, owner, 'pub');
    await createRepoFixture(t, owner, 'old', { isArchived: true });
    for (const repo of [secret, pub]) {
      await addCollaborator(t, repo, { name: 'reader' }, 'read');
      await addCollaborator(t, repo, { name: 'writer' }, 'write');
    }
    // Seed the private repository so clones have something to fetch.
    const seed = await workTree('seed');
    await git.ok(['push', '-q', gitUrl(port, 'gowner', 'secret', as('gowner')), 'main'], { cwd: seed });
    await git.ok(['push', '-q', gitUrl(port, 'gowner', 'old', as('gowner')), 'main'], { cwd: seed }).catch(() => undefined);
    await pushes.take();
  });
  afterAll(async () => {
    git?.dispose();
    await t?.close();
  });

  it('anonymous clone of a private repository fails after git asks for credentials', async () => {
    const r = await git.run(['clone', gitUrl(port, 'gowner', 'secret'), git.dir('anon-secret')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("could not read Username for 'http://127.0.0.1");
    const raw = await fetch(`http://127.0.0.1:${port}/gowner/secret.git/info/refs?service=git-upload-pack`);
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Basic realm="Gitea"');
  });

  it('a missing repository looks like a private one (401 anonymous, 404 signed in)', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/gowner/nope.git/info/refs?service=git-upload-pack`)).status).toBe(401);
    const r = await fetch(`http://127.0.0.1:${port}/gowner/nope.git/info/refs?service=git-upload-pack`, { headers: basic('outsider') });
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('Repository not found\n');
  });

  it('an outsider cannot clone a private repository (404)', async () => {
    const r = await git.run(['clone', gitUrl(port, 'gowner', 'secret', as('outsider')), git.dir('out-secret')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Repository not found|404/);
  });

  it('a read collaborator clones but cannot push (403)', async () => {
    const r = await git.run(['clone', '-q', gitUrl(port, 'gowner', 'secret', as('reader')), git.dir('reader-clone')]);
    expect(r.code, r.stderr).toBe(0);
    const dir = await workTree('reader');
    const p = await git.run(['push', gitUrl(port, 'gowner', 'secret', as('reader')), 'main:reader'], { cwd: dir });
    expect(p.code).not.toBe(0);
    expect(p.stderr).toContain('remote: User permission denied for writing.');
    expect(p.stderr).toContain('403');
    expect(await pushes.take()).toEqual([]);
  });

  it('anonymous push to a public repository is asked for credentials', async () => {
    const dir = await workTree('anon');
    const p = await git.run(['push', gitUrl(port, 'gowner', 'pub'), 'main'], { cwd: dir });
    expect(p.code).not.toBe(0);
    expect(p.stderr).toContain('could not read Username');
  });

  it('a write collaborator can push', async () => {
    const dir = await workTree('writer');
    const p = await git.run(['push', gitUrl(port, 'gowner', 'pub', as('writer')), 'main:from-writer'], { cwd: dir });
    expect(p.code, p.stderr).toBe(0);
    const writer = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'writer' } });
    const [event] = await pushes.take();
    expect(event?.pusherId).toBe(writer.id);
    expect(event?.updates.map((u) => u.ref)).toEqual(['refs/heads/from-writer']);
  });

  it('a team member with write on code can push to an organization repository', async () => {
    const headers = basic('gowner');
    expect((await t.request('POST', '/api/v1/orgs', { headers, body: { username: 'gorg' } })).statusCode).toBe(201);
    const org = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'gorg' } });
    await createRepoFixture(t, org, 'orepo', { isPrivate: true });
    const team = await t.request('POST', '/api/v1/orgs/gorg/teams', {
      headers,
      body: { name: 'coders', permission: 'write', units: ['repo.code'], units_map: { 'repo.code': 'write' } },
    });
    expect(team.statusCode, team.body).toBe(201);
    const teamId = (team.json() as { id: number }).id;
    expect((await t.request('PUT', `/api/v1/teams/${teamId}/members/teamwriter`, { headers })).statusCode).toBe(204);
    expect((await t.request('PUT', `/api/v1/teams/${teamId}/repos/gorg/orepo`, { headers })).statusCode).toBe(204);

    const dir = await workTree('team');
    const p = await git.run(['push', gitUrl(port, 'gorg', 'orepo', as('teamwriter')), 'main'], { cwd: dir });
    expect(p.code, p.stderr).toBe(0);
    const out = await git.run(['push', gitUrl(port, 'gorg', 'orepo', as('outsider')), 'main:x'], { cwd: dir });
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/Repository not found|404/);
    expect(await pushes.take()).toHaveLength(1);
  });

  it('an archived repository refuses pushes with a message, but can be cloned', async () => {
    const dir = await workTree('arch');
    const p = await git.run(['push', gitUrl(port, 'gowner', 'old', as('gowner')), 'main:new'], { cwd: dir });
    expect(p.code).not.toBe(0);
    expect(p.stderr).toContain(
      'remote: This repo is archived. You can view files and clone it, but cannot push or open issues/pull-requests.',
    );
    const c = await git.run(['clone', '-q', gitUrl(port, 'gowner', 'old'), git.dir('old-clone')]);
    expect(c.code, c.stderr).toBe(0);
  });

  it('token scopes: read:repository clones but cannot push, write:repository pushes', async () => {
    const read = await t.createToken('gowner', ['read:repository']);
    const c = await git.run(['clone', '-q', gitUrl(port, 'gowner', 'secret', as('gowner', read)), git.dir('tok-read')]);
    expect(c.code, c.stderr).toBe(0);
    const dir = await workTree('tok');
    const p = await git.run(['push', gitUrl(port, 'gowner', 'secret', as('gowner', read)), 'main:tok'], { cwd: dir });
    expect(p.code).not.toBe(0);
    expect(p.stderr).toContain('token does not have at least one of required scope(s), required=[write:repository]');
    const noRepo = await t.createToken('gowner', ['read:user']);
    const n = await git.run(['ls-remote', gitUrl(port, 'gowner', 'secret', as('gowner', noRepo))]);
    expect(n.code).not.toBe(0);
    expect(n.stderr).toContain('required=[read:repository]');
    const write = await t.createToken('gowner', ['write:repository']);
    const w = await git.run(['push', gitUrl(port, 'gowner', 'secret', as('gowner', write)), 'main:tok'], { cwd: dir });
    expect(w.code, w.stderr).toBe(0);
    expect(await pushes.take()).toHaveLength(1);
  });

  it('rejects a POST with the wrong content type (400) and dumb HTTP (403)', async () => {
    const r = await fetch(`http://127.0.0.1:${port}/gowner/pub.git/git-upload-pack`, {
      method: 'POST',
      body: '0000',
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(400);
    expect((await fetch(`http://127.0.0.1:${port}/gowner/pub.git/info/refs`)).status).toBe(403);
  });
});
