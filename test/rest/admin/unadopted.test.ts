import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

/** /admin/unadopted: bare repositories on disk without a row are listed, adopted or deleted by site admins. */
describe.each(PROVIDERS)('unadopted repositories (%s)', (provider) => {
  let t: TestApp;
  const dir = (owner: string, name: string) => repoPath(t.config.repositoriesDir, owner, name);
  const list = async (query = '') => {
    const res = await t.request('GET', `/api/v1/admin/unadopted${query}`, { headers: basic('root') });
    expect(res.statusCode, res.body).toBe(200);
    return { names: res.json<string[]>(), total: res.headers['x-total-count'] };
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    await t.createUser('bob');
    const made = await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'seed', auto_init: true } });
    expect(made.statusCode).toBe(201);
    for (const [owner, name] of [
      ['alice', 'stray'],
      ['alice', 'other'],
      ['bob', 'lost'],
      ['nobody', 'orphan'],
    ] as const) {
      mkdirSync(path.dirname(dir(owner, name)), { recursive: true });
      cpSync(dir('alice', 'seed'), dir(owner, name), { recursive: true });
    }
    cpSync(dir('alice', 'seed'), repoPath(t.config.repositoriesDir, 'alice', 'stray.wiki'), { recursive: true });
  });
  afterAll(() => t?.close());

  it('lists owner/name of directories with no row (known owners only), filtered and paged', async () => {
    expect(await list()).toEqual({ names: ['alice/other', 'alice/stray', 'bob/lost'], total: '3' });
    expect((await list('?query=bob')).names).toEqual(['bob/lost']);
    expect((await list('?query=ALICE/st*')).names).toEqual(['alice/stray']);
    expect((await list('?pattern=*/o*')).names).toEqual(['alice/other']);
    expect(await list('?limit=1&page=2')).toEqual({ names: ['alice/stray'], total: '3' });
    expectGiteaError(await t.request('GET', '/api/v1/admin/unadopted', { headers: basic('alice') }), 403);
    expectGiteaError(await t.request('GET', '/api/v1/admin/unadopted'), 401);
  });

  it('adopts a directory as a private repository with its branches', async () => {
    expectGiteaError(await t.request('POST', '/api/v1/admin/unadopted/alice/stray', { headers: basic('alice') }), 403);
    expectGiteaError(await t.request('POST', '/api/v1/admin/unadopted/alice/seed', { headers: basic('root') }), 404);
    expectGiteaError(await t.request('POST', '/api/v1/admin/unadopted/alice/missing', { headers: basic('root') }), 404);
    expectGiteaError(await t.request('POST', '/api/v1/admin/unadopted/nobody/orphan', { headers: basic('root') }), 404);
    expectGiteaError(await t.request('POST', '/api/v1/admin/unadopted/alice/a..b', { headers: basic('root') }), 422);
    const res = await t.request('POST', '/api/v1/admin/unadopted/alice/stray', { headers: basic('root') });
    expect(res.statusCode, res.body).toBe(204);
    const repo = await t.request('GET', '/api/v1/repos/alice/stray', { headers: basic('alice') });
    expect(repo.json()).toMatchObject({ full_name: 'alice/stray', private: true, empty: false, default_branch: 'main' });
    const branches = await t.request('GET', '/api/v1/repos/alice/stray/branches', { headers: basic('alice') });
    expect(branches.json<Array<{ name: string }>>().map((b) => b.name)).toEqual(['main']);
    expectGiteaError(await t.request('GET', '/api/v1/repos/alice/stray', { headers: basic('bob') }), 404);
    expect((await list()).names).toEqual(['alice/other', 'bob/lost']);
  });

  it('deletes the files of an unadopted repository, never of an adopted one', async () => {
    expectGiteaError(await t.request('DELETE', '/api/v1/admin/unadopted/bob/lost', { headers: basic('bob') }), 403);
    expectGiteaError(await t.request('DELETE', '/api/v1/admin/unadopted/alice/seed', { headers: basic('root') }), 422);
    expect(existsSync(dir('alice', 'seed'))).toBe(true);
    expectGiteaError(await t.request('DELETE', '/api/v1/admin/unadopted/bob/none', { headers: basic('root') }), 404);
    expect((await t.request('DELETE', '/api/v1/admin/unadopted/bob/lost', { headers: basic('root') })).statusCode).toBe(204);
    expect(existsSync(dir('bob', 'lost'))).toBe(false);
    expect((await list()).names).toEqual(['alice/other']);
  });
});
