import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Models } from '../../src/db/client.ts';
import { hooksDir } from '../../src/git/installHooks.ts';
import { repoPath } from '../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { holdRepoLock } from '../helpers/heldLock.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { startJobApp } from '../jobs/jobApp.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Gitea's cron tasks acting on our data: each run through POST /admin/cron/{task}, its effect checked in the database and on disk. */
describe.each(PROVIDERS)('cron tasks (%s)', (provider) => {
  let t: TestApp;
  let alice: Models.User;
  let repo: Models.Repository;
  let gitDir: string;
  const git = (dir: string, ...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' }).trim();

  const run = async (name: string): Promise<Models.CronTask> => {
    const res = await t.request('POST', `/api/v1/admin/cron/${name}`, { headers: basic('root') });
    expect(res.statusCode, res.body).toBe(204);
    return t.db.cronTask.findUniqueOrThrow({ where: { name } });
  };
  const createRepo = async (name: string): Promise<Models.Repository> => {
    const res = await t.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name, auto_init: true } });
    expect(res.statusCode, res.body).toBe(201);
    return t.db.repository.findUniqueOrThrow({ where: { id: (res.json() as { id: number }).id } });
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    alice = await t.createUser('alice');
    repo = await createRepo('stats');
    gitDir = repoPath(t.config.repositoriesDir, 'alice', 'stats');
  });
  afterAll(() => t.close());

  it('check_repo_stats repairs drifted counters of repositories, issues, labels and accounts', async () => {
    const issue = await t.request('POST', '/api/v1/repos/alice/stats/issues', { headers: basic('alice'), body: { title: 'one' } });
    expect(issue.statusCode).toBe(201);
    const label = await t.request('POST', '/api/v1/repos/alice/stats/labels', {
      headers: basic('alice'),
      body: { name: 'bug', color: '#ff0000' },
    });
    const labelId = (label.json() as { id: number }).id;
    await t.request('POST', '/api/v1/repos/alice/stats/issues/1/labels', { headers: basic('alice'), body: { labels: [labelId] } });
    await t.app.deps.notifier.drain();
    const right = await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } });
    const rightIssue = await t.db.issue.findFirstOrThrow({ where: { repoId: repo.id, index: 1 } });
    await t.db.repository.update({ where: { id: repo.id }, data: { numStars: 7, numIssues: 3, numClosedIssues: 2, numWatches: 0 } });
    await t.db.issue.update({ where: { id: rightIssue.id }, data: { numComments: 9 } });
    await t.db.label.update({ where: { id: labelId }, data: { numIssues: 5 } });
    await t.db.user.update({ where: { id: alice.id }, data: { numRepos: 40 } });

    const row = await run('check_repo_stats');
    expect(row.lastStatus).toBe('SUCCESS');
    expect(row.lastMessage).toMatch(/repaired counters of 1 repository, 1 issue, 1 label, 1 user/);
    expect(await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).toMatchObject({
      numStars: 0,
      numIssues: 1,
      numClosedIssues: 0,
      numWatches: right.numWatches,
    });
    expect((await t.db.issue.findUniqueOrThrow({ where: { id: rightIssue.id } })).numComments).toBe(rightIssue.numComments);
    expect((await t.db.label.findUniqueOrThrow({ where: { id: labelId } })).numIssues).toBe(1);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: alice.id } })).numRepos).toBe(1);
    expect((await run('check_repo_stats')).lastMessage).toMatch(/all counters were right/);
  });

  it('repo_health_check runs git fsck: healthy repositories pass; a corrupted one fails the run with a notice', async () => {
    expect((await run('repo_health_check')).lastMessage).toMatch(/checked \d+ repositories; all healthy/);
    const broken = await createRepo('broken');
    const dir = repoPath(t.config.repositoriesDir, 'alice', 'broken');
    // Remove the tree object the initial commit points at (loose after auto_init).
    const tree = git(dir, 'rev-parse', 'HEAD^{tree}');
    rmSync(path.join(dir, 'objects', tree.slice(0, 2), tree.slice(2)));
    const row = await run('repo_health_check');
    expect(row.lastStatus).toBe('ERROR');
    expect(row.lastError).toMatch(/1 failed git fsck: alice\/broken/);
    const notices = await t.db.systemNotice.findMany({ orderBy: { id: 'asc' } });
    expect(notices.map((n) => n.description)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Repository health check failed for alice\/broken: /),
        expect.stringMatching(/^Cron: error while running repo_health_check/),
      ]),
    );
    // fsck can be switched off per repository (is_fsck_enabled).
    await t.db.repository.update({ where: { id: broken.id }, data: { isFsckEnabled: false } });
    expect((await run('repo_health_check')).lastStatus).toBe('SUCCESS');
    expect((await t.request('DELETE', '/api/v1/repos/alice/broken', { headers: basic('alice') })).statusCode).toBe(204);
  });

  it('git_gc_repos packs loose objects and updates the size', async () => {
    await t.db.repository.update({ where: { id: repo.id }, data: { gitSize: 1n, size: 1n } });
    expect(git(gitDir, 'count-objects', '-v')).toMatch(/^count: [1-9]/m);
    const row = await run('git_gc_repos');
    expect(row.lastMessage).toMatch(/garbage-collected \d+ of \d+ repositories/);
    expect(git(gitDir, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    expect(git(gitDir, 'count-objects', '-v')).toMatch(/^packs: [1-9]/m);
    expect((await t.db.repository.findUniqueOrThrow({ where: { id: repo.id } })).gitSize > 1n).toBe(true);
  });

  it('resync_all_hooks rewrites tampered hooks and points repositories at them again', async () => {
    const hook = path.join(hooksDir(t.config.dataDir), 'pre-receive');
    const original = readFileSync(hook, 'utf8');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    git(gitDir, 'config', '--unset', 'core.hooksPath');
    const row = await run('resync_all_hooks');
    expect(row.lastMessage).toMatch(/hooks reinstalled; \d+ repositories point at them/);
    expect(readFileSync(hook, 'utf8')).toBe(original);
    expect(git(gitDir, 'config', 'core.hooksPath')).toBe(hooksDir(t.config.dataDir));
  });

  it('reinit_missing_repos recreates a repository missing on disk; delete_missing_repos deletes one', async () => {
    const lost = await createRepo('lost');
    const dir = repoPath(t.config.repositoriesDir, 'alice', 'lost');
    rmSync(dir, { recursive: true });
    expect((await run('reinit_missing_repos')).lastMessage).toBe('reinitialised 1: alice/lost');
    expect(existsSync(path.join(dir, 'HEAD'))).toBe(true);
    expect(await t.db.repository.findUniqueOrThrow({ where: { id: lost.id } })).toMatchObject({ isEmpty: true });
    expect(await t.db.branch.count({ where: { repoId: lost.id } })).toBe(0);
    rmSync(dir, { recursive: true });
    const before = (await t.db.user.findUniqueOrThrow({ where: { id: alice.id } })).numRepos;
    expect((await run('delete_missing_repos')).lastMessage).toBe('deleted 1: alice/lost');
    expect(await t.db.repository.findUnique({ where: { id: lost.id } })).toBeNull();
    expect((await t.db.user.findUniqueOrThrow({ where: { id: alice.id } })).numRepos).toBe(before - 1);
    expect((await run('delete_missing_repos')).lastMessage).toBe('no repository is missing');
  });

  it('reinit_missing_repos waits for the writers of the repository, and leaves it alone when the directory is back', async () => {
    const held = await createRepo('held');
    const dir = repoPath(t.config.repositoriesDir, 'alice', 'held');
    /** Runs the task with the directory gone while a section holds `refs` (null: the whole repository); `meanwhile` runs while it waits. */
    const taskBehindLock = async (refs: string[] | null, meanwhile: () => Promise<void>): Promise<string | null> => {
      rmSync(dir, { recursive: true });
      const holder = holdRepoLock(t.app.deps.repoLocks, held.id, refs);
      await holder.entered;
      let finished = false;
      const task = run('reinit_missing_repos').then((row) => ((finished = true), row));
      await new Promise((r) => setTimeout(r, 300));
      expect(finished).toBe(false);
      await meanwhile();
      holder.release();
      await holder.done;
      return (await task).lastMessage;
    };
    // A writer of one branch (a push, a merge) holds its ref: the task must not make the directory anew under it.
    const waited = await taskBehindLock(['refs/heads/main'], async () => {
      expect(existsSync(dir)).toBe(false);
    });
    expect(waited).toBe('reinitialised 1: alice/held');
    expect(existsSync(path.join(dir, 'HEAD'))).toBe(true);

    // The directory comes back while the task waits (restored from a backup): it is not replaced by an empty one.
    const restored = await taskBehindLock(null, async () => {
      execFileSync('git', ['init', '--bare', '-q', dir]);
      writeFileSync(path.join(dir, 'restored'), 'yes');
    });
    expect(restored).toBe('no repository is missing');
    expect(existsSync(path.join(dir, 'restored'))).toBe(true);

    // Renamed while the task waits (the row now names a directory that exists): nothing is made at the old path.
    const renamed = await taskBehindLock(null, async () => {
      execFileSync('git', ['init', '--bare', '-q', repoPath(t.config.repositoriesDir, 'alice', 'moved')]);
      await t.db.repository.update({ where: { id: held.id }, data: { name: 'moved', lowerName: 'moved' } });
    });
    expect(renamed).toBe('no repository is missing');
    expect(existsSync(dir)).toBe(false);
  });

  it('deleted_branches_cleanup drops branch records deleted more than 24h ago', async () => {
    const common = { repoId: repo.id, commitId: 'a'.repeat(40), commitTime: new Date(), isDeleted: true };
    await t.db.branch.createMany({
      data: [
        { ...common, name: 'gone-long-ago', deletedAt: new Date(Date.now() - 2 * DAY) },
        { ...common, name: 'gone-recently', deletedAt: new Date(Date.now() - HOUR) },
      ],
    });
    expect((await run('deleted_branches_cleanup')).lastMessage).toBe('removed 1 deleted branch record(s) older than 24h');
    expect((await t.db.branch.findMany({ where: { repoId: repo.id, isDeleted: true } })).map((b) => b.name)).toEqual(['gone-recently']);
  });

  it('cleanup_hook_task_table removes delivered deliveries older than 168h', async () => {
    const hook = await t.db.webhook.create({ data: { repoId: repo.id, url: 'http://example.invalid/hook' } });
    const task = (uuid: string, deliveredAt: Date | null) => ({
      hookId: hook.id,
      uuid,
      payloadContent: '{}',
      eventType: 'push',
      isDelivered: deliveredAt !== null,
      deliveredAt,
    });
    await t.db.hookTask.createMany({
      data: [task('old', new Date(Date.now() - 8 * DAY)), task('recent', new Date(Date.now() - DAY)), task('pending', null)],
    });
    expect((await run('cleanup_hook_task_table')).lastMessage).toBe('removed 1 delivered webhook deliveries older than 168h');
    expect((await t.db.hookTask.findMany({ orderBy: { id: 'asc' } })).map((h) => h.uuid)).toEqual(['recent', 'pending']);
  });

  it('delete_old_actions and delete_old_system_notices drop rows older than a year', async () => {
    const old = new Date(Date.now() - 400 * DAY);
    await t.db.action.createMany({
      data: [
        { userId: alice.id, actUserId: alice.id, repoId: repo.id, opType: 'CREATE_REPO', createdAt: old },
        { userId: alice.id, actUserId: alice.id, repoId: repo.id, opType: 'CREATE_REPO' },
      ],
    });
    await t.db.systemNotice.createMany({ data: [{ description: 'ancient', createdAt: old }, { description: 'fresh' }] });
    const actions = await t.db.action.count();
    expect((await run('delete_old_actions')).lastMessage).toBe('deleted 1 activity row(s) older than 8760h');
    expect(await t.db.action.count()).toBe(actions - 1);
    expect((await run('delete_old_system_notices')).lastMessage).toBe('deleted 1 system notice(s) older than 8760h');
    expect(await t.db.systemNotice.count({ where: { description: 'ancient' } })).toBe(0);
    expect(await t.db.systemNotice.count({ where: { description: 'fresh' } })).toBe(1);
  });

  it('archive_cleanup deletes archives older than 24h; delete_repo_archives deletes them all', async () => {
    const dir = path.join(t.config.dataDir, 'repo-archive', 'alice', 'stats');
    mkdirSync(dir, { recursive: true });
    for (const f of ['old.zip', 'new.tar.gz']) writeFileSync(path.join(dir, f), 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * DAY);
    utimesSync(path.join(dir, 'old.zip'), twoDaysAgo, twoDaysAgo);
    expect((await run('archive_cleanup')).lastMessage).toMatch(/^deleted 1 repository archive file\(s\) older than 24h/);
    expect(readdirSync(dir)).toEqual(['new.tar.gz']);
    expect((await run('delete_repo_archives')).lastMessage).toMatch(/^deleted 1 repository archive file\(s\)/);
    expect(existsSync(dir)).toBe(false);
  });

  it('delete_inactive_accounts deletes accounts never activated after 3h; active ones stay', async () => {
    await t.createUser('sleeper');
    await t.createUser('fresh');
    await t.db.user.updateMany({ where: { lowerName: { in: ['sleeper', 'fresh'] } }, data: { isActive: false } });
    await t.db.user.update({ where: { lowerName: 'sleeper' }, data: { createdAt: new Date(Date.now() - DAY) } });
    expect((await run('delete_inactive_accounts')).lastMessage).toBe('deleted 1 inactive account(s) created more than 3h ago');
    expect(await t.db.user.findUnique({ where: { lowerName: 'sleeper' } })).toBeNull();
    expect(await t.db.user.findUnique({ where: { lowerName: 'fresh' } })).not.toBeNull();
  });

  it('tasks of subsystems not served yet run and say why they did nothing (SKIPPED)', async () => {
    for (const name of ['sync_external_users', 'resync_all_sshkeys', 'gc_lfs', 'rebuild_issue_indexer']) {
      const row = await run(name);
      expect({ name, status: row.lastStatus }).toEqual({ name, status: 'SKIPPED' });
      expect(row.lastMessage.length).toBeGreaterThan(20);
      expect(row.execTimes).toBe(1);
    }
  });
});

