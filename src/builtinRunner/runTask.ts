// One task, start to end: the job's steps in order with `if:` and `continue-on-error`, their file commands and
// outputs, streamed logs and states, and cancellation (the step's process group is killed at once).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Result, type Task } from '../runner/gen/runner/v1/messages_pb.ts';
import type { RunnerClient } from './client.ts';
import { createStepFiles, defaultEnv, fileCommandEnv, readStepFiles } from './environment.ts';
import { ExpressionError, evaluateIf, interpolate, type JobStatus, type Scope } from './expressions.ts';
import { parseJobSpec, type JobSpec } from './jobSpec.ts';
import { TaskReporter } from './reporter.ts';
import { runStep, type StepOutcome } from './runStep.ts';
import { Stopper } from './stopper.ts';

export interface TaskRunOptions {
  client: RunnerClient;
  task: Task;
  /** Where task directories are made (one per task, removed afterwards). */
  workRoot: string;
  runnerName: string;
  warn: (message: string) => void;
  /** Aborted when the runner shuts down at once: the task is cancelled (its step killed) and reported so. */
  signal?: AbortSignal | undefined;
}

/** A result as the protocol names it (`success`, `failure`, `cancelled`, `skipped`), for logs and `needs.*.result`; "" when unspecified. */
export function resultName(result: Result): string {
  return result === Result.UNSPECIFIED ? '' : (Result[result]?.toLowerCase() ?? String(result));
}
/** GitHub's default job timeout: 360 minutes. */
const DEFAULT_JOB_TIMEOUT_MINUTES = 360;

interface StepRecord {
  outputs: Record<string, string>;
  outcome: string;
  conclusion: string;
}

/** Replaces secret values in a log line by `***`. */
function masker(secrets: readonly string[]): (line: string) => string {
  const values = secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  return (line) => values.reduce((l, s) => l.split(s).join('***'), line);
}

