// GitHub's Actions objects (REST v3): workflows, workflow runs and jobs, from the Actions services of /api/v1 (Gitea's
// runs and jobs). Statuses map as Gitea's API maps them, in GitHub's words; links point at this server (the API at
// /api/v3, pages where Gitea has them).
import { workflowDatabaseId, type KnownWorkflow } from '../services/actions/knownWorkflows.ts';
import type { JobView, RunView } from '../services/actions/lists.ts';
import { apiStatus } from '../services/actions/status.ts';
import type { Models } from '../db/client.ts';
import { toGithubOwner } from './convert.ts';
import { nodeId } from './nodeId.ts';
import { toGithubRepository } from './repository.ts';

type Repo = { ownerName: string; name: string };

const repoPath = (r: Repo) => `${encodeURIComponent(r.ownerName)}/${encodeURIComponent(r.name)}`;
const time = (d: Date | null): string | null => (d ? d.toISOString() : null);
const branchOf = (ref: string): string | null => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null);

/** GitHub's `status` and `conclusion` of an Actions status (conclusion null until finished; an unknown status is pending). */
export function githubStatus(s: Models.ActionStatus): { status: string; conclusion: string | null } {
  const { status, conclusion } = apiStatus(s);
  return { status: status === 'unknown' ? 'pending' : status, conclusion: conclusion || null };
}

/** GitHub's workflow object. */
export function toGithubWorkflow(w: KnownWorkflow, rootUrl: string): Record<string, unknown> {
  const path = repoPath(w.repo);
  const segments = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  return {
    id: w.databaseId,
    node_id: nodeId('Workflow', w.databaseId),
    name: w.name,
    path: w.path,
    state: w.state,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
    url: `${rootUrl}api/v3/repos/${path}/actions/workflows/${w.databaseId}`,
    html_url: `${rootUrl}${path}/src/branch/${segments(w.repo.defaultBranch)}/${segments(w.path)}`,
    badge_url: `${rootUrl}${path}/actions/workflows/${encodeURIComponent(w.file)}/badge.svg`,
  };
}

/**
 * GitHub's workflow run object; `workflow` names it (without it, for a viewer who may not list workflows, its file
 * does). The run's repository is readable: its Actions unit is.
 */
export function toGithubRun(run: RunView, workflow: KnownWorkflow | undefined, rootUrl: string): Record<string, unknown> {
  const repo = run.repoView?.repo;
  const path = repo ? repoPath(repo) : '';
  const api = `${rootUrl}api/v3/repos/${path}/actions/runs/${run.id}`;
  const actor = run.triggerUser ? toGithubOwner(run.triggerUser, rootUrl) : null;
  const repository = repo ? toGithubRepository(repo, rootUrl) : null;
  return {
    id: run.id,
    node_id: nodeId('WorkflowRun', run.id),
    name: workflow?.name ?? run.workflowId,
    display_title: run.title,
    path: workflow?.path ?? run.workflowId,
    head_branch: branchOf(run.ref),
    head_sha: run.commitSha,
    run_number: run.index,
    run_attempt: 1,
    event: run.event,
    ...githubStatus(run.status),
    workflow_id: workflowDatabaseId(run.repoId, run.workflowId),
    url: api,
    html_url: `${rootUrl}${path}/actions/runs/${run.index}`,
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    workflow_url: `${rootUrl}api/v3/repos/${path}/actions/workflows/${workflowDatabaseId(run.repoId, run.workflowId)}`,
    pull_requests: [],
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
    run_started_at: time(run.started) ?? run.createdAt.toISOString(),
    actor,
    triggering_actor: actor,
    repository,
    head_repository: repository,
  };
}

/** GitHub's job object; steps are numbered from 1 (as GitHub numbers them, and the run's log archive names them). */
export function toGithubJob(job: JobView, workflowName: string, rootUrl: string): Record<string, unknown> {
  const { repo } = job.run;
  const path = repoPath(repo);
  const labels: unknown = JSON.parse(job.runsOn);
  return {
    id: job.id,
    run_id: job.runId,
    run_url: `${rootUrl}api/v3/repos/${path}/actions/runs/${job.runId}`,
    node_id: nodeId('CheckRun', job.id),
    head_sha: job.commitSha,
    head_branch: branchOf(job.run.ref),
    url: `${rootUrl}api/v3/repos/${path}/actions/jobs/${job.id}`,
    html_url: `${rootUrl}${path}/actions/runs/${job.run.index}`,
    ...githubStatus(job.status),
    created_at: job.createdAt.toISOString(),
    started_at: time(job.started) ?? job.createdAt.toISOString(),
    completed_at: time(job.stopped),
    name: job.name,
    workflow_name: workflowName,
    steps: (job.task?.steps ?? []).map((s) => ({
      name: s.name,
      number: s.index + 1,
      ...githubStatus(s.status),
      started_at: time(s.started),
      completed_at: time(s.stopped),
    })),
    labels: Array.isArray(labels) ? labels.map(String) : [],
    run_attempt: Math.max(job.attempt, 1),
    runner_id: job.task?.runner?.id ?? null,
    runner_name: job.task?.runner?.name ?? null,
  };
}
