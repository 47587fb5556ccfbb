// The single-job workflow of a task (Gitea's jobparser output), read into what the runner executes.
import { parse } from 'yaml';

export interface StepSpec {
  id: string;
  name: string;
  if: string;
  uses: string;
  run: string;
  shell: string;
  workingDirectory: string;
  env: Record<string, string>;
  with: Record<string, string>;
  continueOnError: string;
  timeoutMinutes: string;
}

export interface JobSpec {
  jobId: string;
  name: string;
  workflowEnv: Record<string, string>;
  env: Record<string, string>;
  matrix: Record<string, unknown>;
  defaultShell: string;
  defaultWorkingDirectory: string;
  timeoutMinutes: string;
  outputs: Record<string, string>;
  steps: StepSpec[];
}

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalar = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const record = (v: unknown): Record<string, string> =>
  isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scalar(x)])) : {};
const runDefaults = (v: unknown): Doc => (isObject(v) && isObject(v.run) ? v.run : {});

/** The step's display name, as the server names its step rows (name, else `Run <first line>`). */
function stepName(s: Doc, i: number): string {
  if (typeof s.name === 'string') return s.name;
  if (typeof s.run === 'string') return `Run ${s.run.split('\n')[0]}`;
  if (typeof s.uses === 'string') return `Run ${s.uses}`;
  return `Step ${i + 1}`;
}

/** Parses the task's workflow payload. @throws Error when it is not a single-job workflow */
export function parseJobSpec(payload: string): JobSpec {
  const doc: unknown = parse(payload);
  if (!isObject(doc) || !isObject(doc.jobs)) throw new Error('the workflow payload has no jobs');
  const [jobId, job] = Object.entries(doc.jobs)[0] ?? [];
  if (!jobId || !isObject(job)) throw new Error('the workflow payload has no job');
  const strategy = isObject(job.strategy) ? job.strategy : {};
  // The payload's matrix holds this job's combination, one value per axis.
  const matrix = isObject(strategy.matrix)
    ? Object.fromEntries(Object.entries(strategy.matrix).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]))
    : {};
  const defaults = { ...runDefaults(doc.defaults), ...runDefaults(job.defaults) };
  const steps = (Array.isArray(job.steps) ? job.steps : []).map((s: unknown, i: number): StepSpec => {
    const step = isObject(s) ? s : {};
    return {
      id: typeof step.id === 'string' ? step.id : `__${i}`,
      name: stepName(step, i),
      if: scalar(step.if),
      uses: scalar(step.uses),
      run: scalar(step.run),
      shell: scalar(step.shell),
      workingDirectory: scalar(step['working-directory']),
      env: record(step.env),
      with: record(step.with),
      continueOnError: scalar(step['continue-on-error']),
      timeoutMinutes: scalar(step['timeout-minutes']),
    };
  });
  return {
    jobId,
    name: scalar(job.name) || jobId,
    workflowEnv: record(doc.env),
    env: record(job.env),
    matrix,
    defaultShell: scalar(defaults.shell),
    defaultWorkingDirectory: scalar(defaults['working-directory']),
    timeoutMinutes: scalar(job['timeout-minutes']),
    outputs: record(job.outputs),
    steps,
  };
}
