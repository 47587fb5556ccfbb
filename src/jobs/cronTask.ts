import { parseSchedule, type Schedule } from './schedule.ts';
import type { CronConfig, CronTaskSettings } from './settings.ts';

/** How a run started: by the scheduler, by an administrator, or at server start (RUN_AT_START). */
export type CronTrigger = 'schedule' | 'manual' | 'start';

/** The settings a task runs with: its defaults overridden by the configuration. */
export type ResolvedCronSettings = CronTaskSettings & { enabled: boolean; schedule: string; runAtStart: boolean; noticeOnSuccess: boolean };

/** What a task function receives besides its context. */
export interface CronRun {
  settings: ResolvedCronSettings;
  trigger: CronTrigger;
  startedAt: Date;
  /** Aborted at shutdown: long tasks stop between repositories. */
  signal: AbortSignal;
}

/** A finished run: what it did, or (skipped) why its subsystem had nothing it could act on. */
export interface CronOutcome {
  message: string;
  skipped?: boolean;
}

/** One of Gitea's cron tasks: name, defaults (services/cron/tasks_*.go) and the function that does the work. */
export interface CronTaskDef<C> {
  name: string;
  /** Gitea's description of the task, for notices. */
  description: string;
  schedule: string;
  enabled: boolean;
  runAtStart: boolean;
  /** Defaults of the task's extra settings (OLDER_THAN …). */
  defaults?: Omit<CronTaskSettings, 'enabled' | 'schedule' | 'runAtStart' | 'noticeOnSuccess'>;
  run(context: C, run: CronRun): Promise<CronOutcome>;
}

/** A task with its effective settings and parsed schedule. */
export interface ResolvedCronTask<C> {
  def: CronTaskDef<C>;
  settings: ResolvedCronSettings;
  schedule: Schedule;
}

/**
 * Applies the configuration to the task list: each task's settings over its defaults.
 * Throws when the configuration names a task that does not exist (a typo would otherwise be ignored).
 */
export function resolveCronTasks<C>(defs: readonly CronTaskDef<C>[], config: CronConfig): ResolvedCronTask<C>[] {
  const known = new Set(defs.map((d) => d.name));
  for (const name of Object.keys(config.tasks)) {
    if (!known.has(name)) throw new Error(`CRON_${name.toUpperCase()}_*: there is no cron task named ${name}`);
  }
  return defs.map((def) => {
    const o = config.tasks[def.name] ?? {};
    const settings: ResolvedCronSettings = {
      ...def.defaults,
      ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
      enabled: o.enabled ?? def.enabled,
      schedule: o.schedule ?? def.schedule,
      runAtStart: o.runAtStart ?? def.runAtStart,
      noticeOnSuccess: o.noticeOnSuccess ?? false,
    };
    return { def, settings, schedule: parseSchedule(settings.schedule) };
  });
}
