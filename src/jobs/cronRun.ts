import type { Db } from '../db/client.ts';
import type { CronOutcome, CronTrigger, ResolvedCronTask } from './cronTask.ts';

/** What one run did (also what the scheduler reports to its listeners). */
export interface CronRunRecord {
  name: string;
  trigger: CronTrigger;
  /** The scheduled time the run was claimed for (scheduled runs only). */
  scheduledFor: Date | null;
  startedAt: Date;
  finishedAt: Date;
  status: 'SUCCESS' | 'ERROR' | 'SKIPPED';
  message: string;
  error: string;
}

/** How to run: who runs it (the lock holder), for what, and the lease of the running lock. */
export interface CronRunOptions {
  owner: string;
  trigger: CronTrigger;
  leaseMs: number;
  scheduledFor?: Date;
  signal?: AbortSignal;
}

const MAX_TEXT = 4000;
const clip = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);

/**
 * Gitea Task.RunWithUser: takes the task's running lock (a compare-and-set on its row: idle, or held by a run
 * whose lease expired) — if the task is already running anywhere, returns null without running it; counts the
 * run (exec_times, prev), runs it synchronously (renewing the lock), records the outcome on the row, and adds a
 * system notice when it failed (or when NOTICE_ON_SUCCESS asks). The row must exist (syncCronRows).
 */
export async function runCronTask<C>(db: Db, task: ResolvedCronTask<C>, context: C, opts: CronRunOptions): Promise<CronRunRecord | null> {
  const name = task.def.name;
  const startedAt = new Date();
  const { count } = await db.cronTask.updateMany({
    where: { name, OR: [{ runningBy: '' }, { runningAt: null }, { runningAt: { lt: new Date(startedAt.getTime() - opts.leaseMs) } }] },
    data: { runningBy: opts.owner, runningAt: startedAt, execTimes: { increment: 1 }, lastRunAt: startedAt },
  });
  if (!count) return null;
  const heartbeat = setInterval(
    () => void db.cronTask.updateMany({ where: { name, runningBy: opts.owner }, data: { runningAt: new Date() } }).catch(() => undefined),
    Math.max(50, Math.floor(opts.leaseMs / 3)),
  );
  heartbeat.unref();
  let outcome: CronOutcome = { message: '' };
  let error = '';
  try {
    outcome = await task.def.run(context, {
      settings: task.settings,
      trigger: opts.trigger,
      startedAt,
      signal: opts.signal ?? new AbortController().signal,
    });
  } catch (err) {
    error = clip(err instanceof Error ? err.message : String(err));
  } finally {
    clearInterval(heartbeat);
  }
  const finishedAt = new Date();
  const status = error ? 'ERROR' : outcome.skipped ? 'SKIPPED' : 'SUCCESS';
  const message = clip(outcome.message);
  await db.cronTask.updateMany({
    where: { name, runningBy: opts.owner },
    data: {
      runningBy: '',
      runningAt: null,
      lastStatus: status,
      lastMessage: message,
      lastError: error,
      lastFinishedAt: finishedAt,
      lastDurationMs: finishedAt.getTime() - startedAt.getTime(),
    },
  });
  if (error) {
    await db.systemNotice.create({
      data: { type: 'TASK', description: `Cron: error while running ${name} (${task.def.description}): ${error}` },
    });
  } else if (task.settings.noticeOnSuccess) {
    await db.systemNotice.create({ data: { type: 'TASK', description: `Cron: ${name} (${task.def.description}) finished: ${message}` } });
  }
  return { name, trigger: opts.trigger, scheduledFor: opts.scheduledFor ?? null, startedAt, finishedAt, status, message, error };
}
