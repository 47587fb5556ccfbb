// Gitea's services/actions/commit_status.go: every job of a push or pull_request run is a commit status of the
// run's commit, context "<workflow> / <job> (<event>)", written again whenever the job's state or description changes.
import path from 'node:path';
import { yamlModule } from '../../lazyPackage.ts';
import type { DbTx, Models } from '../../db/client.ts';
import { goDuration } from '../goDuration.ts';
import { createCommitStatus } from '../status/commitStatus.ts';
import { announceStatuses, type Emit } from './hookStatus.ts';

/** Events whose runs report commit statuses (Gitea: push and pull_request; others have no commit to report on). */
const STATUS_EVENTS = new Set(['push', 'pull_request', 'pull_request_target']);

/** Gitea toCommitStatus and its descriptions; null for states that report nothing. */
function statusOf(job: Models.ActionRunJob, now: Date): { state: string; description: string } | null {
  const seconds = job.started ? ((job.stopped ?? now).getTime() - job.started.getTime()) / 1000 : 0;
  switch (job.status) {
    case 'SUCCESS':
      return { state: 'success', description: `Successful in ${goDuration(Math.max(0, seconds))}` };
    case 'FAILURE':
      return { state: 'failure', description: `Failing after ${goDuration(Math.max(0, seconds))}` };
    case 'CANCELLED':
      return { state: 'failure', description: 'Has been cancelled' };
    case 'SKIPPED':
      return { state: 'success', description: 'Has been skipped' };
    case 'RUNNING':
      return { state: 'pending', description: 'Has started running' };
    case 'WAITING':
      return { state: 'pending', description: 'Waiting to run' };
    case 'BLOCKED':
      return { state: 'pending', description: 'Blocked by required conditions' };
    default:
      return null;
  }
}

/** The workflow's `name` (kept in each job's single-job payload), else its file name (Gitea's run name). */
export function workflowName(job: Models.ActionRunJob, run: Models.ActionRun): string {
  try {
    const doc: unknown = yamlModule().parse(job.workflowPayload);
    const name = doc && typeof doc === 'object' ? (doc as { name?: unknown }).name : undefined;
    if (typeof name === 'string' && name) return name;
  } catch {
    // A payload that does not parse names nothing: the file name stands in.
  }
  return path.basename(run.workflowId);
}

/** The context of the commit status a job of a push or pull_request run writes: "<workflow> / <job> (<event>)". */
export function jobStatusContext(job: Models.ActionRunJob, run: Models.ActionRun): string {
  return `${workflowName(job, run)} / ${job.name} (${run.event})`;
}

/** Whether a run's jobs write commit statuses (Gitea: push and pull_request runs of a commit). */
export function runReportsStatuses(run: Pick<Models.ActionRun, 'event' | 'commitSha'>): boolean {
  return STATUS_EVENTS.has(run.event) && /^[0-9a-f]{40,64}$/.test(run.commitSha);
}

/**
 * Brings the commit statuses of a run's jobs up to date in `tx` (called wherever jobs change state: run creation,
 * task claim, and the run roll-up), after announcing changed statuses to webhooks (hookStatus.ts). A status is written only when the job's state or description differs from
 * the latest status of its context, so repeated calls add nothing. Three statements whatever the number of jobs,
 * plus one write per changed job.
 */
export async function syncJobStatuses(tx: DbTx, runId: number, emit: Emit): Promise<void> {
  const run = await tx.actionRun.findUnique({ where: { id: runId }, include: { repo: true, jobs: { orderBy: { id: 'asc' } } } });
  if (run) await announceStatuses(tx, run, emit);
  if (!run || !runReportsStatuses(run)) return;
  const now = new Date();
  const wanted = run.jobs.flatMap((job, index) => {
    const status = statusOf(job, now);
    if (!status) return [];
    return [{ ...status, context: jobStatusContext(job, run), index }];
  });
  if (!wanted.length) return;
  const existing = await tx.commitStatus.findMany({
    where: { repoId: run.repoId, sha: run.commitSha, context: { in: wanted.map((w) => w.context) } },
    orderBy: { index: 'desc' },
    select: { context: true, state: true, description: true },
  });
  const latest = new Map<string, { state: string; description: string }>();
  for (const row of existing) if (!latest.has(row.context)) latest.set(row.context, row);
  const runLink = `/${run.repo.ownerName}/${run.repo.name}/actions/runs/${run.index}`;
  for (const w of wanted) {
    const last = latest.get(w.context);
    // Gitea compares the state only for a finished job's changing duration text: same state and text, nothing new.
    if (last && last.state === w.state && last.description === w.description) continue;
    await createCommitStatus(
      tx,
      run.repo,
      run.commitSha,
      { state: w.state, description: w.description, context: w.context, targetUrl: `${runLink}/jobs/${w.index}` },
      null,
    );
  }
}
