import { spawn } from 'node:child_process';
import { NotFoundError } from '../errors.ts';
import { GitLauncher, type GitProcess } from './launcher/launcher.ts';

/** A git command that exited non-zero; `stderr` is what git printed. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (${exitCode}): ${stderr.trim()}`);
    this.name = 'GitCommandError';
  }
}

export type { GitProcess } from './launcher/launcher.ts';

/**
 * Where git commands are forked from: a small helper process (launcher.ts says why), or this process itself with
 * GIT_LAUNCHER=direct.
 */
const launcher = process.env.GIT_LAUNCHER === 'direct' ? null : new GitLauncher();

/** What a finished git command printed, and how it exited. */
export interface GitResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** The environment git children get: nothing from the server's own git variables, literal pathspecs. */
function gitEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_LITERAL_PATHSPECS: '1',
  };
  if (process.env.HOME) env.HOME = process.env.HOME;
  return { ...env, ...extra };
}

/**
 * Starts `git [--git-dir <gitDir>] args…` (the one place the server spawns git) with gitEnv plus `env`. The
 * caller writes or ends stdin and must consume stdout and stderr.
 */
export function spawnGit(
  gitDir: string | null,
  args: readonly string[],
  env: Record<string, string> = {},
  opts: SpawnGitOptions = {},
): GitProcess {
  const argv = gitDir === null ? [...args] : ['--git-dir', gitDir, ...args];
  const direct = (): GitProcess =>
    spawn('git', argv, {
      env: gitEnv(env),
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      // A fourth pipe (fd 3 of git and of the hooks it runs) when asked for: `child.stdio[3]`.
      stdio: opts.channel ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      // A timeout or an abort kills git (SIGTERM): the command then fails with exit code null.
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    }) as GitProcess;
  if (!launcher) return direct();
  return launcher.launch(
    {
      args: argv,
      env: gitEnv(env),
      channel: opts.channel === true,
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
    direct,
  );
}

/** How long git may run, who may abort it, and whether it gets a channel at fd 3. */
export interface SpawnGitOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  channel?: boolean;
  /**
   * The directory git runs in; by default the server's own. Commands that may write work-tree files even in a
   * bare repository (`git apply -3` writes a three-way merged file relative to it) must be given a scratch one.
   */
  cwd?: string;
}

/** Runs git to its end and resolves with its exit code and output, whatever the code (merge-tree reports conflicts with 1). */
export function runGitResult(
  gitDir: string,
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal; cwd?: string } = {},
): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(gitDir, args, opts.env, opts);
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr }));
    child.stdin.end(opts.input);
  });
}

/** Runs `git --git-dir <gitDir> args…` and resolves with its stdout; rejects with GitCommandError. */
export async function runGit(
  gitDir: string,
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Buffer> {
  const r = await runGitResult(gitDir, args, opts);
  if (r.code !== 0) throw new GitCommandError(args, r.code, r.stderr);
  return r.stdout;
}

/**
 * `runGit`, with git's fatal exit (128: an unknown revision or object, a missing repository) mapped to NotFound.
 * @throws NotFoundError
 */
export async function runGitOrNotFound(
  gitDir: string,
  args: readonly string[],
  what: string,
  opts: { input?: string; env?: Record<string, string> } = {},
): Promise<Buffer> {
  try {
    return await runGit(gitDir, args, opts);
  } catch (err) {
    if (err instanceof GitCommandError && err.exitCode === 128) throw new NotFoundError(what, { stderr: err.stderr.trim() });
    throw err;
  }
}
