// How runs and jobs come to exist (Gitea services/actions/notifier_helper.go, run.go InsertRun): the workflows at
// the event's commit whose `on:` matches become one run each, with one job per `jobs.<id>` and matrix combination.
import { syncJobStatuses } from './commitStatuses.ts';
import type { Emit } from './hookStatus.ts';
import type { DbTx, Models } from '../../db/client.ts';
import { readCommit } from '../../git/readCommit.ts';
import { repoPath } from '../../git/repoPath.ts';
import { readWorkflowFiles } from '../../git/workflowFiles.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { aggregateStatus } from './status.ts';
import { bumpTasksVersion } from './tasksVersion.ts';
import { parseWorkflow, type ParsedWorkflow, type TriggerFilter } from './workflowFile.ts';
import { disabledWorkflows } from './workflows.ts';
import { filtersPaths } from './filters.ts';

const SKIP_CI = ['[skip ci]', '[ci skip]', '[no ci]', '[skip actions]', '[actions skip]'];

/** An event that may start workflows. */
export interface WorkflowEvent {
  repo: Models.Repository;
  /** The webhook event name: push, pull_request, workflow_dispatch, schedule, release, issues. */
  event: string;
  ref: string;
  commitSha: string;
  triggerUserId: number | null;
  /** The event's webhook payload (the runner's `github.event`). */
  payload: Record<string, unknown>;
  /**
   * Whether a workflow's trigger filter accepts this event; `changedFiles` are the event's changed paths when the
   * filter has paths / paths-ignore and the event has changed files, else null.
   */
  matches: (filter: TriggerFilter, changedFiles: readonly string[] | null) => boolean;
  /** The paths the event changed (null when git cannot tell), read only for a filter that asks. */
  changedFiles?: () => Promise<readonly string[] | null>;
  /** Only this workflow file (workflow_dispatch). */
  workflowFile?: string;
  /** A title instead of the commit's (run-name still wins). */
  title?: string;
  /** The ActionSchedule starting this run (event `schedule`). */
  scheduleId?: number;
}

/** `run-name` with `${{ github.x }}` / `${{ inputs.x }}` resolved from the event (the common, simple cases). */
function runTitle(wf: ParsedWorkflow, ev: WorkflowEvent, commitTitle: string): string {
  if (!wf.runName) return ev.title ?? commitTitle;
  const ctx: Record<string, unknown> = { ...ev.payload, event_name: ev.event, ref: ev.ref, sha: ev.commitSha };
  return wf.runName.replace(/\$\{\{\s*(github|inputs)\.([\w.-]+)\s*\}\}/g, (_m, root: string, path: string) => {
    const base: unknown = root === 'inputs' ? ev.payload.inputs : ctx;
    const value = path
      .split('.')
      .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), base);
    return value === undefined || value === null ? '' : String(value);
  });
}

async function insertRun(
  tx: DbTx,
  emit: Emit,
  ev: WorkflowEvent,
  file: string,
  wf: ParsedWorkflow,
  title: string,
): Promise<Models.ActionRun> {
  const counter = await tx.actionRunIndex.upsert({
    where: { repoId: ev.repo.id },
    create: { repoId: ev.repo.id, maxIndex: 1 },
    update: { maxIndex: { increment: 1 } },
  });
  const jobStatuses = wf.jobs.map((j): Models.ActionStatus => (j.needs.length ? 'BLOCKED' : 'WAITING'));
  const run = await tx.actionRun.create({
    data: {
      title: title.slice(0, 255),
      repoId: ev.repo.id,
      ownerId: ev.repo.ownerId,
      workflowId: file,
      index: counter.maxIndex,
      triggerUserId: ev.triggerUserId,
      ref: ev.ref,
      commitSha: ev.commitSha,
      event: ev.event,
      triggerEvent: ev.event,
      scheduleId: ev.scheduleId ?? 0,
      eventPayload: JSON.stringify(ev.payload),
      status: aggregateStatus(jobStatuses),
    },
  });
  await tx.actionRunJob.createMany({
    data: wf.jobs.map((j, i) => ({
      runId: run.id,
      repoId: ev.repo.id,
      ownerId: ev.repo.ownerId,
      commitSha: ev.commitSha,
      name: j.name,
      attempt: 1,
      workflowPayload: j.payload,
      jobId: j.jobId,
      needs: JSON.stringify(j.needs),
      runsOn: JSON.stringify(j.runsOn),
      status: jobStatuses[i] ?? 'WAITING',
    })),
  });
  await syncJobStatuses(tx, run.id, emit);
  return run;
}

/**
 * Starts the runs of an event: nothing for archived or empty repositories, the Actions unit off, or a skip string
 * in the commit message; never a disabled workflow's. A push is idempotent per (workflow, commit, ref) so a replayed push job adds nothing.
 */
export async function startRunsForEvent(cx: ServiceContext, ev: WorkflowEvent): Promise<Models.ActionRun[]> {
  if (ev.repo.isArchived || ev.repo.isEmpty) return [];
  const gitDir = repoPath(cx.config.repositoriesDir, ev.repo.ownerName, ev.repo.name);
  const disabled = await disabledWorkflows(cx.db, ev.repo.id);
  if (!disabled) return [];
  const files = (await readWorkflowFiles(gitDir, ev.commitSha)).filter(
    (f) => (!ev.workflowFile || f.name === ev.workflowFile) && !disabled.includes(f.name),
  );
  let changed: Promise<readonly string[] | null> | undefined;
  const matching: Array<{ file: string; wf: ParsedWorkflow; filter: TriggerFilter }> = [];
  for (const f of files) {
    const wf = parseWorkflow(f.content);
    const filter = wf?.on.get(ev.event);
    if (!wf || !filter) continue;
    const changedFiles = ev.changedFiles && filtersPaths(filter) ? await (changed ??= ev.changedFiles()) : null;
    if (ev.matches(filter, changedFiles)) matching.push({ file: f.name, wf, filter });
  }
  // The commit is read only when some workflow would run (most repositories have none).
  if (!matching.length) return [];
  const commit = await readCommit(gitDir, ev.commitSha);
  if (ev.event !== 'workflow_dispatch' && SKIP_CI.some((s) => commit.message.includes(s))) return [];
  const commitTitle = commit.message.split('\n')[0] ?? '';
  return withTx(cx, async (tx, emit) => {
    const runs: Models.ActionRun[] = [];
    for (const { file, wf, filter } of matching) {
      if (ev.event === 'push') {
        const same = { repoId: ev.repo.id, workflowId: file, ref: ev.ref, commitSha: ev.commitSha, event: ev.event };
        if (await tx.actionRun.findFirst({ where: same, select: { id: true } })) continue;
      }
      // workflow_dispatch: inputs not given take the workflow's defaults.
      const inputs = ev.payload.inputs;
      const withDefaults =
        filter.inputs && typeof inputs === 'object' ? { ...ev, payload: { ...ev.payload, inputs: { ...filter.inputs, ...inputs } } } : ev;
      runs.push(await insertRun(tx, emit, withDefaults, file, wf, runTitle(wf, withDefaults, commitTitle)));
    }
    if (runs.length) await bumpTasksVersion(tx);
    return runs;
  });
}
