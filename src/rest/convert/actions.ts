import type { Models } from '../../db/client.ts';
import type { JobView, RunView } from '../../services/actions/lists.ts';
import { runnerLabels, runnerState } from '../../services/actions/runners.ts';
import { apiStatus } from '../../services/actions/status.ts';
import type { SecretView } from '../../services/actions/actionSecrets.ts';
import type { TaskView } from '../../services/actions/taskList.ts';
import type { WorkflowView } from '../../services/actions/workflows.ts';
import type {
  ActionRunner,
  ActionTask,
  ActionVariable,
  ActionWorkflow,
  ActionWorkflowJob,
  ActionWorkflowRun,
  Secret,
} from '../structs/actions.ts';
import { toApiRepository } from './repo.ts';
import { apiTime, UNIX_ZERO } from './time.ts';
import { toApiUser, type ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea ToActionRunner: `status` online/offline, `busy` = active, labels numbered by position. */
export function toApiRunner(runner: Models.ActionRunner): ActionRunner {
  const state = runnerState(runner);
  return {
    id: runner.id,
    name: runner.name,
    status: state === 'offline' ? 'offline' : 'online',
    busy: state === 'active',
    disabled: runner.isDisabled,
    ephemeral: runner.ephemeral,
    labels: runnerLabels(runner).map((name, id) => ({ id, name, type: 'custom' })),
  };
}

const time = (d: Date | null): string => (d ? apiTime(d) : UNIX_ZERO);
const branchOf = (ref: string): string | undefined => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined);
const repoApi = (opts: ConvertOptions, owner: string, name: string) =>
  `${opts.rootUrl}api/v1/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
const repoHtml = (opts: ConvertOptions, owner: string, name: string) =>
  `${opts.rootUrl}${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;

/** Gitea ToActionWorkflowJob: times in UTC, unset = 1970; steps only once a runner took the job. */
export function toApiJob(job: JobView, opts: ConvertOptions): ActionWorkflowJob {
  const { ownerName, name } = job.run.repo;
  const { status, conclusion } = apiStatus(job.status);
  const labels: unknown = JSON.parse(job.runsOn);
  return {
    id: job.id,
    url: `${repoApi(opts, ownerName, name)}/actions/jobs/${job.id}`,
    html_url: `${repoHtml(opts, ownerName, name)}/actions/runs/${job.runId}/jobs/${job.id}`,
    run_id: job.runId,
    run_url: `${repoApi(opts, ownerName, name)}/actions/runs/${job.runId}`,
    name: job.name,
    labels: Array.isArray(labels) ? labels.map(String) : [],
    run_attempt: job.attempt,
    head_sha: job.commitSha,
    ...(branchOf(job.run.ref) ? { head_branch: branchOf(job.run.ref) } : {}),
    status,
    ...(conclusion ? { conclusion } : {}),
    ...(job.task?.runner ? { runner_id: job.task.runner.id, runner_name: job.task.runner.name } : {}),
    steps: (job.task?.steps ?? []).map((s) => {
      const st = apiStatus(s.status);
      return {
        name: s.name,
        number: s.index,
        status: st.status,
        ...(st.conclusion ? { conclusion: st.conclusion } : {}),
        started_at: time(s.started),
        completed_at: time(s.stopped),
      };
    }),
    created_at: time(job.createdAt),
    started_at: time(job.started),
    completed_at: time(job.stopped),
  };
}

/** Gitea ToActionWorkflowRun. */
export function toApiRun(run: RunView, viewer: Viewer, opts: ConvertOptions): ActionWorkflowRun {
  const repo = run.repoView?.repo;
  const owner = repo?.ownerName ?? '';
  const name = repo?.name ?? '';
  const { status, conclusion } = apiStatus(run.status);
  const actor = run.triggerUser ? toApiUser(run.triggerUser, viewer, opts) : undefined;
  return {
    id: run.id,
    url: `${repoApi(opts, owner, name)}/actions/runs/${run.id}`,
    previous_attempt_url: run.attempt > 1 ? `${repoApi(opts, owner, name)}/actions/runs/${run.id}/attempts/${run.attempt - 1}` : null,
    html_url: `${repoHtml(opts, owner, name)}/actions/runs/${run.id}`,
    display_title: run.title,
    path: `${run.workflowId}@${run.ref}`,
    event: run.event,
    run_attempt: run.attempt,
    run_number: run.index,
    head_sha: run.commitSha,
    ...(branchOf(run.ref) ? { head_branch: branchOf(run.ref) } : {}),
    status,
    ...(conclusion ? { conclusion } : {}),
    ...(actor ? { actor, trigger_actor: actor } : {}),
    ...(run.repoView ? { repository: toApiRepository(run.repoView.repo, run.repoView.repo.owner, run.repoView.perm, opts) } : {}),
    pull_requests: [],
    started_at: time(run.started),
    completed_at: time(run.stopped),
  };
}

/** Gitea git.RefName.ShortName: a branch, tag, pull request or AGit `for` ref without its prefix; others whole. */
function shortRef(ref: string): string {
  const m = /^refs\/(?:heads|tags|remotes|for)\/(.+)$/.exec(ref) ?? /^refs\/pull\/(.+?)\/head$/.exec(ref);
  return m?.[1] ?? ref;
}

/** Gitea ToActionTask: the job's name and commit, its run's number, trigger event, title, workflow and page. */
export function toApiTask(task: TaskView, opts: ConvertOptions): ActionTask {
  const { run } = task.job;
  return {
    id: task.id,
    name: task.job.name,
    head_branch: shortRef(run.ref),
    head_sha: task.job.commitSha,
    run_number: run.index,
    event: run.triggerEvent,
    display_title: run.title,
    status: task.status.toLowerCase(),
    workflow_id: run.workflowId,
    url: `${repoHtml(opts, task.repo.ownerName, task.repo.name)}/actions/runs/${run.id}`,
    created_at: apiTime(task.createdAt),
    updated_at: apiTime(task.updatedAt),
    run_started_at: time(task.started),
  };
}

/** Gitea `Secret`: no value. */
export const toApiSecret = (s: SecretView): Secret => ({ name: s.name, description: s.description, created_at: apiTime(s.createdAt) });

/** Gitea `ActionVariable`: 0 for the scope it is not in. */
export const toApiVariable = (v: Models.ActionVariable): ActionVariable => ({
  owner_id: v.ownerId ?? 0,
  repo_id: v.repoId ?? 0,
  name: v.name,
  data: v.data,
  description: v.description,
});

/** Gitea getActionWorkflowEntry: links to the file on the default branch and its badge; Go's zero time for deleted_at. */
export function toApiWorkflow(w: WorkflowView, opts: ConvertOptions): ActionWorkflow {
  const { ownerName, name, defaultBranch } = w.repo;
  const segments = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  const when = apiTime(new Date(w.when));
  return {
    id: w.id,
    name: w.name,
    path: w.path,
    state: w.disabled ? 'disabled_manually' : 'active',
    created_at: when,
    updated_at: when,
    deleted_at: '0001-01-01T00:00:00Z',
    url: `${repoApi(opts, ownerName, name)}/actions/workflows/${encodeURIComponent(w.id)}`,
    html_url: `${repoHtml(opts, ownerName, name)}/src/branch/${segments(defaultBranch)}/${segments(w.path)}`,
    badge_url: `${repoHtml(opts, ownerName, name)}/actions/workflows/${encodeURIComponent(w.id)}/badge.svg?branch=${encodeURIComponent(defaultBranch)}`,
  };
}
