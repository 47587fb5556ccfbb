import { spawn } from 'node:child_process';

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

/** The environment git children get: nothing from the server's own git variables, literal pathspecs. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  if (process.env.HOME) env.HOME = process.env.HOME;
  return { ...env, ...extra };
}

/** Runs `git --git-dir <gitDir> args…` and resolves with its stdout; rejects with GitCommandError. */
export function runGit(
  gitDir: string,
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], {
      env: gitEnv({ GIT_LITERAL_PATHSPECS: '1', ...opts.env }),
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      // A timeout kills git (SIGTERM): the command then fails with exit code null.
      ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new GitCommandError(args, code, err))));
    if (opts.input !== undefined && child.stdin) child.stdin.end(opts.input);
  });
}
