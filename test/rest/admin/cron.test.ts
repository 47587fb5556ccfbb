import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentFile } from '../../../src/services/attachment/store.ts';
import { CRON_TASKS } from '../../../src/services/cron/tasks.ts';
import { basic, startTestApp, tokenAuth, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';
import { startJobApp, type JobApp } from '../../jobs/jobApp.ts';

interface Cron {
  name: string;
  schedule: string;
  next: string;
  prev: string;
  exec_times: number;
}

const GO_ZERO = '0001-01-01T00:00:00Z';
/** Gitea's 29 task names in its registration order (gitea-endpoints.md §1.8). */
const NAMES = [
  'update_mirrors',
  'repo_health_check',
  'check_repo_stats',
  'archive_cleanup',
  'sync_external_users',
  'deleted_branches_cleanup',
  'update_migration_poster_id',
  'cleanup_hook_task_table',
  'cleanup_packages',
  'sync_repo_licenses',
  'delete_inactive_accounts',
  'delete_repo_archives',
  'git_gc_repos',
  'resync_all_sshkeys',
  'resync_all_sshprincipals',
  'resync_all_hooks',
  'reinit_missing_repos',
  'delete_missing_repos',
  'delete_generated_repository_avatars',
  'delete_old_actions',
  'update_checker',
  'delete_old_system_notices',
  'gc_lfs',
  'rebuild_issue_indexer',
  'stop_zombie_tasks',
  'stop_endless_tasks',
  'cancel_abandoned_jobs',
  'start_schedule_tasks',
  'cleanup_actions',
];

describe.each(PROVIDERS)('admin cron REST (%s)', (provider) => {
  let t: TestApp;
  let readAdmin: Record<string, string>;
  let writeAdmin: Record<string, string>;
  const list = async (query = '', headers: Record<string, string> = readAdmin) => {
    const res = await t.request('GET', `/api/v1/admin/cron${query}`, { headers });
    expect(res.statusCode, res.body).toBe(200);
    return { res, tasks: res.json() as Cron[] };
  };
  const task = async (name: string) => (await list('?limit=50')).tasks.find((c) => c.name === name);
  const run = (name: string, headers: Record<string, string> = writeAdmin) => t.request('POST', `/api/v1/admin/cron/${name}`, { headers });

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    readAdmin = tokenAuth(await t.createToken('root', ['read:admin']));
    writeAdmin = tokenAuth(await t.createToken('root', ['write:admin']));
  });
  afterAll(() => t.close());

  it("GET /admin/cron lists Gitea's 29 tasks in order, X-Total-Count without a Link header", async () => {
    expect(CRON_TASKS.map((c) => c.name)).toEqual(NAMES);
    const { res, tasks } = await list('?limit=50');
    expect(res.headers['x-total-count']).toBe('29');
    expect(res.headers.link).toBeUndefined();
    expect(tasks.map((c) => c.name)).toEqual(NAMES);
    for (const c of tasks) expect(Object.keys(c).sort()).toEqual(['exec_times', 'name', 'next', 'prev', 'schedule']);
  });

  it('an enabled task shows its schedule and next run; a disabled one "-" and the zero time', async () => {
    const { tasks } = await list('?limit=50');
    const mirrors = tasks.find((c) => c.name === 'update_mirrors');
    expect(mirrors).toMatchObject({ schedule: '@every 10m', exec_times: 0 });
    const next = Date.parse(mirrors?.next ?? '');
    expect(next - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(next - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(tasks.find((c) => c.name === 'repo_health_check')?.schedule).toBe('@midnight');
    expect(tasks.find((c) => c.name === 'git_gc_repos')).toMatchObject({ schedule: '-', next: GO_ZERO, exec_times: 0 });
    expect(tasks.filter((c) => c.schedule === '-').map((c) => c.name)).toEqual(CRON_TASKS.filter((c) => !c.enabled).map((c) => c.name));
  });

  it('pages in memory with Gitea page/limit (default 30, max 50)', async () => {
    expect((await list()).tasks).toHaveLength(29);
    const third = await list('?limit=10&page=3');
    expect(third.tasks.map((c) => c.name)).toEqual(NAMES.slice(20));
    expect(third.res.headers['x-total-count']).toBe('29');
    expect((await list('?limit=5&page=7')).tasks).toEqual([]);
  });

  it('POST /admin/cron/{task} runs it: 204, exec_times and prev move', async () => {
    const before = Date.now() - 1000;
    const res = await run('archive_cleanup');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const after = await task('archive_cleanup');
    expect(after?.exec_times).toBe(1);
    expect(Date.parse(after?.prev ?? '')).toBeGreaterThan(before);
    const row = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'archive_cleanup' } });
    expect(row).toMatchObject({ lastStatus: 'SUCCESS', runningBy: '', lastError: '' });
    expect(row.lastMessage).toContain('repository archive');
  });

  it('archive_cleanup also removes attachment files no row names (the durable side of the sweep after a deletion)', async () => {
    const orphan = randomUUID();
    const kept = randomUUID();
    const old = new Date(Date.now() - 3_600_000);
    for (const uuid of [orphan, kept]) {
      const file = attachmentFile(t.config.attachments, uuid);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, uuid);
      utimesSync(file, old, old);
    }
    await t.db.attachment.create({ data: { uuid: kept, name: 'kept.txt', size: 36n, downloadCount: 0 } });
    expect((await run('archive_cleanup')).statusCode).toBe(204);
    expect(existsSync(attachmentFile(t.config.attachments, orphan))).toBe(false);
    expect(existsSync(attachmentFile(t.config.attachments, kept))).toBe(true);
    const row = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'archive_cleanup' } });
    expect(row.lastMessage).toContain('removed 1 attachment file(s)');
  });

  it('a disabled task can still be run by hand; it stays unscheduled', async () => {
    expect((await run('git_gc_repos')).statusCode).toBe(204);
    const gc = await task('git_gc_repos');
    expect(gc).toMatchObject({ schedule: '-', next: GO_ZERO, exec_times: 1 });
    expect(gc?.prev).not.toBe(GO_ZERO);
  });

  it('a task already running (here or elsewhere) is not started again; the call still answers 204', async () => {
    await t.db.cronTask.update({ where: { name: 'delete_repo_archives' }, data: { runningBy: 'other-instance', runningAt: new Date() } });
    expect((await run('delete_repo_archives')).statusCode).toBe(204);
    expect((await task('delete_repo_archives'))?.exec_times).toBe(0);
    // A lock whose holder died (lease expired) does not block it.
    await t.db.cronTask.update({ where: { name: 'delete_repo_archives' }, data: { runningAt: new Date(Date.now() - 3_600_000) } });
    expect((await run('delete_repo_archives')).statusCode).toBe(204);
    expect((await task('delete_repo_archives'))?.exec_times).toBe(1);
  });

  it('a subsystem with nothing to act on says so in the run record', async () => {
    expect((await run('sync_external_users')).statusCode).toBe(204);
    const row = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'sync_external_users' } });
    expect(row.lastStatus).toBe('SKIPPED');
    expect(row.lastMessage).toMatch(/no external authentication sources/);
  });

  it('update_mirrors queues the due mirrors and says how many', async () => {
    expect((await run('update_mirrors')).statusCode).toBe(204);
    const row = await t.db.cronTask.findUniqueOrThrow({ where: { name: 'update_mirrors' } });
    expect(row.lastStatus).toBe('SUCCESS');
    expect(row.lastMessage).toBe('0 pull mirror sync(s) and 0 push mirror push(es) queued');
  });

  it('an unknown task is 404 "not found" (names are case-sensitive)', async () => {
    expectGiteaError(await run('no_such_task'), 404, 'not found');
    expectGiteaError(await run('ARCHIVE_CLEANUP'), 404, 'not found');
  });

  it('gates: anonymous 401, non-admin 403, tokens need read:admin to list and write:admin to run', async () => {
    expectGiteaError(await t.request('GET', '/api/v1/admin/cron'), 401, 'token is required');
    expectGiteaError(await t.request('POST', '/api/v1/admin/cron/archive_cleanup'), 401, 'token is required');
    expectGiteaError(await t.request('GET', '/api/v1/admin/cron', { headers: basic('alice') }), 403, 'user should be the site admin');
    expectGiteaError(await run('archive_cleanup', basic('alice')), 403, 'user should be the site admin');
    const repoToken = tokenAuth(await t.createToken('root', ['read:repository']));
    expectGiteaError(
      await t.request('GET', '/api/v1/admin/cron', { headers: repoToken }),
      403,
      'token does not have at least one of required scope(s), required=[read:admin], token scope=read:repository',
    );
    expectGiteaError(await run('archive_cleanup', readAdmin), 403, /required=\[write:admin\]/);
    expect((await list('', basic('root'))).tasks).toHaveLength(29);
  });
});

