import { z } from 'zod';
import { Repository } from './repo.ts';
import { User } from './user.ts';

/** Gitea `ActionRunnerLabel`: `id` is the label's position, `type` always "custom". */
export const ActionRunnerLabel = z.object({ id: z.number().int(), name: z.string(), type: z.string() });

/** Gitea `ActionRunner` (modules/structs/repo_actions.go). */
export const ActionRunner = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  busy: z.boolean(),
  disabled: z.boolean(),
  ephemeral: z.boolean(),
  labels: z.array(ActionRunnerLabel),
});
export type ActionRunner = z.infer<typeof ActionRunner>;

export const ActionRunnersResponse = z.object({ runners: z.array(ActionRunner), total_count: z.number().int() });

export const RegistrationToken = z.object({ token: z.string() });

/** Gitea `ActionWorkflowStep`: `number` is 0-based. */
export const ActionWorkflowStep = z.object({
  name: z.string(),
  number: z.number().int(),
  status: z.string(),
  conclusion: z.string().optional(),
  started_at: z.string(),
  completed_at: z.string(),
});

/** Gitea `ActionWorkflowJob` (convert.ToActionWorkflowJob). */
export const ActionWorkflowJob = z.object({
  id: z.number().int(),
  url: z.string(),
  html_url: z.string(),
  run_id: z.number().int(),
  run_url: z.string(),
  name: z.string(),
  labels: z.array(z.string()),
  run_attempt: z.number().int(),
  head_sha: z.string(),
  head_branch: z.string().optional(),
  status: z.string(),
  conclusion: z.string().optional(),
  runner_id: z.number().int().optional(),
  runner_name: z.string().optional(),
  steps: z.array(ActionWorkflowStep),
  created_at: z.string(),
  started_at: z.string(),
  completed_at: z.string(),
});
export type ActionWorkflowJob = z.infer<typeof ActionWorkflowJob>;

export const ActionWorkflowJobsResponse = z.object({ jobs: z.array(ActionWorkflowJob), total_count: z.number().int() });

/** Gitea `ActionWorkflowRun` (convert.ToActionWorkflowRun). */
export const ActionWorkflowRun = z.object({
  id: z.number().int(),
  url: z.string(),
  previous_attempt_url: z.string().nullable(),
  html_url: z.string(),
  display_title: z.string(),
  path: z.string(),
  event: z.string(),
  run_attempt: z.number().int(),
  run_number: z.number().int(),
  head_sha: z.string(),
  head_branch: z.string().optional(),
  status: z.string(),
  conclusion: z.string().optional(),
  actor: User.optional(),
  trigger_actor: User.optional(),
  repository: Repository.optional(),
  pull_requests: z.array(z.unknown()),
  started_at: z.string(),
  completed_at: z.string(),
});
export type ActionWorkflowRun = z.infer<typeof ActionWorkflowRun>;

export const ActionWorkflowRunsResponse = z.object({ workflow_runs: z.array(ActionWorkflowRun), total_count: z.number().int() });

/** Gitea `ActionTask` (convert.ToActionTask): one attempt of a job, with its run's ref, event and title. */
export const ActionTask = z.object({
  id: z.number().int(),
  name: z.string(),
  head_branch: z.string(),
  head_sha: z.string(),
  run_number: z.number().int(),
  event: z.string(),
  display_title: z.string(),
  status: z.string(),
  workflow_id: z.string(),
  url: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  run_started_at: z.string(),
});
export type ActionTask = z.infer<typeof ActionTask>;

/** Gitea `ActionTaskResponse`: the tasks under `workflow_runs`, as Gitea names them. */
export const ActionTaskResponse = z.object({ workflow_runs: z.array(ActionTask), total_count: z.number().int() });

/** Gitea `EditActionRunnerOption`: `disabled` is required. */
export const EditActionRunnerOption = z.object({ disabled: z.boolean().nullish() });

/** Gitea `CreateActionWorkflowDispatch`: the ref to run on and the workflow's inputs. */
export const CreateActionWorkflowDispatch = z.object({ ref: z.string(), inputs: z.record(z.string(), z.string()).optional() });

/** Gitea `Secret`: a secret's name and description, never its value. */
export const Secret = z.object({ name: z.string(), description: z.string(), created_at: z.string() });
export type Secret = z.infer<typeof Secret>;

/** Gitea `ActionVariable`. */
export const ActionVariable = z.object({
  owner_id: z.number().int(),
  repo_id: z.number().int(),
  name: z.string(),
  data: z.string(),
  description: z.string(),
});
export type ActionVariable = z.infer<typeof ActionVariable>;

/** Gitea `CreateOrUpdateSecretOption`: `data` is Required. */
export const CreateOrUpdateSecretOption = z.object({ data: z.string().min(1), description: z.string().optional() });

/** Gitea `CreateVariableOption`: `value` is Required. */
export const CreateVariableOption = z.object({ value: z.string().min(1), description: z.string().optional() });

/** Gitea `UpdateVariableOption`: `value` is Required; an empty `name` keeps the name. */
export const UpdateVariableOption = z.object({ name: z.string().optional(), value: z.string().min(1), description: z.string().optional() });

/** Gitea `ActionWorkflow`: `id` is the file name; `state` active or disabled_manually. */
export const ActionWorkflow = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string(),
  state: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string(),
  url: z.string(),
  html_url: z.string(),
  badge_url: z.string(),
});
export type ActionWorkflow = z.infer<typeof ActionWorkflow>;

export const ActionWorkflowResponse = z.object({ workflows: z.array(ActionWorkflow), total_count: z.number().int() });