/** Runs the task and reports its end; resolves with the result sent. */
export async function runTask(o: TaskRunOptions): Promise<Result> {
  const { task } = o;
  const payload = new TextDecoder().decode(task.workflowPayload ?? new Uint8Array());
  let spec: JobSpec | null = null;
  let specError = '';
  try {
    spec = parseJobSpec(payload);
  } catch (err) {
    specError = (err as Error).message;
  }
  const reporter = new TaskReporter(o.client, task.id, spec?.steps.length ?? 0, o.warn);
  const mask = masker(Object.values(task.secrets));
  const log = (line: string) => reporter.log(mask(line));
  reporter.start();
  log(`Forgegraph built-in runner ${o.runnerName}: task ${task.id}${spec ? `, job ${spec.name}` : ''}`);
  if (!spec) {
    log(`Cannot read the job's workflow: ${specError}`);
    await reporter.finish(Result.FAILURE);
    return Result.FAILURE;
  }
  const dir = path.join(o.workRoot, `task-${task.id}`);
  try {
    return await execute(o, spec, reporter, log, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function execute(
  o: TaskRunOptions,
  spec: JobSpec,
  reporter: TaskReporter,
  log: (line: string) => void,
  dir: string,
): Promise<Result> {
  const { task } = o;
  const github = (task.context ?? {}) as Record<string, unknown>;
  const workspace = path.join(dir, 'workspace');
  const temp = path.join(dir, 'temp');
  for (const d of [workspace, temp]) mkdirSync(d, { recursive: true });
  const eventPath = path.join(temp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(github.event ?? {}));
  github.workspace = workspace;

  const stopper = new Stopper();
  let jobStatus: JobStatus = 'success';
  let timedOut = false;
  /** Ends the job's current step now; later steps run only if their `if:` allows a cancelled job. */
  const cancel = (why: string) => {
    log(why);
    jobStatus = 'cancelled';
    stopper.fire();
  };
  reporter.onCancel(() => cancel('The task was cancelled.'));
  o.signal?.addEventListener('abort', () => cancel('The runner is shutting down: the task is cancelled.'), { once: true });
  const steps: Record<string, StepRecord> = {};
  const needs = Object.fromEntries(Object.entries(task.needs).map(([id, n]) => [id, { outputs: n.outputs, result: resultName(n.result) }]));
  const contexts: Record<string, unknown> = {
    github,
    gitea: github,
    matrix: spec.matrix,
    secrets: task.secrets,
    vars: task.vars,
    needs,
    steps,
    inputs: (github.event as Record<string, unknown> | undefined)?.inputs ?? {},
    runner: { name: o.runnerName, os: process.platform === 'darwin' ? 'macOS' : 'Linux', temp, workspace },
    strategy: {},
    job: { status: jobStatus },
  };
  const scope = (env: Record<string, string>): Scope => ({ contexts: { ...contexts, env, job: { status: jobStatus } }, jobStatus });
  const base = { ...(process.env as Record<string, string>), ...defaultEnv(github, { workspace, temp, eventPath }, o.runnerName) };
  const jobEnv: Record<string, string> = {};
  const interpolated = (vars: Record<string, string>, env: Record<string, string>) =>
    Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, interpolate(v, scope(env))]));
  const extraPath: string[] = [];
  const summaries: string[] = [];
  const jobTimeout = Number(spec.timeoutMinutes || DEFAULT_JOB_TIMEOUT_MINUTES);
  const timer = setTimeout(
    () => {
      timedOut = true;
      cancel(`The job exceeded its timeout of ${jobTimeout} minute(s).`);
    },
    Math.max(1, jobTimeout) * 60_000,
  );

  try {
    try {
      Object.assign(jobEnv, interpolated(spec.workflowEnv, {}));
      Object.assign(jobEnv, interpolated(spec.env, jobEnv));
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      log(`The job's env cannot be evaluated: ${err.message}`);
      jobStatus = 'failure';
    }
    for (const [index, step] of spec.steps.entries()) {
      const files = createStepFiles(temp, index);
      reporter.stepStarted(index);
      let outcome: StepOutcome | 'skipped';
      let continueOnError = false;
      try {
        const stepEnv = { ...jobEnv, ...interpolated(step.env, jobEnv) };
        const run = evaluateIf(step.if, scope(stepEnv));
        continueOnError = interpolate(step.continueOnError, scope(stepEnv)).trim() === 'true';
        if (!run) {
          outcome = 'skipped';
        } else {
          log(`⭐ ${step.name}`);
          const env = { ...base, ...fileCommandEnv(files), ...stepEnv };
          if (extraPath.length) env.PATH = [...extraPath, env.PATH ?? ''].join(path.delimiter);
          outcome = await runStep({
            step,
            index,
            scope: scope(stepEnv),
            env,
            defaultShell: spec.defaultShell,
            defaultWorkingDirectory: spec.defaultWorkingDirectory,
            workspace,
            temp,
            github,
            token: task.secrets.GITHUB_TOKEN ?? task.secrets.GITEA_TOKEN ?? '',
            log,
            stop: stopper.next(),
          });
        }
      } catch (err) {
        if (!(err instanceof ExpressionError)) throw err;
        log(err.message);
        outcome = 'failure';
      }
      let outputs: Record<string, string> = {};
      if (outcome !== 'skipped') {
        try {
          const written = readStepFiles(files);
          Object.assign(jobEnv, written.env);
          extraPath.unshift(...written.path.reverse());
          if (written.summary.trim()) summaries.push(written.summary);
          outputs = written.outputs;
        } catch (err) {
          log((err as Error).message);
          outcome = 'failure';
        }
      }
      const conclusion = outcome === 'failure' && continueOnError ? 'success' : outcome;
      steps[step.id] = { outputs, outcome, conclusion };
      if (outcome === 'failure' && !continueOnError && jobStatus === 'success') jobStatus = 'failure';
      if (outcome === 'cancelled' && jobStatus === 'success') jobStatus = 'cancelled';
      if (outcome !== 'skipped') {
        log(
          `${outcome === 'success' ? '✅' : '❌'} ${step.name}: ${outcome}${conclusion === outcome ? '' : ` (continue-on-error: ${conclusion})`}`,
        );
      }
      reporter.stepFinished(index, stepResult(conclusion));
      void reporter.report();
    }
    reporter.setOutputs(jobOutputs(spec, scope(jobEnv), log));
    if (summaries.length) log(`Job summary:\n${summaries.join('\n')}`);
  } finally {
    clearTimeout(timer);
  }
  const result = timedOut ? Result.FAILURE : stepResult(jobStatus);
  log(`Job ${resultName(result) || 'finished'}.`);
  await reporter.finish(result);
  return result;
}

function stepResult(outcome: string): Result {
  switch (outcome) {
    case 'success':
      return Result.SUCCESS;
    case 'skipped':
      return Result.SKIPPED;
    case 'cancelled':
      return Result.CANCELLED;
    default:
      return Result.FAILURE;
  }
}

/** `jobs.<id>.outputs`, evaluated once the steps ran; an output that cannot be evaluated is left out. */
function jobOutputs(spec: JobSpec, scope: Scope, log: (line: string) => void): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(spec.outputs)) {
    try {
      out[key] = interpolate(value, scope);
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      log(`Output ${key}: ${err.message}`);
    }
  }
  return out;
}
