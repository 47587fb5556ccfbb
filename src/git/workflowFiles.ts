import { readObject } from './readObject.ts';
import { readTreeDirs } from './readTreePath.ts';
import { GitCommandError, runGit } from './run.ts';

/** The directories searched for workflows, in order; the first that exists is the only one read (Gitea WORKFLOW_DIRS). */
const WORKFLOW_DIRS = ['.gitea/workflows', '.github/workflows'];

/** A workflow file: its name, path and content. */
type WorkflowFile = { name: string; path: string; content: string };

/**
 * Workflow files of recent commits, by repository and commit (a commit's tree never changes): every issue event
 * of a repository asks for those of its default branch's head to match `on: issues` (actions.trigger), and most
 * repositories have none. Least recently used go first.
 */
const recent = new Map<string, Promise<readonly WorkflowFile[]>>();
const RECENT_COMMITS = 128;

/**
 * The `*.yml` / `*.yaml` files of the first existing workflow directory at `commit`: file name, path and content.
 * Read once per repository and commit while it is among the recent ones; the array is shared, not to be changed.
 */
export function readWorkflowFiles(gitDir: string, commit: string): Promise<readonly WorkflowFile[]> {
  const key = `${gitDir}\0${commit}`;
  let files = recent.get(key);
  if (files) {
    recent.delete(key);
  } else {
    files = readFiles(gitDir, commit);
    // A failed read (a missing commit, a repository being moved) is not kept.
    files.catch(() => recent.get(key) === files && recent.delete(key));
    if (recent.size >= RECENT_COMMITS) recent.delete(recent.keys().next().value!);
  }
  recent.set(key, files);
  return files;
}

async function readFiles(gitDir: string, commit: string): Promise<WorkflowFile[]> {
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
