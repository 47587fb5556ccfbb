// FetchTask (Gitea services/actions/task.go PickTask, models/actions/task.go CreateTaskForRunner): hands the oldest
// waiting job whose runs-on labels the runner has to that runner, claimed by a conditional update so two runners
// never get the same job.
import { secretsOfTask } from './actionSecrets.ts';
import { variablesOfRun } from './actionVariables.ts';
import { syncJobStatuses } from './commitStatuses.ts';
import type { Models } from '../../db/client.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { runnerLabels } from './runners.ts';
import { issueRuntimeToken } from './runtimeToken.ts';
import { newSaltedToken } from './secrets.ts';
import { resultOfStatus } from './status.ts';
import { currentTasksVersion } from './tasksVersion.ts';
import { stepNames } from './workflowFile.ts';

/** What the transport turns into a runner.v1.Task. */
export interface AssignedTask {
  id: number;
  workflowPayload: string;
  context: Record<string, unknown>;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  needs: Record<string, { outputs: Record<string, string>; result: number }>;
}

/** How many waiting jobs one fetch looks at (Gitea MAX_CONCURRENT_TASK_PICKS is per server; this is per call). */
const CANDIDATES = 50;

function scopeWhere(runner: Models.ActionRunner): Models.Prisma.ActionRunJobWhereInput {
  if (runner.repoId) return { repoId: runner.repoId };
  if (runner.ownerId) return { ownerId: runner.ownerId };
  return {};
}

const labelsOf = (json: string): string[] => {
  const v: unknown = JSON.parse(json);
  return Array.isArray(v) ? v.map(String) : [];
};

/** Claims `job` for `runner`: null when another runner was faster. */
async function claim(
  cx: ServiceContext,
  runner: Models.ActionRunner,
  job: Models.ActionRunJob,
): Promise<{ taskId: number; token: string } | null> {
  const secret = newSaltedToken();
  const now = new Date();
  return withTx(cx, async (tx, emit) => {
    const won = await tx.actionRunJob.updateMany({
      where: { id: job.id, status: 'WAITING', taskId: null },
      data: { status: 'RUNNING', started: now },
    });
    if (won.count !== 1) return null;
    const task = await tx.actionTask.create({
      data: {
        jobId: job.id,
        attempt: job.attempt,
        runnerId: runner.id,
        status: 'RUNNING',
        started: now,
        repoId: job.repoId,
        ownerId: job.ownerId,
        commitSha: job.commitSha,
        isForkPullRequest: job.isForkPullRequest,
        tokenHash: secret.hash,
        tokenSalt: secret.salt,
        tokenLastEight: secret.token.slice(-8),
      },
    });
    await tx.actionTaskStep.createMany({
      data: stepNames(job.workflowPayload).map((name, index) => ({
        name,
        taskId: task.id,
        index,
        repoId: job.repoId,
        status: 'WAITING' as const,
      })),
    });
    await tx.actionRunJob.update({ where: { id: job.id }, data: { taskId: task.id } });
    await tx.actionRun.updateMany({ where: { id: job.runId, started: null }, data: { started: now } });
    await tx.actionRun.updateMany({ where: { id: job.runId, status: { in: ['WAITING', 'BLOCKED'] } }, data: { status: 'RUNNING' } });
    await syncJobStatuses(tx, job.runId, emit);
    return { taskId: task.id, token: secret.token };
  });
}

const RUN_INCLUDE = { repo: true, triggerUser: true } as const;
type RunWithRepo = Models.Prisma.ActionRunGetPayload<{ include: typeof RUN_INCLUDE }>;

