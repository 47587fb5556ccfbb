import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { repoPath, wikiPath } from '../../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { holdRepoLock } from '../../helpers/heldLock.ts';
import { pullFromNewBranch } from '../../helpers/pull.ts';

/**
 * The moves and removals of a repository's git directories (rename, transfer, deletion, an account's rename) wait for
 * the writers of the repository (a push or a merge holding a branch) and run alone; one planned from a row that
 * changed while it waited is refused (409) instead of moving a directory that is no longer there.
 */
describe.each(PROVIDERS)('repository directory moves under the repository lock (%s)', (provider) => {
  let t: TestApp;
  const dirOf = (owner: string, name: string) => repoPath(t.config.repositoriesDir, owner, name);

  const createRepo = async (owner: string, name: string): Promise<Models.Repository> => {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: basic(owner), body: { name, auto_init: true } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: (res.json() as { id: number }).id } });
  };

  /**
   * Starts `write` while a push holds branch main of each of `repos`, checks it has not finished after 300 ms (with
   * `whileHeld`), then lets the pushes finish and returns the write's answer.
   */
  const behindPushes = async (
    repos: Models.Repository[],
    write: () => Promise<LightMyRequestResponse>,
    whileHeld: () => void | Promise<void>,
  ): Promise<LightMyRequestResponse> => {
    const holders = repos.map((r) => holdRepoLock(t.app.deps.repoLocks, r.id, ['refs/heads/main']));
    await Promise.all(holders.map((h) => h.entered));
    let finished = false;
    const answer = write().then((res) => ((finished = true), res));
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(finished).toBe(false);
      await whileHeld();
    } finally {
      for (const h of holders) h.release();
      await Promise.all(holders.map((h) => h.done));
    }
    return answer;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
  });
  afterAll(() => t.close());

  it('a rename waits for a push in flight, then moves the directory; a second rename planned meanwhile is refused', async () => {
    const repo = await createRepo('alice', 'first');
    const renameTo = (name: string) => t.request('PATCH', '/api/v1/repos/alice/first', { headers: basic('alice'), body: { name } });
    let second: Promise<LightMyRequestResponse> | undefined;
    const res = await behindPushes(
      [repo],
      () => renameTo('second'),
      () => {
        expect(existsSync(dirOf('alice', 'first'))).toBe(true);
        // Another rename of the same repository, planned from the same row, waits behind the first.
        second = renameTo('third');
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const late = await second!;
    expect(late.statusCode, late.body).toBe(409);
    expect((late.json() as { message: string }).message).toMatch(/renamed or transferred to alice\/second meanwhile/);
    // The row and the directory agree: no rename to "third" half-done, nothing left at the old path.
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).name).toBe('second');
    expect(existsSync(path.join(dirOf('alice', 'second'), 'HEAD'))).toBe(true);
    expect(existsSync(dirOf('alice', 'first'))).toBe(false);
    expect(existsSync(dirOf('alice', 'third'))).toBe(false);
    const log = execFileSync('git', ['--git-dir', dirOf('alice', 'second'), 'log', '--format=%s', 'main'], { encoding: 'utf8' });
    expect(log.trim()).toBe('Initial commit');
  });

  it('a branch made through the API after a rename it waited behind is answered as under a stale name (301 to the new one), nothing made where the directory was', async () => {
    await createRepo('alice', 'before');
    let branch: Promise<LightMyRequestResponse> | undefined;
    const res = await behindPushes(
      [await t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', name: 'before' } })],
      () => t.request('PATCH', '/api/v1/repos/alice/before', { headers: basic('alice'), body: { name: 'after' } }),
      async () => {
        // Resolved under the old name; its lock comes after the rename's.
        branch = t.request('POST', '/api/v1/repos/alice/before/branches', {
          headers: basic('alice'),
          body: { new_branch_name: 'feature', old_ref_name: 'main' },
        });
        await new Promise((r) => setTimeout(r, 100));
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const late = await branch!;
    expect(late.statusCode, late.body).toBe(301);
    expect(late.headers.location).toBe('/api/v1/repos/alice/after/branches');
    expect(existsSync(dirOf('alice', 'before'))).toBe(false);
    // Under its new name the repository takes the branch.
    const again = await t.request('POST', '/api/v1/repos/alice/after/branches', {
      headers: basic('alice'),
      body: { new_branch_name: 'feature', old_ref_name: 'main' },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('a merge that waited behind a rename is answered as under a stale name, not with a failure in a directory that moved', async () => {
    await createRepo('alice', 'merging');
    const number = await pullFromNewBranch(t, { owner: 'alice', name: 'merging' }, 'topic', basic('alice'));
    let merge: Promise<LightMyRequestResponse> | undefined;
    const res = await behindPushes(
      [await t.db.repository.findFirstOrThrow({ where: { ownerName: 'alice', name: 'merging' } })],
      () => t.request('PATCH', '/api/v1/repos/alice/merging', { headers: basic('alice'), body: { name: 'merged' } }),
      async () => {
        merge = t.request('POST', `/api/v1/repos/alice/merging/pulls/${number}/merge`, { headers: basic('alice'), body: { Do: 'merge' } });
        await new Promise((r) => setTimeout(r, 100));
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const late = await merge!;
    expect(late.statusCode, late.body).toBe(301);
    expect(late.headers.location).toBe(`/api/v1/repos/alice/merged/pulls/${number}/merge`);
    const again = await t.request('POST', `/api/v1/repos/alice/merged/pulls/${number}/merge`, {
      headers: basic('alice'),
      body: { Do: 'merge' },
    });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a wiki page written after a rename it waited behind is refused (409), no wiki made at the old path', async () => {
    const repo = await createRepo('alice', 'manual');
    let page: Promise<LightMyRequestResponse> | undefined;
    const res = await behindPushes(
      [repo],
      () => t.request('PATCH', '/api/v1/repos/alice/manual', { headers: basic('alice'), body: { name: 'handbook' } }),
      async () => {
        page = t.request('POST', '/api/v1/repos/alice/manual/wiki/new', {
          headers: basic('alice'),
          body: { title: 'Home', content_base64: Buffer.from('# Home\n').toString('base64') },
        });
        await new Promise((r) => setTimeout(r, 100));
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const late = await page!;
    expect(late.statusCode, late.body).toBe(409);
    expect(existsSync(wikiPath(t.config.repositoriesDir, 'alice', 'manual'))).toBe(false);
    const again = await t.request('POST', '/api/v1/repos/alice/handbook/wiki/new', {
      headers: basic('alice'),
      body: { title: 'Home', content_base64: Buffer.from('# Home\n').toString('base64') },
    });
    expect(again.statusCode, again.body).toBe(201);
  });

  it('a transfer waits for a push in flight, then moves the directory to the new owner', async () => {
    const res0 = await t.request('POST', '/api/v1/orgs', { headers: basic('alice'), body: { username: 'crew' } });
    expect(res0.statusCode, res0.body).toBe(201);
    const repo = await createRepo('alice', 'moving');
    const res = await behindPushes(
      [repo],
      () => t.request('POST', '/api/v1/repos/alice/moving/transfer', { headers: basic('alice'), body: { new_owner: 'crew' } }),
      () => expect(existsSync(dirOf('alice', 'moving'))).toBe(true),
    );
    expect(res.statusCode, res.body).toBe(202);
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).ownerName).toBe('crew');
    expect(existsSync(path.join(dirOf('crew', 'moving'), 'HEAD'))).toBe(true);
    expect(existsSync(dirOf('alice', 'moving'))).toBe(false);
  });

  it('an acceptance that waited behind a push while the transfer was rejected moves nothing (404)', async () => {
    await t.createUser('carol');
    const repo = await createRepo('alice', 'offered');
    const offer = await t.request('POST', '/api/v1/repos/alice/offered/transfer', {
      headers: basic('alice'),
      body: { new_owner: 'carol' },
    });
    expect(offer.statusCode, offer.body).toBe(201); // pending (Gitea: 201 pending, 202 done)
    const res = await behindPushes(
      [repo],
      () => t.request('POST', '/api/v1/repos/alice/offered/transfer/accept', { headers: basic('carol') }),
      async () => {
        const reject = await t.request('POST', '/api/v1/repos/alice/offered/transfer/reject', { headers: basic('carol') });
        expect(reject.statusCode, reject.body).toBe(200);
      },
    );
    expect(res.statusCode, res.body).toBe(404);
    expect((res.json() as { message: string }).message).toMatch(/doesn't have a pending transfer/);
    const row = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    expect([row.ownerName, row.status]).toEqual(['alice', 'READY']);
    expect(existsSync(path.join(dirOf('alice', 'offered'), 'HEAD'))).toBe(true);
    expect(existsSync(dirOf('carol', 'offered'))).toBe(false);
  });

  it('a deletion waits for a push in flight before the directory goes', async () => {
    const repo = await createRepo('alice', 'doomed');
    const res = await behindPushes(
      [repo],
      () => t.request('DELETE', '/api/v1/repos/alice/doomed', { headers: basic('alice') }),
      async () => {
        expect(existsSync(dirOf('alice', 'doomed'))).toBe(true);
        expect(await t.db.repository.findUnique({ where: { id: repo.id } })).not.toBeNull();
      },
    );
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.db.repository.findUnique({ where: { id: repo.id } })).toBeNull();
    expect(existsSync(dirOf('alice', 'doomed'))).toBe(false);
  });

  it("an account's rename waits for the pushes to each of its repositories, then moves them all", async () => {
    await t.createUser('bob');
    const repos = [await createRepo('bob', 'one'), await createRepo('bob', 'two')];
    const res = await behindPushes(
      repos,
      () => t.request('POST', '/api/v1/admin/users/bob/rename', { headers: basic('root'), body: { new_username: 'robert' } }),
      () => expect(existsSync(dirOf('bob', 'two'))).toBe(true),
    );
    expect(res.statusCode, res.body).toBe(204);
    for (const name of ['one', 'two']) {
      expect(existsSync(path.join(dirOf('robert', name), 'HEAD'))).toBe(true);
      expect(existsSync(dirOf('bob', name))).toBe(false);
    }
    expect((await t.db.repository.findMany({ where: { ownerName: 'robert' } })).length).toBe(2);
  });

  it('an account of 70 repositories (more than a lock section takes one by one on PostgreSQL) is renamed with all of them', async () => {
    await t.createUser('many');
    for (let i = 0; i < 70; i++) {
      const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('many'), body: { name: `r${i}` } });
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await t.request('POST', '/api/v1/admin/users/many/rename', { headers: basic('root'), body: { new_username: 'plenty' } });
    expect(res.statusCode, res.body).toBe(204);
    const rows = await t.db.repository.findMany({ where: { ownerName: 'plenty' }, select: { name: true } });
    expect(rows.length).toBe(70);
    for (const { name } of rows) {
      expect(existsSync(path.join(dirOf('plenty', name), 'HEAD'))).toBe(true);
      expect(existsSync(dirOf('many', name))).toBe(false);
    }
  });

  it('delete_missing_repos leaves a repository renamed while it waited (its directory exists under the new name)', async () => {
    const repo = await createRepo('alice', 'lost');
    rmSync(dirOf('alice', 'lost'), { recursive: true });
    const res = await behindPushes(
      [repo],
      () => t.request('POST', '/api/v1/admin/cron/delete_missing_repos', { headers: basic('root') }),
      async () => {
        execFileSync('git', ['init', '--bare', '-q', dirOf('alice', 'found')]);
        await t.db.repository.update({ where: { id: repo.id }, data: { name: 'found', lowerName: 'found' } });
      },
    );
    expect(res.statusCode, res.body).toBe(204);
    const task = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'delete_missing_repos' } });
    expect(task.lastMessage).toBe('no repository is missing');
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).name).toBe('found');
  });
});
