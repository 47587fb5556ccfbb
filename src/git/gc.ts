import { forgetGitCache } from './cache.ts';
import { runGit } from './run.ts';

/** `git gc [args]` on a bare repository (Gitea GitGcRepo), killed after `timeoutMs`; rejects with GitCommandError. */
export async function gcRepository(
  gitDir: string,
  opts: { args?: readonly string[]; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  forgetGitCache(gitDir);
  await runGit(gitDir, ['gc', ...(opts.args ?? [])], {
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  forgetGitCache(gitDir);
}