/** Gitea GenerateGiteaContext: the `github`/`gitea` context of the job. */
function taskContext(
  cx: ServiceContext,
  job: Models.ActionRunJob,
  run: RunWithRepo,
  token: string,
  runtimeToken: string,
): Record<string, unknown> {
  const root = cx.config.rootUrl;
  const fullName = `${run.repo.ownerName}/${run.repo.name}`;
  const refType = run.ref.startsWith('refs/tags/') ? 'tag' : 'branch';
  const refName = run.ref.replace(/^refs\/(heads|tags)\//, '');
  return {
    actor: run.triggerUser?.name ?? '',
    api_url: `${root}api/v1`,
    base_ref: '',
    event: JSON.parse(run.eventPayload || '{}') as unknown,
    event_name: run.event,
    event_path: '',
    graphql_url: `${root}api/graphql`,
    head_ref: '',
    job: job.jobId,
    ref: run.ref,
    ref_name: refName,
    ref_type: refType,
    repository: fullName,
    repository_owner: run.repo.ownerName,
    repositoryUrl: `${root}${fullName}`,
    retention_days: '',
    run_id: String(run.id),
    run_number: String(run.index),
    run_attempt: String(job.attempt),
    server_url: root.replace(/\/$/, ''),
    sha: run.commitSha,
    token,
    workflow: run.workflowId,
    workspace: '',
    gitea_default_actions_url: 'https://github.com',
    gitea_runtime_token: runtimeToken,
  };
}

/** `needs` of the job: each needed job's result and outputs. */
async function taskNeeds(cx: ServiceContext, job: Models.ActionRunJob): Promise<AssignedTask['needs']> {
  const needIds = labelsOf(job.needs);
  if (!needIds.length) return {};
  const needed = await cx.db.actionRunJob.findMany({
    where: { runId: job.runId, jobId: { in: needIds } },
    include: { task: { include: { outputs: true } } },
  });
  const out: AssignedTask['needs'] = {};
  for (const n of needed) {
    const prev = out[n.jobId];
    const outputs = Object.fromEntries((n.task?.outputs ?? []).map((o) => [o.outputKey, o.outputValue]));
    out[n.jobId] = { outputs: { ...prev?.outputs, ...outputs }, result: resultOfStatus(n.status) };
  }
  return out;
}

/**
 * FetchTask: nothing when the runner already saw the current tasks version, is disabled, or is ephemeral and had
 * its task; otherwise the first
 * waiting job in its scope that it can run (its labels ⊇ the job's runs-on), claimed for it.
 */
export async function fetchTask(
  cx: ServiceContext,
  runner: Models.ActionRunner,
  seenVersion: number,
): Promise<{ task: AssignedTask | null; tasksVersion: number }> {
  const tasksVersion = await currentTasksVersion(cx.db);
  if (seenVersion === tasksVersion || runner.isDisabled) return { task: null, tasksVersion };
  // An ephemeral runner runs one task only.
  if (runner.ephemeral && (await cx.db.actionTask.count({ where: { runnerId: runner.id } }))) return { task: null, tasksVersion };
  const labels = new Set(runnerLabels(runner));
  const candidates = await cx.db.actionRunJob.findMany({
    where: { status: 'WAITING', taskId: null, ...scopeWhere(runner) },
    orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
    take: CANDIDATES,
  });
  for (const job of candidates) {
    if (!labelsOf(job.runsOn).every((l) => labels.has(l))) continue;
    const claimed = await claim(cx, runner, job);
    if (!claimed) continue;
    const run = await cx.db.actionRun.findUniqueOrThrow({ where: { id: job.runId }, include: RUN_INCLUDE });
    return {
      tasksVersion,
      task: {
        id: claimed.taskId,
        workflowPayload: job.workflowPayload,
        context: taskContext(
          cx,
          job,
          run,
          claimed.token,
          await issueRuntimeToken(cx.config.secretKey, { taskId: claimed.taskId, runId: job.runId, jobId: job.id }),
        ),
        secrets: await secretsOfTask(cx, run, claimed.token),
        vars: await variablesOfRun(cx, run),
        needs: await taskNeeds(cx, job),
      },
    };
  }
  return { task: null, tasksVersion };
}
