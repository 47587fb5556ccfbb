import { runGit } from './run.ts';

/** Points HEAD (the default branch) at `refs/heads/<branch>`. */
export async function writeHead(gitDir: string, branch: string): Promise<void> {
  await runGit(gitDir, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}
