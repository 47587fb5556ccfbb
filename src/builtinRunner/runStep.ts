// One step of a job: `uses: actions/checkout` natively, any other `uses:` refused, `run:` as a script in its shell,
// with `working-directory`, `env` and `timeout-minutes`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkout } from './checkout.ts';
import { interpolate, type Scope } from './expressions.ts';
import type { StepSpec } from './jobSpec.ts';
import { runProcess, type ProcessOutcome } from './stepProcess.ts';

export type StepOutcome = 'success' | 'failure' | 'cancelled';

export interface StepRun {
  step: StepSpec;
  index: number;
  scope: Scope;
  /** The step's whole environment (host, GITHUB_*, workflow, job, $GITHUB_ENV, step). */
  env: Record<string, string>;
  defaultShell: string;
  defaultWorkingDirectory: string;
  workspace: string;
  temp: string;
  github: Record<string, unknown>;
  token: string;
  log: (line: string) => void;
  /** Resolves when the step must be killed (a cancel, or the job's timeout). */
  stop: Promise<void>;
}

const CHECKOUT = /^(?:https?:\/\/[^/]+\/)?actions\/checkout@/;

/** GitHub's shells: `{0}` is the script file. */
function shellCommand(shell: string, explicit: boolean): string[] {
  switch (shell) {
    case '':
    case 'bash':
      return explicit ? ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '{0}'] : ['bash', '-e', '{0}'];
    case 'sh':
      return ['sh', '-e', '{0}'];
    case 'python':
      return ['python3', '{0}'];
    default: {
      const parts = shell.split(/\s+/).filter(Boolean);
      return parts.includes('{0}') ? parts : [...parts, '{0}'];
    }
  }
}

const EXTENSION: Record<string, string> = { python: '.py' };

/** Runs the step; an ExpressionError from its fields propagates (the caller fails the step with it). */
export async function runStep(r: StepRun): Promise<StepOutcome> {
  const { step } = r;
  const timeoutMinutes = Number(interpolate(step.timeoutMinutes, r.scope) || 0);
  const timeoutMs = timeoutMinutes > 0 ? timeoutMinutes * 60_000 : undefined;
  const exec = (command: string, args: string[], cwd: string, quiet = false): Promise<ProcessOutcome> =>
    runProcess(command, args, { cwd, env: r.env, onLine: quiet ? () => undefined : r.log, timeoutMs, cancel: r.stop });
  const verdict = (o: ProcessOutcome, what: string): StepOutcome => {
    if (o.killed) return 'cancelled';
    if (o.timedOut) {
      r.log(`The step exceeded its timeout of ${timeoutMinutes} minute(s).`);
      return 'failure';
    }
    if (o.code !== 0) r.log(`${what} exited with code ${o.code ?? 'unknown'}`);
    return o.code === 0 ? 'success' : 'failure';
  };

  if (step.uses) {
    if (!CHECKOUT.test(step.uses)) {
      r.log(
        `Cannot run "uses: ${step.uses}": only actions/checkout is built in to the built-in runner (it runs no other actions; use run: steps).`,
      );
      return 'failure';
    }
    const withInputs = Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, interpolate(v, r.scope)]));
    let last: ProcessOutcome = { code: 0, timedOut: false, killed: false };
    const ok = await checkout({
      with: withInputs,
      github: r.github,
      token: r.token,
      workspace: r.workspace,
      log: r.log,
      git: async (args, quiet) => (last = await exec('git', ['-c', 'credential.helper=', ...args], r.workspace, quiet)),
    });
    return ok ? 'success' : verdict(last.code === 0 ? { ...last, code: 1 } : last, 'git');
  }
  if (!step.run) {
    r.log('The step has neither run: nor uses:.');
    return 'failure';
  }
  const shell = interpolate(step.shell || r.defaultShell, r.scope);
  const command = shellCommand(shell, step.shell !== '');
  const script = path.join(r.temp, `step-${r.index}${EXTENSION[shell] ?? '.sh'}`);
  writeFileSync(script, interpolate(step.run, r.scope));
  const dir = interpolate(step.workingDirectory || r.defaultWorkingDirectory, r.scope);
  const cwd = path.resolve(r.workspace, dir);
  const [program = 'bash', ...args] = command.map((a) => (a === '{0}' ? script : a));
  r.log(`${command.join(' ').replace('{0}', script)}`);
  return verdict(await exec(program, args, cwd), 'Process');
}
