// The environment of a task's steps: GITHUB_*/GITEA_*/RUNNER_* variables from the task's context, and the file
// commands ($GITHUB_OUTPUT, $GITHUB_ENV, $GITHUB_PATH) a step writes for the next ones.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RUNNER_VERSION } from './client.ts';

/** The per-step files of the file commands. */
export interface StepFiles {
  output: string;
  env: string;
  path: string;
  summary: string;
}

export interface TaskPaths {
  workspace: string;
  temp: string;
  eventPath: string;
}

const text = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** GITHUB_* (and the Gitea and runner ones) from the task's `github` context, as act sets them. */
export function defaultEnv(github: Record<string, unknown>, paths: TaskPaths, runnerName: string): Record<string, string> {
  const env: Record<string, string> = {
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITEA_ACTIONS: 'true',
    GITEA_ACTIONS_RUNNER_VERSION: RUNNER_VERSION,
    GITHUB_WORKSPACE: paths.workspace,
    GITHUB_EVENT_PATH: paths.eventPath,
    RUNNER_OS: process.platform === 'darwin' ? 'macOS' : process.platform === 'win32' ? 'Windows' : 'Linux',
    RUNNER_ARCH: process.arch === 'x64' ? 'X64' : process.arch === 'arm64' ? 'ARM64' : process.arch.toUpperCase(),
    RUNNER_NAME: runnerName,
    RUNNER_TEMP: paths.temp,
  };
  const fromContext: Record<string, string> = {
    GITHUB_ACTOR: 'actor',
    GITHUB_API_URL: 'api_url',
    GITHUB_BASE_REF: 'base_ref',
    GITHUB_EVENT_NAME: 'event_name',
    GITHUB_GRAPHQL_URL: 'graphql_url',
    GITHUB_HEAD_REF: 'head_ref',
    GITHUB_JOB: 'job',
    GITHUB_REF: 'ref',
    GITHUB_REF_NAME: 'ref_name',
    GITHUB_REF_TYPE: 'ref_type',
    GITHUB_REPOSITORY: 'repository',
    GITHUB_REPOSITORY_OWNER: 'repository_owner',
    GITHUB_RETENTION_DAYS: 'retention_days',
    GITHUB_RUN_ATTEMPT: 'run_attempt',
    GITHUB_RUN_ID: 'run_id',
    GITHUB_RUN_NUMBER: 'run_number',
    GITHUB_SERVER_URL: 'server_url',
    GITHUB_SHA: 'sha',
    GITHUB_WORKFLOW: 'workflow',
  };
  for (const [name, key] of Object.entries(fromContext)) {
    env[name] = text(github[key]);
    // Gitea's own spelling of each one, for workflows written against Gitea.
    env[name.replace(/^GITHUB_/, 'GITEA_')] = env[name];
  }
  // What the artifact and cache toolkits call (act_runner's runner.go): the runtime token, else the task token.
  const server = text(github.server_url).replace(/\/$/, '');
  env.ACTIONS_RUNTIME_TOKEN = text(github.gitea_runtime_token) || text(github.token);
  env.ACTIONS_RESULTS_URL = server;
  env.ACTIONS_RUNTIME_URL = `${server}/api/actions_pipeline/`;
  return env;
}

/** The step's file-command variables. */
export function fileCommandEnv(files: StepFiles): Record<string, string> {
  return { GITHUB_OUTPUT: files.output, GITHUB_ENV: files.env, GITHUB_PATH: files.path, GITHUB_STEP_SUMMARY: files.summary };
}

/**
 * A `$GITHUB_OUTPUT`/`$GITHUB_ENV` file: `name=value` lines and `name<<DELIMITER` … `DELIMITER` blocks.
 * @throws Error for an unterminated block
 */
export function parseFileCommand(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.trim()) continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name = '', delimiter = ''] = heredoc;
      const end = lines.indexOf(delimiter, i + 1);
      if (end < 0) throw new Error(`${file}: no closing "${delimiter}" for ${name}`);
      out[name] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

/** `$GITHUB_PATH`: one directory a line, prepended to PATH for the next steps. */
function readPathFile(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/** Fresh, empty file-command files for step `index`. */
export function createStepFiles(temp: string, index: number): StepFiles {
  const files: StepFiles = {
    output: path.join(temp, `output-${index}`),
    env: path.join(temp, `env-${index}`),
    path: path.join(temp, `path-${index}`),
    summary: path.join(temp, `summary-${index}`),
  };
  for (const f of Object.values(files)) writeFileSync(f, '');
  return files;
}

/** What a step wrote to its file-command files. @throws Error for a malformed $GITHUB_OUTPUT or $GITHUB_ENV */
export function readStepFiles(files: StepFiles): {
  outputs: Record<string, string>;
  env: Record<string, string>;
  path: string[];
  summary: string;
} {
  return {
    outputs: parseFileCommand(files.output),
    env: parseFileCommand(files.env),
    path: readPathFile(files.path),
    summary: existsSync(files.summary) ? readFileSync(files.summary, 'utf8') : '',
  };
}
