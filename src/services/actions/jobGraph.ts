// After a job finishes: blocked jobs whose needs are done become waiting or skipped (Gitea's job emitter), and the
// run's status is the roll-up of its jobs (AggregateJobStatus).
import type { DbTx, Models } from '../../db/client.ts';
import { aggregateStatus, isDone } from './status.ts';
import { syncJobStatuses } from './commitStatuses.ts';
import type { Emit } from './hookStatus.ts';
import { bumpTasksVersion } from './tasksVersion.ts';
import { jobIf } from './workflowFile.ts';

/** Whether a job whose needs are all done runs: `if` with always()/failure()/cancelled(), else all needs succeeded. */
function shouldRun(ifExpr: string, needStatuses: readonly Models.ActionStatus[]): boolean {
  const allOk = needStatuses.every((s) => s === 'SUCCESS' || s === 'SKIPPED');
  const expr = ifExpr.replace(/^\s*\$\{\{\s*|\s*\}\}\s*$/g, '');
  if (/\balways\(\)/.test(expr)) return true;
  if (/\bfailure\(\)/.test(expr)) return needStatuses.includes('FAILURE');
  if (/\bcancelled\(\)/.test(expr)) return needStatuses.includes('CANCELLED');
  if (/^\s*false\s*$/.test(expr)) return false;
  return allOk;
}

/**
 * Unblocks or skips the run's ready jobs (repeatedly: a skip can make others ready), then rolls the run up.
 * The run row is written first: its row lock serializes the roll-ups of one run, so two jobs finishing at once on
 * PostgreSQL cannot each read the other as still running and leave the run unfinished (the later one waits, then
 * reads both results).
 */
export async function advanceRun(tx: DbTx, runId: number, emit: Emit): Promise<Models.ActionStatus> {
  await tx.actionRun.update({ where: { id: runId }, data: { version: { increment: 1 } } });
  const jobs = await tx.actionRunJob.findMany({ where: { runId }, orderBy: { id: 'asc' } });
  let unblocked = false;
  for (let changed = true; changed;) {
    changed = false;
    for (const job of jobs.filter((j) => j.status === 'BLOCKED')) {
      const needs: unknown = JSON.parse(job.needs);
      const needed = jobs.filter((j) => Array.isArray(needs) && needs.includes(j.jobId));
      if (!needed.every((n) => isDone(n.status))) continue;
      const next: Models.ActionStatus = shouldRun(
        jobIf(job.workflowPayload),
        needed.map((n) => n.status),
      )
        ? 'WAITING'
        : 'SKIPPED';
      await tx.actionRunJob.update({
        where: { id: job.id },
        data: { status: next, ...(next === 'SKIPPED' ? { stopped: new Date() } : {}) },
      });
      job.status = next;
      unblocked ||= next === 'WAITING';
      changed = true;
    }
  }
  if (unblocked) await bumpTasksVersion(tx);
  const status = aggregateStatus(jobs.map((j) => j.status));
  const done = isDone(status);
  await tx.actionRun.update({ where: { id: runId }, data: { status, ...(done ? { stopped: new Date() } : {}) } });
  await syncJobStatuses(tx, runId, emit);
  return status;
}
