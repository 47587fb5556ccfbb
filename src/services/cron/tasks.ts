import type { Config } from '../../config.ts';
import { resolveCronTasks, type CronTaskDef, type ResolvedCronTask } from '../../jobs/cronTask.ts';
import * as actionLogs from '../actions/logRetention.ts';
import * as actionSchedules from '../actions/schedules.ts';
import * as actionTimeouts from '../actions/timeouts.ts';
import type { ServiceContext } from '../context.ts';
import * as cleanup from './cleanup.ts';
import * as maintenance from './repoMaintenance.ts';
import { syncAllRepoLicenses } from './repoLicenses.ts';
import { checkRepoStats } from './repoStats.ts';
import * as subsystems from './subsystems.ts';
import { updateMirrors } from '../migration/cronMirrors.ts';

type Task = CronTaskDef<ServiceContext>;

const H = 3_600_000;

/**
 * Gitea's 29 cron tasks (services/cron/tasks_basic.go, tasks_extended.go, tasks_actions.go), in its registration
 * order, with its default schedule, enablement, RUN_AT_START and extra settings.
 */
export const CRON_TASKS: readonly Task[] = [
  {
    name: 'update_mirrors',
    description: 'Update mirrors',
    schedule: '@every 10m',
    enabled: true,
    runAtStart: false,
    run: updateMirrors,
  },
  {
    name: 'repo_health_check',
    description: 'Check repository health',
    schedule: '@midnight',
    enabled: true,
    runAtStart: false,
    defaults: { timeoutMs: 60_000, args: [] },
    run: maintenance.repoHealthCheck,
  },
  {
    name: 'check_repo_stats',
    description: 'Check repository statistics',
    schedule: '@midnight',
    enabled: true,
    runAtStart: true,
    run: async (cx) => {
      const { checked, repaired } = await checkRepoStats(cx.db);
      const fixed = Object.entries(repaired).map(([table, n]) => `${n} ${table}`);
      const seen = Object.entries(checked).map(([table, n]) => `${n} ${table}`);
      return {
        message: `checked ${seen.join(', ')}; ${fixed.length ? `repaired counters of ${fixed.join(', ')}` : 'all counters were right'}`,
      };
    },
  },
  {
    name: 'archive_cleanup',
    description: 'Clean up old repository archives',
    schedule: '@midnight',
    enabled: true,
    runAtStart: true,
    defaults: { olderThanMs: 24 * H },
    run: cleanup.archiveCleanup,
  },
  {
    name: 'sync_external_users',
    description: 'Synchronize external user data',
    schedule: '@midnight',
    enabled: true,
    runAtStart: false,
    run: subsystems.syncExternalUsers,
  },
  {
    name: 'deleted_branches_cleanup',
    description: 'Clean up deleted branches',
    schedule: '@midnight',
    enabled: true,
    runAtStart: true,
    defaults: { olderThanMs: 24 * H },
    run: cleanup.deletedBranchesCleanup,
  },
  {
    name: 'update_migration_poster_id',
    description: 'Update migration poster IDs',
    schedule: '@midnight',
    enabled: true,
    runAtStart: true,
    run: subsystems.updateMigrationPosterId,
  },
  {
    name: 'cleanup_hook_task_table',
    description: 'Clean up the hook_task table',
    schedule: '@midnight',
    enabled: true,
    runAtStart: false,
    defaults: { cleanupType: 'OlderThan', olderThanMs: 168 * H, numberToKeep: 10 },
    run: cleanup.cleanupHookTaskTable,
  },
  {
    name: 'cleanup_packages',
    description: 'Clean up expired packages',
    schedule: '@midnight',
    enabled: true,
    runAtStart: true,
    defaults: { olderThanMs: 24 * H },
    run: cleanup.cleanupPackages,
  },
  {
    name: 'sync_repo_licenses',
    description: 'Sync repository licenses',
    schedule: '@annually',
    enabled: false,
    runAtStart: false,
    run: syncAllRepoLicenses,
  },
  {
    name: 'delete_inactive_accounts',
    description: 'Delete all unactivated accounts',
    schedule: '@annually',
    enabled: false,
    runAtStart: false,
    defaults: { olderThanMs: 3 * H },
    run: cleanup.deleteInactiveAccounts,
  },
  {
    name: 'delete_repo_archives',
    description: "Delete all repositories' archives",
    schedule: '@annually',
    enabled: false,
    runAtStart: false,
    run: cleanup.deleteRepoArchives,
  },
  {
    name: 'git_gc_repos',
    description: 'Garbage-collect all repositories',
    schedule: '@every 72h',
    enabled: false,
    runAtStart: false,
    defaults: { timeoutMs: 60_000, args: [] },
    run: maintenance.gitGcRepos,
  },
  {
    name: 'resync_all_sshkeys',
    description: "Update the '.ssh/authorized_keys' file with SSH keys",
    schedule: '@every 72h',
    enabled: false,
    runAtStart: false,
    run: (cx, run) => subsystems.resyncSshFile(cx, run, 'keys'),
  },
  {
    name: 'resync_all_sshprincipals',
    description: "Update the '.ssh/authorized_principals' file with SSH principals",
    schedule: '@every 72h',
    enabled: false,
    runAtStart: false,
    run: (cx, run) => subsystems.resyncSshFile(cx, run, 'principals'),
  },
  {
    name: 'resync_all_hooks',
    description: 'Resynchronize the git hooks of all repositories',
    schedule: '@every 72h',
    enabled: false,
    runAtStart: false,
    run: maintenance.resyncAllHooks,
  },
  {
    name: 'reinit_missing_repos',
    description: 'Reinitialize all missing Git repositories for which records exist',
    schedule: '@every 72h',
    enabled: false,
    runAtStart: false,
    run: maintenance.reinitMissingRepos,
  },
  {
    name: 'delete_missing_repos',
    description: 'Delete all repositories missing their Git files',
    schedule: '@every 72h',
    enabled: false,
    runAtStart: false,
    run: maintenance.deleteMissingRepos,
  },
  {
    name: 'delete_generated_repository_avatars',
    description: 'Delete generated repository avatars',
    schedule: '@every 72h',
    enabled: false,
    runAtStart: false,
    run: subsystems.deleteGeneratedRepositoryAvatars,
  },
  {
    name: 'delete_old_actions',
    description: 'Delete all old activities from the database',
    schedule: '@every 168h',
    enabled: false,
    runAtStart: false,
    defaults: { olderThanMs: 8760 * H },
    run: cleanup.deleteOldActions,
  },
  {
    name: 'update_checker',
    description: 'Update checker',
    schedule: '@every 168h',
    enabled: true,
    runAtStart: false,
    run: subsystems.updateChecker,
  },
  {
    name: 'delete_old_system_notices',
    description: 'Delete all old system notices from the database',
    schedule: '@every 168h',
    enabled: false,
    runAtStart: false,
    defaults: { olderThanMs: 8760 * H },
    run: cleanup.deleteOldSystemNotices,
  },
  {
    name: 'gc_lfs',
    description: 'Garbage-collect LFS meta objects',
    schedule: '@every 24h',
    enabled: false,
    runAtStart: false,
    defaults: { olderThanMs: 168 * H },
    run: subsystems.gcLfs,
  },
  {
    name: 'rebuild_issue_indexer',
    description: 'Rebuild the issue indexer',
    schedule: '@annually',
    enabled: false,
    runAtStart: false,
    run: subsystems.rebuildIssueIndexer,
  },
  {
    name: 'stop_zombie_tasks',
    description: 'Stop zombie tasks',
    schedule: '@every 5m',
    enabled: true,
    runAtStart: true,
    run: actionTimeouts.stopZombieTasks,
  },
  {
    name: 'stop_endless_tasks',
    description: 'Stop endless tasks',
    schedule: '@every 30m',
    enabled: true,
    runAtStart: true,
    run: actionTimeouts.stopEndlessTasks,
  },
  {
    name: 'cancel_abandoned_jobs',
    description: 'Cancel abandoned jobs',
    schedule: '@every 6h',
    enabled: true,
    runAtStart: true,
    run: actionTimeouts.cancelAbandonedJobs,
  },
  {
    name: 'start_schedule_tasks',
    description: 'Start schedule tasks',
    schedule: '@every 1m',
    enabled: true,
    runAtStart: false,
    run: actionSchedules.startScheduleTasks,
  },
  {
    name: 'cleanup_actions',
    description: 'Clean up expired Actions resources',
    schedule: '@midnight',
    enabled: true,
    runAtStart: false,
    run: actionLogs.cleanupActions,
  },
];

const resolved = new WeakMap<Config, ResolvedCronTask<ServiceContext>[]>();

/** The tasks with this configuration's settings applied (computed once per Config). @throws Error naming an unknown task */
export function cronTasks(config: Config): ResolvedCronTask<ServiceContext>[] {
  let tasks = resolved.get(config);
  if (!tasks) {
    tasks = resolveCronTasks(CRON_TASKS, config.cron);
    resolved.set(config, tasks);
  }
  return tasks;
}
