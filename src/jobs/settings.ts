import { parseDuration } from './duration.ts';
import { parseSchedule } from './schedule.ts';

/** Worker settings (Config.jobs). */
export interface JobsOptions {
  /** Jobs run at once by one worker. */
  concurrency: number;
  /** How often an idle worker looks for jobs (it is also woken when this process enqueues). */
  pollIntervalMs: number;
  /** A RUNNING job whose lockedAt is older than this is taken as abandoned and claimed again. */
  leaseMs: number;
  /** How long `stop` lets running jobs finish before releasing them. */
  shutdownTimeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** DONE jobs are deleted after this long, dead (FAILED) ones after keepFailedMs. */
  keepDoneMs: number;
  keepFailedMs: number;
}

/** Config.jobs: the worker's settings and whether `serve` runs one. */
export interface JobsConfig extends JobsOptions {
  /** JOBS_WORKER: run a job worker in this instance (default true). */
  worker: boolean;
}

/** Per-task settings (Gitea `[cron.<name>]`); unset fields keep the task's defaults. */
export interface CronTaskSettings {
  enabled?: boolean;
  schedule?: string;
  runAtStart?: boolean;
  noticeOnSuccess?: boolean;
  olderThanMs?: number;
  /** cleanup_hook_task_table: `OlderThan` or `PerWebhook`. */
  cleanupType?: 'OlderThan' | 'PerWebhook';
  /** cleanup_hook_task_table with PerWebhook: deliveries kept per webhook. */
  numberToKeep?: number;
  /** repo_health_check / git_gc_repos: per-repository timeout. */
  timeoutMs?: number;
  /** repo_health_check / git_gc_repos: extra git arguments. */
  args?: string[];
}

/** Config.cron: whether this instance runs the scheduler, and the per-task settings by task name. */
export interface CronConfig {
  /** CRON_ENABLED (Gitea `[cron] ENABLED`): run the scheduler in this instance (default true). */
  enabled: boolean;
  tasks: Record<string, CronTaskSettings>;
}

type Env = NodeJS.ProcessEnv;

function bool(env: Env, key: string, fallback: boolean): boolean;
function bool(env: Env, key: string, fallback?: undefined): boolean | undefined;
function bool(env: Env, key: string, fallback?: boolean): boolean | undefined {
  const v = env[key]?.trim().toLowerCase();
  if (v === undefined || v === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`${key} must be true or false, got ${env[key]}`);
}

function duration(env: Env, key: string, fallback: string): number {
  const v = env[key]?.trim() || fallback;
  try {
    return parseDuration(v);
  } catch (err) {
    throw new Error(`${key}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function positiveInt(env: Env, key: string, fallback: number): number {
  const v = env[key]?.trim();
  if (!v) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${key} must be a positive integer, got ${v}`);
  return n;
}

/** Reads the JOBS_* variables (durations in Go syntax: 500ms, 10s, 1h). */
export function loadJobsConfig(env: Env): JobsConfig {
  return {
    worker: bool(env, 'JOBS_WORKER', true),
    concurrency: positiveInt(env, 'JOBS_CONCURRENCY', 4),
    pollIntervalMs: duration(env, 'JOBS_POLL_INTERVAL', '2s'),
    leaseMs: duration(env, 'JOBS_LEASE', '60s'),
    shutdownTimeoutMs: duration(env, 'JOBS_SHUTDOWN_TIMEOUT', '10s'),
    retryBaseMs: duration(env, 'JOBS_RETRY_BASE', '10s'),
    retryMaxMs: duration(env, 'JOBS_RETRY_MAX', '1h'),
    keepDoneMs: duration(env, 'JOBS_KEEP_DONE', '24h'),
    keepFailedMs: duration(env, 'JOBS_KEEP_FAILED', '720h'),
  };
}

/** The per-task keys, longest first so `RUN_AT_START` is not read as a task named `..._RUN_AT`. */
const TASK_KEYS = [
  'NOTICE_ON_SUCCESS',
  'NUMBER_TO_KEEP',
  'CLEANUP_TYPE',
  'RUN_AT_START',
  'OLDER_THAN',
  'SCHEDULE',
  'ENABLED',
  'TIMEOUT',
  'ARGS',
];
const TASK_VAR = new RegExp(`^CRON_([A-Z0-9_]+?)_(${TASK_KEYS.join('|')})$`);

/**
 * Reads CRON_ENABLED and the per-task variables `CRON_<TASK>_<KEY>` (Gitea `[cron.<task>] KEY`), e.g.
 * `CRON_GIT_GC_REPOS_ENABLED=true`, `CRON_UPDATE_MIRRORS_SCHEDULE=@every 30m`,
 * `CRON_DELETE_OLD_ACTIONS_OLDER_THAN=720h`. Task names are checked against the task list when the app starts.
 */
export function loadCronConfig(env: Env): CronConfig {
  const tasks: Record<string, CronTaskSettings> = {};
  for (const [key, raw] of Object.entries(env)) {
    const m = TASK_VAR.exec(key);
    if (!m?.[1] || !m[2] || raw === undefined) continue;
    const name = m[1].toLowerCase();
    const t = (tasks[name] ??= {});
    const value = raw.trim();
    switch (m[2]) {
      case 'ENABLED':
        t.enabled = bool(env, key);
        break;
      case 'RUN_AT_START':
        t.runAtStart = bool(env, key);
        break;
      case 'NOTICE_ON_SUCCESS':
        t.noticeOnSuccess = bool(env, key);
        break;
      case 'SCHEDULE':
        try {
          t.schedule = parseSchedule(value).spec;
        } catch (err) {
          throw new Error(`${key}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        }
        break;
      case 'OLDER_THAN':
        t.olderThanMs = duration(env, key, value);
        break;
      case 'TIMEOUT':
        t.timeoutMs = duration(env, key, value);
        break;
      case 'NUMBER_TO_KEEP':
        t.numberToKeep = positiveInt(env, key, 10);
        break;
      case 'CLEANUP_TYPE':
        if (value !== 'OlderThan' && value !== 'PerWebhook') throw new Error(`${key} must be OlderThan or PerWebhook, got ${value}`);
        t.cleanupType = value;
        break;
      case 'ARGS':
        t.args = value.split(/\s+/).filter(Boolean);
        break;
    }
  }
  return { enabled: bool(env, 'CRON_ENABLED', true), tasks };
}
