// Every file of a commit's tree (`git ls-tree -r`), for checks before a commit is written.
import { runGit } from './run.ts';

/** A file (blob, symlink or submodule) of a tree. */
export interface TreeFile {
  mode: string;
  sha: string;
}

/** Every non-tree entry of `commit`'s tree by full path (one `git ls-tree -r -z`). */
export async function listTreeFiles(gitDir: string, commit: string): Promise<Map<string, TreeFile>> {
  const out = (await runGit(gitDir, ['ls-tree', '-r', '-z', '--full-tree', commit])).toString('utf8');
  const files = new Map<string, TreeFile>();
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode = '', , sha = ''] = rec.slice(0, tab).split(' ');
    files.set(rec.slice(tab + 1), { mode, sha });
  }
  return files;
}
