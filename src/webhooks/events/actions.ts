// workflow_run and workflow_job — Gitea services/webhook/notifier.go WorkflowRunStatusUpdate and
// WorkflowJobStatusUpdate: the run (with its workflow as on the default branch) or the job as it is now, the
// action of the status change, the repository, its organization, and the run's trigger user as sender.
import type { DomainEvent } from '../../notify/events.ts';
import { toApiJob, toApiRun, toApiWorkflow } from '../../rest/convert/actions.ts';
import { findJob, findRun } from '../../services/actions/lists.ts';
import { repoWorkflows } from '../../services/actions/workflows.ts';
import type { PayloadContext } from '../payloadContext.ts';
import type { OutgoingEvent } from './outgoing.ts';

type JobStatus = Extract<DomainEvent, { type: 'actions.jobStatus' }>;
type RunStatus = Extract<DomainEvent, { type: 'actions.runStatus' }>;

/** The repository JSON, its organization (when an organization owns it) and the sender, shared by both payloads. */
async function common(pc: PayloadContext, repoId: number, actorId: number | null) {
  const row = await pc.repoRow(repoId);
  const repository = await pc.repo(repoId);
  if (!row || !repository) return null;
  const organization = row.owner.type === 'ORGANIZATION' ? { organization: pc.userJson(row.owner) } : {};
  return { repository, ...organization, sender: await pc.user(actorId) };
}

/** Gitea's WorkflowJobPayload {action, workflow_job, organization?, repository, sender}. */
export async function workflowJobEvent(pc: PayloadContext, e: JobStatus): Promise<OutgoingEvent[]> {
  const [shared, job] = await Promise.all([common(pc, e.repoId, e.actorId), findJob(pc.cx, { id: e.jobId })]);
  if (!shared || !job) return [];
  return [{ eventType: 'workflow_job', repoId: e.repoId, payload: { action: e.action, workflow_job: toApiJob(job, pc.opts), ...shared } }];
}

/** Gitea's WorkflowRunPayload {action, workflow, workflow_run, organization?, repository, sender}. */
export async function workflowRunEvent(pc: PayloadContext, e: RunStatus): Promise<OutgoingEvent[]> {
  const [shared, run, repo] = await Promise.all([
    common(pc, e.repoId, e.actorId),
    findRun(pc.cx, { id: e.runId }),
    pc.cx.db.repository.findUnique({ where: { id: e.repoId } }),
  ]);
  if (!shared || !run || !repo) return [];
  const workflow = (await repoWorkflows(pc.cx, repo)).find((w) => w.id === run.workflowId);
  const payload = {
    action: e.action,
    workflow: workflow ? toApiWorkflow(workflow, pc.opts) : null,
    workflow_run: toApiRun(run, null, pc.opts),
    ...shared,
  };
  return [{ eventType: 'workflow_run', repoId: e.repoId, payload }];
}
