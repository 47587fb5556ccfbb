import { runGit } from './run.ts';

/**
 * `git fsck [args]` on a bare repository (Gitea GitFsckRepos), killed after `timeoutMs`. Resolves with git's
 * complaint (empty when the repository is healthy); a repository git cannot open is a complaint too.
 */
export async function fsckRepository(
  gitDir: string,
  opts: { args?: readonly string[]; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<string> {
  try {
    await runGit(gitDir, ['fsck', ...(opts.args ?? [])], {
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return '';
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return err instanceof Error ? err.message : String(err);
  }
}
