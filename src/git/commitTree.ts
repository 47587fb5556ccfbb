import { runGit } from './run.ts';

/** `git commit-tree`: a commit of `tree` with these parents (identities and dates in `env`); returns its id. */
export async function commitTree(
  gitDir: string,
  tree: string,
  parents: readonly string[],
  message: string,
  env: Record<string, string>,
): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
  return (await runGit(gitDir, args, { input: message, env })).toString('utf8').trim();
}
