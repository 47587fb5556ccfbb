// A tree's entries (`git ls-tree`), optionally recursive, for the git trees API.
import type { TreeEntry } from './readTreePath.ts';
import { assertRevision } from './revision.ts';
import { GitCommandError, runGit } from './run.ts';

/**
 * The tree a revision names (a tree id, a commit id or a ref, peeled to its tree) and its entries, with
 * subtrees listed too when `recursive` (`git ls-tree -r -t -l`); null when the revision names no tree.
 * @throws InvalidArgumentError
 */
export async function readGitTree(gitDir: string, rev: string, recursive: boolean): Promise<{ sha: string; entries: TreeEntry[] } | null> {
  assertRevision(rev);
  let sha: string;
  try {
    sha = (await runGit(gitDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{tree}`])).toString('utf8').trim();
  } catch (err) {
    if (err instanceof GitCommandError) return null;
    throw err;
  }
  const out = await runGit(gitDir, ['ls-tree', '-l', '-z', ...(recursive ? ['-r', '-t'] : []), sha]);
  const entries = out
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line): TreeEntry => {
      const tab = line.indexOf('\t');
      const [mode = '', type = 'blob', oid = '', size = '-'] = line.slice(0, tab).split(/\s+/);
      const path = line.slice(tab + 1);
      return {
        mode,
        type: type as TreeEntry['type'],
        sha: oid,
        size: size === '-' ? 0 : Number(size),
        path,
        name: path.slice(path.lastIndexOf('/') + 1),
      };
    });
  return { sha, entries };
}
