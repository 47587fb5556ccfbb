import { readObject } from './readObject.ts';
import { readTreeDirs } from './readTreePath.ts';
import { GitCommandError, runGit } from './run.ts';

/** The directories searched for workflows, in order; the first that exists is the only one read (Gitea WORKFLOW_DIRS). */
const WORKFLOW_DIRS = ['.gitea/workflows', '.github/workflows'];

/** The `*.yml` / `*.yaml` files of the first existing workflow directory at `commit`: file name, path and content. */
export async function readWorkflowFiles(gitDir: string, commit: string): Promise<Array<{ name: string; path: string; content: string }>> {
  const entries = await readTreeDirs(gitDir, commit, WORKFLOW_DIRS);
  for (const dir of WORKFLOW_DIRS) {
    const children = entries.filter((e) => e.path === `${dir}/${e.name}`);
    if (!children.length) continue;
    const files = children.filter((e) => e.type === 'blob' && /\.ya?ml$/.test(e.name));
    return Promise.all(
      files.map(async (f) => ({
        name: f.name,
        path: f.path,
        content: (await readObject(gitDir, f.sha)).content.toString('utf8'),
      })),
    );
  }
  return [];
}

/** Paths changed between two commits (`before` absent: the files of `after`'s own change); null when git cannot tell. */
export async function changedPaths(gitDir: string, before: string | null, after: string): Promise<string[] | null> {
  try {
    const args = before
      ? ['diff', '--name-only', '-z', before, after]
      : ['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', '--root', after];
    return (await runGit(gitDir, args)).toString('utf8').split('\0').filter(Boolean);
  } catch (err) {
    if (err instanceof GitCommandError) return null;
    throw err;
  }
}
