import { LRUCache } from 'lru-cache';
import { readObject } from './readObject.ts';
import { readableInProcess } from './inProcess.ts';
import { listDirs } from './lookupPaths.ts';
import { readTreeDirs } from './readTreePath.ts';
import { GitCommandError, runGit } from './run.ts';

/** The directories searched for workflows, in order; the first that exists is the only one read (Gitea WORKFLOW_DIRS). */
const WORKFLOW_DIRS = ['.gitea/workflows', '.github/workflows'];

/** A workflow file: its name, path and content. */
type WorkflowFile = { name: string; path: string; content: string };

/**
 * Workflow files of recent commits, by repository and commit (a commit's tree never changes): every issue event
 * of a repository asks for those of its default branch's head to match `on: issues` (actions.trigger), and most
 * repositories have none. Bounded by commits and by the files' size (a commit whose files alone exceed it is read
 * each time, not kept); least recently used go first. A read in flight is shared; a failed one (a missing commit, a
 * repository being moved) is not kept.
 */
const recent = new LRUCache<string, readonly WorkflowFile[], { gitDir: string; commit: string }>({
  max: 128,
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (files) => files.reduce((n, f) => n + f.path.length + f.content.length, 1),
  fetchMethod: (_key, _stale, { context }) => readFiles(context.gitDir, context.commit),
});

/**
 * The `*.yml` / `*.yaml` files of the first existing workflow directory at `commit`: file name, path and content.
 * Read once per repository and commit while it is among the recent ones; the array is shared, not to be changed.
 */
export async function readWorkflowFiles(gitDir: string, commit: string): Promise<readonly WorkflowFile[]> {
  return (await recent.fetch(`${gitDir}\0${commit}`, { context: { gitDir, commit } })) ?? [];
}

async function readFiles(gitDir: string, commit: string): Promise<WorkflowFile[]> {
  const entries = readableInProcess(commit)
    ? await listDirs(gitDir, commit, WORKFLOW_DIRS)
    : await readTreeDirs(gitDir, commit, WORKFLOW_DIRS);
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
