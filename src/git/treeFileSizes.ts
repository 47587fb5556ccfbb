// The blobs of a commit's tree with their sizes (`git ls-tree -r -l -z`), for language statistics.
import { runGit } from './run.ts';

/** One file of a tree: its path and size in bytes. */
export interface TreeFile {
  path: string;
  size: number;
}

/** Every blob under the commit's tree, recursively (submodules and symlinks excluded). */
export async function treeFileSizes(gitDir: string, commit: string): Promise<TreeFile[]> {
  const out = await runGit(gitDir, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
  const files: TreeFile[] = [];
  for (const entry of out.toString('utf8').split('\0')) {
    // "<mode> SP <type> SP <object> SP+ <size> TAB <path>"
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, , size] = entry.slice(0, tab).split(/ +/);
    if (type !== 'blob' || mode === '120000') continue;
    files.push({ path: entry.slice(tab + 1), size: Number(size) || 0 });
  }
  return files;
}
