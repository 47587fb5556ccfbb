import { runGit } from './run.ts';

/** Points a repository's `core.hooksPath` at the shared hooks directory (what initRepository sets). */
export async function setHooksPath(gitDir: string, hooksDir: string): Promise<void> {
  await runGit(gitDir, ['config', 'core.hooksPath', hooksDir]);
}
