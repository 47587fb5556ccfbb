import { runGit } from './run.ts';

/** One tree entry as `git ls-tree -l` reports it. */
export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  /** Blob size in bytes; 0 for trees and submodules. */
  size: number;
  /** Full path from the repository root. */
  path: string;
  name: string;
}

/** Entries of `git ls-tree -z` output (with `-l`, their sizes). */
export function parseLsTree(out: Buffer): TreeEntry[] {
  return out
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode = '', type = 'blob', sha = '', size = '-'] = line.slice(0, tab).split(/\s+/);
      const path = line.slice(tab + 1);
      return {
        mode,
        type: type as TreeEntry['type'],
        sha,
        size: size === '-' ? 0 : Number(size),
        path,
        name: path.slice(path.lastIndexOf('/') + 1),
      };
    });
}

/** A tree path names nothing when it has an empty, `.` or `..` segment or a NUL (git would read it as a file-system path). */
const impossiblePath = (clean: string): boolean =>
  clean.includes('\0') || clean.split('/').some((s) => s === '' || s === '.' || s === '..');

/**
 * What `path` is at `commit`: a single entry, or for a directory (or the root, path '') its children.
 * Returns null when the path does not exist.
 */
export async function readTreePath(
  gitDir: string,
  commit: string,
  path: string,
): Promise<{ entry: TreeEntry | null; children: TreeEntry[] | null } | null> {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (!clean) return { entry: null, children: parseLsTree(await runGit(gitDir, ['ls-tree', '-l', '-z', commit])) };
  if (impossiblePath(clean)) return null;
  const [entry] = parseLsTree(await runGit(gitDir, ['ls-tree', '-l', '-z', commit, '--', clean])).filter((e) => e.path === clean);
  if (!entry) return null;
  if (entry.type !== 'tree') return { entry, children: null };
  return { entry, children: await readTreeDirs(gitDir, commit, [clean]) };
}

/** The entries directly under each of `dirs` at `commit`, in one `git ls-tree`; a directory that is not there lists nothing. */
export async function readTreeDirs(gitDir: string, commit: string, dirs: string[]): Promise<TreeEntry[]> {
  return parseLsTree(await runGit(gitDir, ['ls-tree', '-l', '-z', commit, '--', ...dirs.map((d) => `${d}/`)]));
}
