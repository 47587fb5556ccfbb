// Run attempts (Gitea action_run_attempt; GET …/runs/{run}/attempts/{attempt}[/jobs]): the run row and its jobs are
// the latest attempt; a re-run of a finished run first records the attempt that ended, with each job's status,
// times and task as they were, so attempt N's jobs are what ran then. Attempt 1 exists for every run.
import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { JOB_INCLUDE, listJobs, statusFilter, type JobFilter, type JobView, type RunView } from './lists.ts';
import { getRepoRun } from './repoActions.ts';

/** Keeps the attempt a re-run is about to replace: the run's status and times and each job's (inside its transaction). */
export async function recordAttempt(tx: DbLike, run: Models.ActionRun & { jobs: Models.ActionRunJob[] }): Promise<void> {
  await tx.actionRunAttempt.create({
    data: {
      runId: run.id,
      attempt: run.attempt,
      status: run.status,
      started: run.started,
      stopped: run.stopped,
      jobs: {
        create: run.jobs.map((j) => ({
          jobId: j.id,
          taskId: j.taskId,
          attempt: j.attempt,
          status: j.status,
          started: j.started,
          stopped: j.stopped,
        })),
      },
    },
  });
}

const notFound = (runId: number, attempt: number) => new NotFoundError(`run attempt ${attempt} for run ${runId}: resource does not exist`);

/** GET …/runs/{run}/attempts/{attempt}: the run as it was in that attempt (the run itself for the latest). @throws NotFoundError */
export async function getRunAttempt(cx: ServiceContext, ref: RepoRef, runId: number, attempt: number): Promise<RunView> {
  const run = await getRepoRun(cx, ref, runId);
  if (attempt === run.attempt) return run;
  const kept = attempt >= 1 && attempt < run.attempt ? await findAttempt(cx, run.id, attempt) : null;
  if (!kept) throw notFound(runId, attempt);
  return { ...run, attempt, status: kept.status, started: kept.started, stopped: kept.stopped };
}

function findAttempt(cx: ServiceContext, runId: number, attempt: number) {
  return cx.db.actionRunAttempt.findUnique({ where: { runId_attempt: { runId, attempt } } });
}

/** GET …/runs/{run}/attempts/{attempt}/jobs: the jobs as they ran in that attempt, oldest first. @throws NotFoundError */
export async function listRunAttemptJobs(
  cx: ServiceContext,
  ref: RepoRef,
  runId: number,
  attempt: number,
  filter: Pick<JobFilter, 'status'>,
  page: ListOptions,
): Promise<Page<JobView>> {
  const run = await getRepoRun(cx, ref, runId);
  if (attempt === run.attempt) return listJobs(cx, { runId: run.id }, { status: filter.status, sort: '', order: '' }, page);
  const kept = attempt >= 1 && attempt < run.attempt ? await findAttempt(cx, run.id, attempt) : null;
  if (!kept) throw notFound(runId, attempt);
  const statuses = statusFilter(filter.status);
  const where: Models.Prisma.ActionRunAttemptJobWhereInput = { attemptId: kept.id, ...(statuses ? { status: { in: statuses } } : {}) };
  const [rows, total] = await Promise.all([
    cx.db.actionRunAttemptJob.findMany({
      where,
      include: { job: { include: { run: JOB_INCLUDE.run } }, task: JOB_INCLUDE.task },
      orderBy: { jobId: 'asc' },
      ...skipTake(page),
    }),
    cx.db.actionRunAttemptJob.count({ where }),
  ]);
  const items = rows.map(({ job, task, ...then }) => ({
    ...job,
    attempt: then.attempt,
    status: then.status,
    started: then.started,
    stopped: then.stopped,
    taskId: then.taskId,
    task,
  }));
  return { items, total };
}
