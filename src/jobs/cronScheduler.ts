import type { Db } from '../db/client.ts';
import { syncCronRows } from './cronRows.ts';
import { runCronTask, type CronRunRecord } from './cronRun.ts';
import type { CronTrigger, ResolvedCronTask } from './cronTask.ts';
import { newWorkerId, type JobLog } from './worker.ts';

/** Scheduler settings. */
export interface CronSchedulerOptions {
  /** Lease of a task's running lock (renewed while it runs). */
  leaseMs: number;
  /** How long `stop` waits for running tasks (they are told to stop first). */
  shutdownTimeoutMs: number;
  /** Longest sleep between looks at the table (other instances may change it). */
  maxSleepMs?: number;
}

/**
 * Runs the cron tasks on their schedules with the state in the CronTask table: each due row is claimed by a
 * compare-and-set of its nextRunAt to the following run time, so among N instances exactly one runs each
 * scheduled occurrence. Missed occurrences are not caught up (the next run is computed from now, as Gitea's
 * scheduler does after a restart). Enabled RUN_AT_START tasks run when the scheduler starts.
 */
export class CronScheduler<C> {
  readonly owner = newWorkerId();
  readonly #db: Db;
  readonly #tasks: Map<string, ResolvedCronTask<C>>;
  readonly #context: () => C;
  readonly #opts: CronSchedulerOptions;
  readonly #log: JobLog;
  readonly #listeners = new Set<(record: CronRunRecord) => void>();
  readonly #inFlight = new Set<Promise<void>>();
  #controller = new AbortController();
  #timer: NodeJS.Timeout | null = null;
  #started = false;
  #ticking: Promise<void> | null = null;

  constructor(db: Db, tasks: readonly ResolvedCronTask<C>[], context: () => C, opts: CronSchedulerOptions, log: JobLog) {
    this.#db = db;
    this.#tasks = new Map(tasks.map((t) => [t.def.name, t]));
    this.#context = context;
    this.#opts = opts;
    this.#log = log;
  }

  /** Observes every finished run of this scheduler (logging, tests); returns the unsubscribe. */
  onRun(listener: (record: CronRunRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Syncs the rows with the configuration, starts the RUN_AT_START tasks and the timer. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    this.#controller = new AbortController();
    await syncCronRows(this.#db, [...this.#tasks.values()]);
    for (const task of this.#tasks.values()) if (task.settings.enabled && task.settings.runAtStart) this.#launch(task, 'start', null);
    this.#schedule(0);
  }

  /** Stops the timer, asks running tasks to stop, and waits for them up to shutdownTimeoutMs. */
  async stop(): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#ticking;
    this.#controller.abort(new Error('server shutting down'));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#opts.shutdownTimeoutMs)));
    await Promise.race([Promise.allSettled([...this.#inFlight]), timeout]);
    clearTimeout(timer);
    // Runs still going lose their lock, so another instance is not blocked until the lease expires.
    await this.#db.cronTask.updateMany({ where: { runningBy: this.owner }, data: { runningBy: '', runningAt: null } });
  }

  #schedule(delayMs: number): void {
    if (!this.#started) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#ticking = this.#tick().finally(() => (this.#ticking = null));
    }, delayMs);
    this.#timer.unref();
  }

  /** Claims and starts every due task, then sleeps until the next one is due (or maxSleepMs). */
  async #tick(): Promise<void> {
    const maxSleep = this.#opts.maxSleepMs ?? 30_000;
    let sleep = maxSleep;
    try {
      const now = new Date();
      const due = await this.#db.cronTask.findMany({ where: { enabled: true, nextRunAt: { lte: now } }, orderBy: { nextRunAt: 'asc' } });
      for (const row of due) {
        const task = this.#tasks.get(row.name);
        if (!task || !task.settings.enabled || row.nextRunAt === null) continue;
        const next = task.schedule.next(now);
        const { count } = await this.#db.cronTask.updateMany({
          where: { name: row.name, enabled: true, nextRunAt: row.nextRunAt },
          data: { nextRunAt: next },
        });
        if (count === 1) this.#launch(task, 'schedule', row.nextRunAt);
      }
      const soonest = await this.#db.cronTask.findFirst({
        where: { enabled: true, nextRunAt: { not: null } },
        orderBy: { nextRunAt: 'asc' },
        select: { nextRunAt: true },
      });
      if (soonest?.nextRunAt) sleep = Math.min(maxSleep, Math.max(10, soonest.nextRunAt.getTime() - Date.now()));
    } catch (err) {
      this.#log.error({ err }, 'cron scheduling failed');
    }
    this.#schedule(sleep);
  }

  #launch(task: ResolvedCronTask<C>, trigger: CronTrigger, scheduledFor: Date | null): void {
    const run = runCronTask(this.#db, task, this.#context(), {
      owner: this.owner,
      trigger,
      leaseMs: this.#opts.leaseMs,
      signal: this.#controller.signal,
      ...(scheduledFor ? { scheduledFor } : {}),
    })
      .then((record) => {
        if (!record) return;
        // A routine run is debug-level: start_schedule_tasks alone runs every minute.
        const level = record.status === 'ERROR' ? 'error' : 'debug';
        this.#log[level](
          { task: record.name, trigger, status: record.status, ms: record.finishedAt.getTime() - record.startedAt.getTime() },
          `cron ${record.name}: ${record.error || record.message}`,
        );
        for (const listener of this.#listeners) listener(record);
      })
      .catch((err: unknown) => this.#log.error({ err, task: task.def.name }, 'cron task bookkeeping failed'));
    this.#inFlight.add(run);
    void run.finally(() => this.#inFlight.delete(run));
  }
}
