// UpdateTask and UpdateLog (Gitea models/actions/task.go UpdateTaskByState, routers/api/actions/runner UpdateLog):
// the runner's step states, outputs and log rows; a result finishes the task, its job and maybe its run.
import type { Models } from '../../db/client.ts';
import { AlreadyExistsError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { advanceRun } from './jobGraph.ts';
import { statusOfResult, resultOfStatus } from './status.ts';
import { appendLogRows, archiveLog, type LogRow } from './taskLogs.ts';

const MAX_OUTPUT_KEY = 255;
const MAX_OUTPUT_VALUE = 1024 * 1024;

export interface StepReport {
  index: number;
  result: number;
  startedAt: Date | null;
  stoppedAt: Date | null;
  logIndex: number;
  logLength: number;
}

export interface TaskReport {
  taskId: number;
  result: number;
  startedAt: Date | null;
  stoppedAt: Date | null;
  steps: StepReport[];
  outputs: Record<string, string>;
}

/** The runner's own task. @throws NotFoundError, PermissionDeniedError "invalid runner for task" */
async function runnersTask(cx: ServiceContext, runner: Models.ActionRunner, taskId: number): Promise<Models.ActionTask> {
  const task = Number.isSafeInteger(taskId) ? await cx.db.actionTask.findUnique({ where: { id: taskId } }) : null;
  if (!task) throw new NotFoundError(`task with id ${taskId}: resource does not exist`);
  if (task.runnerId !== runner.id) throw new PermissionDeniedError('invalid runner for task');
  return task;
}

/** A step's status from its report: a result ends it, a start time makes it running. */
const stepStatus = (s: StepReport): Models.ActionStatus => (s.result ? statusOfResult(s.result) : s.startedAt ? 'RUNNING' : 'WAITING');

/**
 * UpdateTask: stores outputs and step states; a result other than unspecified finishes the task and its job (a
 * job being cancelled ends cancelled whatever the runner says) and advances the run. Answers the job's status as
 * the runner sees it (RESULT_CANCELLED is how a cancel reaches it) and every output key stored so far.
 */
export async function updateTask(
  cx: ServiceContext,
  runner: Models.ActionRunner,
  report: TaskReport,
): Promise<{ taskId: number; result: number; sentOutputs: string[] }> {
  const task = await runnersTask(cx, runner, report.taskId);
  const job = await withTx(cx, async (tx, emit) => {
    for (const [key, value] of Object.entries(report.outputs)) {
      if (key.length > MAX_OUTPUT_KEY || value.length > MAX_OUTPUT_VALUE) continue;
      await tx.actionTaskOutput.upsert({
        where: { taskId_outputKey: { taskId: task.id, outputKey: key } },
        create: { taskId: task.id, outputKey: key, outputValue: value },
        update: {},
      });
    }
    for (const step of report.steps) {
      await tx.actionTaskStep.updateMany({
        where: { taskId: task.id, index: step.index },
        data: {
          status: stepStatus(step),
          started: step.startedAt,
          stopped: step.stoppedAt,
          logIndex: step.logIndex,
          logLength: step.logLength,
        },
      });
    }
    const current = await tx.actionRunJob.findUniqueOrThrow({ where: { id: task.jobId } });
    if (!report.result || task.status !== 'RUNNING') {
      await tx.actionTask.update({ where: { id: task.id }, data: { updatedAt: new Date() } });
      return current;
    }
    const status = current.status === 'CANCELLING' || current.status === 'CANCELLED' ? 'CANCELLED' : statusOfResult(report.result);
    const stopped = report.stoppedAt ?? new Date();
    await tx.actionTask.update({ where: { id: task.id }, data: { status, stopped } });
    await tx.actionTaskStep.updateMany({ where: { taskId: task.id, status: { in: ['WAITING', 'RUNNING'] } }, data: { status: 'SKIPPED' } });
    const updated = await tx.actionRunJob.update({ where: { id: current.id }, data: { status, stopped } });
    await advanceRun(tx, current.runId, emit);
    // An ephemeral runner is done once its task is (Gitea deletes its row).
    if (runner.ephemeral) await tx.actionRunner.update({ where: { id: runner.id }, data: { deletedAt: stopped } });
    return updated;
  });
  const sent = await cx.db.actionTaskOutput.findMany({ where: { taskId: task.id }, select: { outputKey: true }, orderBy: { id: 'asc' } });
  const status = job.status === 'CANCELLING' ? 'CANCELLED' : job.status;
  return { taskId: task.id, result: resultOfStatus(status), sentOutputs: sent.map((o) => o.outputKey) };
}

/**
 * UpdateLog: appends the rows from the stored row count on (rows before it were acknowledged already) and answers
 * the new count; `noMore` seals the log. @throws AlreadyExistsError "log file has been archived"
 */
export async function updateLog(
  cx: ServiceContext,
  runner: Models.ActionRunner,
  input: { taskId: number; index: number; rows: readonly LogRow[]; noMore: boolean },
): Promise<number> {
  const task = await runnersTask(cx, runner, input.taskId);
  if (task.logInStorage) {
    if (!input.rows.length || input.index + input.rows.length <= task.logLength) return task.logLength;
    throw new AlreadyExistsError('log file has been archived');
  }
  const fresh = input.index <= task.logLength ? input.rows.slice(task.logLength - input.index) : [];
  const bytes = await appendLogRows(cx.config.dataDir, task.repoId, task.id, fresh);
  const logLength = task.logLength + fresh.length;
  if (input.noMore) await archiveLog(cx.config.dataDir, task.repoId, task.id);
  await cx.db.actionTask.update({
    where: { id: task.id },
    data: {
      logLength,
      logSize: { increment: bytes },
      logFilename: `${task.repoId}/${task.id}.log`,
      ...(input.noMore ? { logInStorage: true } : {}),
    },
  });
  return logLength;
}