describe.each(PROVIDERS)('cleanup_hook_task_table per webhook (%s)', (provider) => {
  it('keeps the newest NUMBER_TO_KEEP delivered deliveries of each webhook', async () => {
    const j = await startJobApp(provider, {
      CRON_CLEANUP_HOOK_TASK_TABLE_CLEANUP_TYPE: 'PerWebhook',
      CRON_CLEANUP_HOOK_TASK_TABLE_NUMBER_TO_KEEP: '2',
    });
    try {
      const db = j.app.deps.db;
      const { createUser } = await import('../../src/services/user/user.ts');
      const { runCronTask } = await import('../../src/services/cron/cron.ts');
      const { createSystemContext } = await import('../../src/services/context.ts');
      const system = createSystemContext(j.app.deps);
      const owner = await createUser(system, { username: 'owner', email: 'o@example.com', password: 'password123!' });
      const hook = await db.webhook.create({ data: { ownerId: owner.id, url: 'http://example.invalid/hook' } });
      await db.hookTask.createMany({
        data: [1, 2, 3, 4].map((i) => ({
          hookId: hook.id,
          uuid: `t${i}`,
          payloadContent: '{}',
          eventType: 'push',
          isDelivered: true,
          deliveredAt: new Date(Date.now() - (10 - i) * HOUR),
        })),
      });
      const view = await runCronTask(system, 'cleanup_hook_task_table');
      expect(view.lastMessage).toBe('removed 2 delivered webhook deliveries beyond the newest 2 of each of 1 webhook(s)');
      expect((await db.hookTask.findMany({ orderBy: { id: 'asc' } })).map((h) => h.uuid)).toEqual(['t3', 't4']);
    } finally {
      await j.close();
    }
  });
});
