// The Actions cron tasks (Gitea services/actions/clear_tasks.go): tasks whose runner vanished, tasks that never
// end, and jobs no runner ever took.
import type { CronOutcome, CronRun } from '../../jobs/cronTask.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { advanceRun } from './jobGraph.ts';

const MINUTE = 60_000;
/** Gitea ZOMBIE_TASK_TIMEOUT, ENDLESS_TASK_TIMEOUT, ABANDONED_JOB_TIMEOUT. */
const ZOMBIE_MS = 10 * MINUTE;
const ENDLESS_MS = 180 * MINUTE;
const ABANDONED_MS = 24 * 60 * MINUTE;

/** Ends the tasks (and their jobs) as failed, then advances their runs. */
async function failTasks(cx: ServiceContext, taskIds: readonly number[]): Promise<number> {
  let stopped = 0;
  for (const id of taskIds) {
    await withTx(cx, async (tx, emit) => {
      const now = new Date();
      const won = await tx.actionTask.updateMany({ where: { id, status: 'RUNNING' }, data: { status: 'FAILURE', stopped: now } });
      if (!won.count) return;
      stopped++;
      const task = await tx.actionTask.findUniqueOrThrow({ where: { id } });
      await tx.actionTaskStep.updateMany({
        where: { taskId: id, status: { in: ['WAITING', 'RUNNING'] } },
        data: { status: 'FAILURE', stopped: now },
      });
      const job = await tx.actionRunJob.update({ where: { id: task.jobId }, data: { status: 'FAILURE', stopped: now } });
      await advanceRun(tx, job.runId, emit);
    });
  }
  return stopped;
}

/** stop_zombie_tasks: running tasks without a report (UpdateTask heartbeat) for 10 minutes fail. */
export async function stopZombieTasks(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const rows = await cx.db.actionTask.findMany({
    where: { status: 'RUNNING', updatedAt: { lt: new Date(run.startedAt.getTime() - ZOMBIE_MS) } },
    select: { id: true },
  });
  return {
    message: `stopped ${await failTasks(
      cx,
      rows.map((r) => r.id),
    )} zombie task(s)`,
  };
}

/** stop_endless_tasks: tasks running for more than 3 hours fail. */
export async function stopEndlessTasks(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const rows = await cx.db.actionTask.findMany({
    where: { status: 'RUNNING', started: { lt: new Date(run.startedAt.getTime() - ENDLESS_MS) } },
    select: { id: true },
  });
  return {
    message: `stopped ${await failTasks(
      cx,
      rows.map((r) => r.id),
    )} endless task(s)`,
  };
}

/** cancel_abandoned_jobs: jobs waiting for a runner for more than 24 hours are cancelled. */
export async function cancelAbandonedJobs(cx: ServiceContext, run: CronRun): Promise<CronOutcome> {
  const jobs = await cx.db.actionRunJob.findMany({
    where: { status: 'WAITING', taskId: null, updatedAt: { lt: new Date(run.startedAt.getTime() - ABANDONED_MS) } },
    select: { id: true, runId: true },
  });
  for (const job of jobs) {
    await withTx(cx, async (tx, emit) => {
      const won = await tx.actionRunJob.updateMany({
        where: { id: job.id, status: 'WAITING' },
        data: { status: 'CANCELLED', stopped: new Date() },
      });
      if (won.count) await advanceRun(tx, job.runId, emit);
    });
  }
  return { message: `cancelled ${jobs.length} abandoned job(s)` };
}
