import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CronRunRecord } from '../../src/jobs/cronRun.ts';
import { resolveCronTasks } from '../../src/jobs/cronTask.ts';
import { parseDuration } from '../../src/jobs/duration.ts';
import { parseSchedule } from '../../src/jobs/schedule.ts';
import { loadCronConfig } from '../../src/jobs/settings.ts';
import { CRON_TASKS } from '../../src/services/cron/tasks.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { startJobApp, type JobApp } from './jobApp.ts';

describe('schedules and settings', () => {
  it('parses Go durations', () => {
    expect(parseDuration('10m')).toBe(600_000);
    expect(parseDuration('72h')).toBe(259_200_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('0')).toBe(0);
    for (const bad of ['', '10', '10x', 'm10', '1h 30m']) expect(() => parseDuration(bad)).toThrow(/invalid duration/);
  });

  it('reads @every, the descriptors and five- or six-field cron expressions', () => {
    const from = new Date(2026, 4, 1, 10, 7, 30); // local time, as the scheduler uses
    expect(parseSchedule('@every 10m').next(from)).toEqual(new Date(from.getTime() + 600_000));
    expect(parseSchedule('@every 1h30m').next(from)).toEqual(new Date(from.getTime() + 5_400_000));
    expect(parseSchedule('@midnight').next(from)).toEqual(new Date(2026, 4, 2, 0, 0, 0));
    expect(parseSchedule('@daily').next(from)).toEqual(new Date(2026, 4, 2, 0, 0, 0));
    expect(parseSchedule('@hourly').next(from)).toEqual(new Date(2026, 4, 1, 11, 0, 0));
    expect(parseSchedule('@annually').next(from)).toEqual(new Date(2027, 0, 1, 0, 0, 0));
    expect(parseSchedule('@weekly').next(from)?.getDay()).toBe(0);
    expect(parseSchedule('*/15 * * * *').next(from)).toEqual(new Date(2026, 4, 1, 10, 15, 0));
    expect(parseSchedule('0 30 2 * * *').next(from)).toEqual(new Date(2026, 4, 2, 2, 30, 0));
    expect(parseSchedule('@every 10m').spec).toBe('@every 10m');
    for (const bad of ['@every', '@every 10x', '@every 500ms', '@sometimes', '61 * * * *', '* * *', 'hello']) {
      expect(() => parseSchedule(bad), bad).toThrow(/invalid schedule/);
    }
  });

  it("every one of Gitea's default schedules parses", () => {
    for (const t of CRON_TASKS) expect(parseSchedule(t.schedule).next(new Date()), t.name).toBeInstanceOf(Date);
  });

  it('reads CRON_<TASK>_<KEY> variables (task names contain underscores)', () => {
    const cfg = loadCronConfig({
      CRON_ENABLED: 'false',
      CRON_GIT_GC_REPOS_ENABLED: 'true',
      CRON_GIT_GC_REPOS_TIMEOUT: '5m',
      CRON_GIT_GC_REPOS_ARGS: '--aggressive --prune=now',
      CRON_RESYNC_ALL_HOOKS_RUN_AT_START: 'true',
      CRON_ARCHIVE_CLEANUP_OLDER_THAN: '48h',
      CRON_UPDATE_MIRRORS_SCHEDULE: '@every 30m',
      CRON_DELETE_OLD_ACTIONS_NOTICE_ON_SUCCESS: '1',
      CRON_CLEANUP_HOOK_TASK_TABLE_NUMBER_TO_KEEP: '3',
      UNRELATED: 'x',
    });
    expect(cfg.enabled).toBe(false);
    expect(cfg.tasks).toEqual({
      git_gc_repos: { enabled: true, timeoutMs: 300_000, args: ['--aggressive', '--prune=now'] },
      resync_all_hooks: { runAtStart: true },
      archive_cleanup: { olderThanMs: 172_800_000 },
      update_mirrors: { schedule: '@every 30m' },
      delete_old_actions: { noticeOnSuccess: true },
      cleanup_hook_task_table: { numberToKeep: 3 },
    });
    expect(() => loadCronConfig({ CRON_UPDATE_MIRRORS_SCHEDULE: 'every ten minutes' })).toThrow(
      /CRON_UPDATE_MIRRORS_SCHEDULE: invalid schedule/,
    );
    expect(() => loadCronConfig({ CRON_GIT_GC_REPOS_ENABLED: 'maybe' })).toThrow(/CRON_GIT_GC_REPOS_ENABLED must be true or false/);
    expect(() => resolveCronTasks(CRON_TASKS, loadCronConfig({ CRON_GIT_GC_REPO_ENABLED: 'true' }))).toThrow(
      /no cron task named git_gc_repo/,
    );
    const resolved = resolveCronTasks(CRON_TASKS, cfg);
    expect(resolved.find((t) => t.def.name === 'archive_cleanup')?.settings).toMatchObject({
      olderThanMs: 172_800_000,
      enabled: true,
      runAtStart: true,
    });
    expect(resolved.find((t) => t.def.name === 'cleanup_hook_task_table')?.settings).toMatchObject({
      numberToKeep: 3,
      cleanupType: 'OlderThan',
      olderThanMs: 168 * 3_600_000,
    });
  });
});

/** Two instances on one database: the scheduler runs each scheduled occurrence once, whichever instance claims it. */
describe.each(PROVIDERS)('the cron scheduler on two instances (%s)', (provider) => {
  let a: JobApp;
  let b: JobApp;
  const env = {
    CRON_DELETE_OLD_SYSTEM_NOTICES_ENABLED: 'true',
    CRON_DELETE_OLD_SYSTEM_NOTICES_SCHEDULE: '@every 1s',
    // Keep the start quiet: the RUN_AT_START tasks would run on both instances.
    ...Object.fromEntries(CRON_TASKS.filter((t) => t.runAtStart).map((t) => [`CRON_${t.name.toUpperCase()}_RUN_AT_START`, 'false'])),
  };
  beforeAll(async () => {
    a = await startJobApp(provider, env);
    b = await startJobApp(provider, env, a.database);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('runs an @every 1s task once per occurrence across both, with its state in the database', async () => {
    const runs: Array<CronRunRecord & { by: string }> = [];
    for (const [by, j] of [['a', a] as const, ['b', b] as const]) {
      j.app.cron.onRun((r) => {
        if (r.name === 'delete_old_system_notices') runs.push({ ...r, by });
      });
    }
    await Promise.all([a.app.cron.start(), b.app.cron.start()]);
    await sleep(4500);
    await Promise.all([a.app.cron.stop(), b.app.cron.stop()]);

    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.every((r) => r.trigger === 'schedule' && r.status === 'SUCCESS')).toBe(true);
    // One run per occurrence: occurrences are a second apart (each next one is set when the last is claimed).
    const slots = runs.map((r) => r.scheduledFor?.getTime() ?? 0).sort((x, y) => x - y);
    expect(
      slots
        .slice(1)
        .map((s, i) => s - (slots[i] ?? 0))
        .every((gap) => gap >= 990),
    ).toBe(true);
    const row = await a.app.deps.db.cronTask.findUniqueOrThrow({ where: { name: 'delete_old_system_notices' } });
    expect(row.execTimes).toBe(runs.length);
    expect(row.runningBy).toBe('');
    expect(row.nextRunAt?.getTime()).toBeGreaterThan(Math.max(...slots));
    // Disabled tasks are never scheduled.
    const gc = await a.app.deps.db.cronTask.findUniqueOrThrow({ where: { name: 'git_gc_repos' } });
    expect(gc).toMatchObject({ enabled: false, nextRunAt: null, execTimes: 0 });
  });
});
