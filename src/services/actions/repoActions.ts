// A repository's runs and jobs (Gitea routers/api/v1/repo/action.go): read with the Actions unit, cancel and
// dispatch with write access to it.
import type { Models } from '../../db/client.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { requireRepo, requireUnitRead, requireUnitWrite, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import type { ListOptions, Page } from '../paging.ts';
import { startRunsForEvent } from './createRuns.ts';
import { advanceRun } from './jobGraph.ts';
import { findJob, findRun, listJobs, listRuns, type JobFilter, type JobView, type RunFilter, type RunView } from './lists.ts';
import { readLog } from './taskLogs.ts';
import { bumpTasksVersion } from './tasksVersion.ts';
import { disabledWorkflows } from './workflows.ts';

/** The Actions unit must be readable. @throws NotFoundError */
export async function requireActionsRead(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess> {
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireUnitRead(access, 'ACTIONS');
  return access;
}

/** The Actions unit must be writable (Gitea reqToken + reqRepoWriter(TypeActions)). @throws NotFoundError, PermissionDeniedError */
export async function requireActionsWrite(cx: ServiceContext, ref: RepoRef): Promise<RepoAccess & { viewer: Models.User }> {
  const access = await requireActionsRead(cx, ref);
  const viewer = requireViewer(cx);
  requireUnitWrite(cx, access, 'ACTIONS', 'write:repository');
  return { ...access, viewer };
}

export async function listRepoRuns(cx: ServiceContext, ref: RepoRef, filter: RunFilter, page: ListOptions): Promise<Page<RunView>> {
  const { repo } = await requireActionsRead(cx, ref);
  return listRuns(cx, { repoId: repo.id }, filter, page);
}

/** GET …/workflows/{workflow_id}/runs: the runs of one workflow file (a signed-in reader of the Actions unit). */
export async function listWorkflowRuns(
  cx: ServiceContext,
  ref: RepoRef,
  workflowId: string,
  filter: RunFilter,
  page: ListOptions,
): Promise<Page<RunView>> {
  const { repo } = await requireActionsRead(cx, ref);
  requireViewer(cx);
  return listRuns(cx, { repoId: repo.id, workflowId }, filter, page);
}

export async function getRepoRun(cx: ServiceContext, ref: RepoRef, runId: number): Promise<RunView> {
  const { repo } = await requireActionsRead(cx, ref);
  const run = await findRun(cx, { id: runId, repoId: repo.id });
  if (!run) throw new NotFoundError(`run with id ${runId}: resource does not exist`);
  return run;
}

export async function listRepoJobs(
  cx: ServiceContext,
  ref: RepoRef,
  runId: number | null,
  filter: JobFilter,
  page: ListOptions,
): Promise<Page<JobView>> {
  const { repo } = await requireActionsRead(cx, ref);
  if (runId !== null && !(await cx.db.actionRun.findFirst({ where: { id: runId, repoId: repo.id }, select: { id: true } }))) {
    throw new NotFoundError(`run with id ${runId}: resource does not exist`);
  }
  return listJobs(cx, { repoId: repo.id, ...(runId === null ? {} : { runId }) }, filter, page);
}

export async function getRepoJob(cx: ServiceContext, ref: RepoRef, jobId: number): Promise<JobView> {
  const { repo } = await requireActionsRead(cx, ref);
  const job = await findJob(cx, { id: jobId, repoId: repo.id });
  if (!job) throw new NotFoundError(`job with id ${jobId}: resource does not exist`);
  return job;
}

/** The job's log (its latest task's); "" before a runner sent any line. */
export async function repoJobLogs(cx: ServiceContext, ref: RepoRef, jobId: number): Promise<string> {
  const job = await getRepoJob(cx, ref, jobId);
  if (!job.task) return '';
  return readLog(cx.config.dataDir, job.task.repoId, job.task.id, job.task.logInStorage);
}

/**
 * Cancels the run's unfinished jobs (Gitea CancelJobs): waiting and blocked ones end cancelled; a running one
 * ends cancelled too, or `cancelling` when its runner can cancel, and the runner learns it from its next
 * UpdateTask answer (RESULT_CANCELLED).
 */
export async function cancelRun(cx: ServiceContext, ref: RepoRef, runId: number): Promise<void> {
  const { repo } = await requireActionsWrite(cx, ref);
  const run = await cx.db.actionRun.findFirst({ where: { id: runId, repoId: repo.id } });
  if (!run) throw new NotFoundError(`run with id ${runId}: resource does not exist`);
  await withTx(cx, async (tx, emit) => {
    const now = new Date();
    await tx.actionRunJob.updateMany({
      where: { runId, status: { in: ['WAITING', 'BLOCKED'] } },
      data: { status: 'CANCELLED', stopped: now },
    });
    const running = await tx.actionRunJob.findMany({
      where: { runId, status: 'RUNNING' },
      include: { task: { include: { runner: true } } },
    });
    for (const job of running) {
      const graceful = job.task?.runner?.hasCancelling === true;
      await tx.actionRunJob.update({
        where: { id: job.id },
        data: graceful ? { status: 'CANCELLING' } : { status: 'CANCELLED', stopped: now },
      });
      if (job.task && !graceful) await tx.actionTask.update({ where: { id: job.task.id }, data: { status: 'CANCELLED', stopped: now } });
    }
    await advanceRun(tx, runId, emit);
    await bumpTasksVersion(tx);
  });
}

/** workflow_dispatch (POST …/actions/workflows/{workflow_id}/dispatches): a run of that workflow at `ref` with `inputs`. */
export async function dispatchWorkflow(
  cx: ServiceContext,
  ref: RepoRef,
  input: { workflowId: string; ref: string; inputs: Record<string, string> },
): Promise<Models.ActionRun> {
  const { repo, viewer } = await requireActionsWrite(cx, ref);
  if (!input.ref) throw new ValidationError('ref is required');
  if ((await disabledWorkflows(cx.db, repo.id))?.includes(input.workflowId)) throw new PermissionDeniedError('workflow is disabled');
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const found = await resolveRef(gitDir, input.ref.replace(/^refs\/(heads|tags)\//, ''));
  if (!found || found.kind === 'commit') throw new NotFoundError(`ref ${input.ref} does not exist`);
  const fullRef = `refs/${found.kind === 'branch' ? 'heads' : 'tags'}/${found.name}`;
  const [run] = await startRunsForEvent(cx, {
    repo,
    event: 'workflow_dispatch',
    ref: fullRef,
    commitSha: found.commit,
    triggerUserId: viewer.id,
    workflowFile: input.workflowId,
    payload: {
      inputs: input.inputs,
      ref: fullRef,
      repository: { id: repo.id, name: repo.name, full_name: `${repo.ownerName}/${repo.name}`, default_branch: repo.defaultBranch },
      sender: { id: viewer.id, login: viewer.name, username: viewer.name },
      workflow: input.workflowId,
    },
    matches: () => true,
  });
  if (!run) throw new NotFoundError(`workflow ${input.workflowId} not found or it has no workflow_dispatch trigger`);
  return run;
}
