// workflow_run and workflow_job webhooks (Gitea services/webhook/notifier.go WorkflowRunStatusUpdate,
// WorkflowJobStatusUpdate): wherever jobs change state (the same places that write commit statuses), a job whose
// API status changed and a run whose webhook action changed are announced once, in the changing transaction, so
// the webhook delivery is queued with the change (the outbox of notify/webhooks).
import type { DbTx, Models } from '../../db/client.ts';
import type { DomainEvent } from '../../notify/events.ts';
import { apiStatus, isDone } from './status.ts';

export type Emit = (e: DomainEvent) => void;

/** Gitea ToWorkflowRunAction: requested (waiting or blocked), in_progress, completed; "" for other states. */
export function runAction(s: Models.ActionStatus): string {
  if (isDone(s)) return 'completed';
  if (s === 'WAITING' || s === 'BLOCKED') return 'requested';
  return s === 'RUNNING' ? 'in_progress' : '';
}

const jobAction = (s: Models.ActionStatus): string => {
  const { status } = apiStatus(s);
  return status === 'unknown' ? '' : status;
};

/** Announces the run's and its jobs' changed statuses and records them as announced. */
export async function announceStatuses(tx: DbTx, run: Models.ActionRun & { jobs: Models.ActionRunJob[] }, emit: Emit): Promise<void> {
  const base = { runId: run.id, repoId: run.repoId, actorId: run.triggerUserId };
  for (const job of run.jobs) {
    const action = jobAction(job.status);
    if (job.hookStatus === job.status || !action || action === jobAction(job.hookStatus)) continue;
    const won = await tx.actionRunJob.updateMany({ where: { id: job.id, hookStatus: job.hookStatus }, data: { hookStatus: job.status } });
    if (won.count) emit({ type: 'actions.jobStatus', jobId: job.id, action, ...base });
  }
  const action = runAction(run.status);
  if (run.hookStatus === run.status || !action || action === runAction(run.hookStatus)) return;
  const won = await tx.actionRun.updateMany({ where: { id: run.id, hookStatus: run.hookStatus }, data: { hookStatus: run.status } });
  if (won.count) emit({ type: 'actions.runStatus', action, ...base });
}