describe.each(PROVIDERS)('cron settings (%s)', (provider) => {
  let j: JobApp;
  beforeAll(async () => {
    j = await startJobApp(provider, {
      CRON_GIT_GC_REPOS_ENABLED: 'true',
      CRON_GIT_GC_REPOS_SCHEDULE: '0 30 3 * * *',
      CRON_UPDATE_MIRRORS_SCHEDULE: '@every 1h',
      CRON_UPDATE_CHECKER_ENABLED: 'false',
    });
    await j.app.server.inject({ method: 'GET', url: '/api/healthz' });
  });
  afterAll(() => j?.close());

  it('schedules and enablement come from CRON_<TASK>_SCHEDULE / _ENABLED', async () => {
    const { createUser } = await import('../../../src/services/user/user.ts');
    const { createSystemContext } = await import('../../../src/services/context.ts');
    await createUser(createSystemContext(j.app.deps), {
      username: 'root',
      email: 'r@example.com',
      password: 'password123!',
      admin: true,
      mustChangePassword: false,
    });
    const res = await j.app.server.inject({ method: 'GET', url: '/api/v1/admin/cron?limit=50', headers: basic('root') });
    const tasks = res.json() as Cron[];
    const by = (n: string) => tasks.find((c) => c.name === n);
    expect(by('git_gc_repos')?.schedule).toBe('0 30 3 * * *');
    expect(new Date(by('git_gc_repos')?.next ?? '').getSeconds()).toBe(0);
    expect(new Date(by('git_gc_repos')?.next ?? '').getMinutes()).toBe(30);
    expect(by('update_mirrors')?.schedule).toBe('@every 1h');
    expect(Date.parse(by('update_mirrors')?.next ?? '') - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(by('update_checker')).toMatchObject({ schedule: '-', next: GO_ZERO });
  });
});
