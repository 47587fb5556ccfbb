// Deleting and re-running runs (Gitea routers/api/v1/repo/action.go DeleteActionRun, RerunWorkflowRun,
// RerunWorkflowJob, RerunFailedWorkflowRun; web Rerun semantics): a re-run job goes back to waiting (or blocked
// behind the other re-run jobs it needs) in the run's next attempt, and everything that needs it re-runs too.
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError } from '../../errors.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { advanceRun } from './jobGraph.ts';
import { requireActionsWrite } from './repoActions.ts';
import { recordAttempt } from './runAttempts.ts';
import { isDone } from './status.ts';
import { removeArtifactFiles } from './artifactStore.ts';
import { removeLog } from './taskLogs.ts';
import { bumpTasksVersion } from './tasksVersion.ts';
import { disabledWorkflows } from './workflows.ts';

const needsOf = (job: Models.ActionRunJob): string[] => {
  const v: unknown = JSON.parse(job.needs);
  return Array.isArray(v) ? v.map(String) : [];
};

/** `roots` and every job that needs one of them, transitively (Gitea GetAllRerunJobs). */
function withDependents(roots: readonly Models.ActionRunJob[], jobs: readonly Models.ActionRunJob[]): Models.ActionRunJob[] {
  const ids = new Set(roots.map((j) => j.jobId));
  for (let grew = true; grew;) {
    grew = false;
    for (const j of jobs) {
      if (!ids.has(j.jobId) && needsOf(j).some((n) => ids.has(n))) {
        ids.add(j.jobId);
        grew = true;
      }
    }
  }
  return jobs.filter((j) => ids.has(j.jobId));
}

async function repoRun(cx: ServiceContext, ref: RepoRef, runId: number) {
  const { repo } = await requireActionsWrite(cx, ref);
  const run = await cx.db.actionRun.findFirst({ where: { id: runId, repoId: repo.id }, include: { jobs: { orderBy: { id: 'asc' } } } });
  if (!run) throw new NotFoundError(`run with id ${runId}: resource does not exist`);
  return run;
}

/** DELETE …/runs/{run}: a finished run with its jobs, tasks and logs. @throws InvalidArgumentError when not done */
export async function deleteRun(cx: ServiceContext, ref: RepoRef, runId: number): Promise<void> {
  const run = await repoRun(cx, ref, runId);
  if (!isDone(run.status)) throw new InvalidArgumentError('this workflow run is not done');
  const tasks = await cx.db.actionTask.findMany({ where: { job: { runId } }, select: { id: true, repoId: true } });
  const artifacts = await cx.db.actionArtifact.findMany({ where: { runId }, select: { id: true, storagePath: true } });
  await cx.db.actionRun.delete({ where: { id: runId } });
  await Promise.all(tasks.map((t) => removeLog(cx.config.dataDir, t.repoId, t.id)));
  await Promise.all(artifacts.map((a) => removeArtifactFiles(cx.config.dataDir, a.id, a.storagePath)));
}

/**
 * Resets the finished jobs of `rerun` in one transaction and rolls the run up again. A finished run starts its next
 * attempt (the one that ended is kept as it was: recordAttempt); the re-run jobs carry the run's attempt number.
 */
async function rerunJobs(
  cx: ServiceContext,
  run: Models.ActionRun & { jobs: Models.ActionRunJob[] },
  rerun: readonly Models.ActionRunJob[],
): Promise<void> {
  if ((await disabledWorkflows(cx.db, run.repoId))?.includes(run.workflowId)) {
    throw new InvalidArgumentError(`workflow ${run.workflowId} is disabled`);
  }
  const ids = new Set(rerun.map((j) => j.jobId));
  const attempt = isDone(run.status) ? run.attempt + 1 : run.attempt;
  await withTx(cx, async (tx, emit) => {
    if (isDone(run.status)) {
      await recordAttempt(tx, run);
      const took = run.started && run.stopped ? Math.round((run.stopped.getTime() - run.started.getTime()) / 1000) : 0;
      await tx.actionRun.update({
        where: { id: run.id },
        data: { started: null, stopped: null, previousDuration: run.previousDuration + took, attempt },
      });
    }
    for (const job of rerun) {
      if (!isDone(job.status)) continue;
      const status = needsOf(job).some((n) => ids.has(n)) ? 'BLOCKED' : 'WAITING';
      await tx.actionRunJob.updateMany({
        where: { id: job.id, status: job.status },
        data: { status, taskId: null, started: null, stopped: null, attempt },
      });
    }
    await advanceRun(tx, run.id, emit);
    await bumpTasksVersion(tx);
  });
}

/** POST …/runs/{run}/rerun: every job. @throws InvalidArgumentError while the run is not done */
export async function rerunRun(cx: ServiceContext, ref: RepoRef, runId: number): Promise<void> {
  const run = await repoRun(cx, ref, runId);
  if (!isDone(run.status)) throw new InvalidArgumentError('this workflow run is not done');
  await rerunJobs(cx, run, run.jobs);
}

/** POST …/runs/{run}/rerun-failed-jobs: the failed and cancelled jobs and their dependents. */
export async function rerunFailedJobs(cx: ServiceContext, ref: RepoRef, runId: number): Promise<void> {
  const run = await repoRun(cx, ref, runId);
  if (!isDone(run.status)) throw new InvalidArgumentError('this workflow run is not done');
  const failed = run.jobs.filter((j) => j.status === 'FAILURE' || j.status === 'CANCELLED');
  await rerunJobs(cx, run, withDependents(failed, run.jobs));
}

/** POST …/runs/{run}/jobs/{job_id}/rerun: the job and what needs it. @throws InvalidArgumentError while the job runs */
export async function rerunJob(cx: ServiceContext, ref: RepoRef, runId: number, jobId: number): Promise<number> {
  const run = await repoRun(cx, ref, runId);
  const job = run.jobs.find((j) => j.id === jobId);
  if (!job) throw new NotFoundError(`job with id ${jobId}: resource does not exist`);
  if (!isDone(job.status)) throw new InvalidArgumentError('this job is not done');
  await rerunJobs(cx, run, withDependents([job], run.jobs));
  return job.id;
}
