// What a commit's tree has at some paths and at each of their parent directories (isomorphic-git, in process).
import fs from 'node:fs';
import { isomorphicGit } from '../lazyPackage.ts';
import { gitCache } from './cache.ts';

/** A tree entry found at a path. */
export interface PathEntry {
  mode: string;
  sha: string;
  type: 'blob' | 'tree' | 'commit';
}

/**
 * The entries of `commit` at every path of `paths` and at every parent directory of them (absent when
 * nothing is there): enough to check writes to those paths without listing the whole tree.
 */
export async function lookupPaths(gitDir: string, commit: string, paths: readonly string[]): Promise<Map<string, PathEntry>> {
  const cache = gitCache(gitDir);
  const found = new Map<string, PathEntry>();
  const trees = new Map<string, Promise<Array<{ path: string; mode: string; oid: string; type: PathEntry['type'] }>>>();
  const readTree = (oid: string) => {
    let t = trees.get(oid);
    if (!t)
      trees.set(
        oid,
        (t = isomorphicGit()
          .readTree({ fs, gitdir: gitDir, oid, cache })
          .then((r) => r.tree)),
      );
    return t;
  };
  const root = (await isomorphicGit().readCommit({ fs, gitdir: gitDir, oid: commit, cache })).commit.tree;
  for (const p of paths) {
    let tree: string | null = root;
    let prefix = '';
    for (const part of p.split('/')) {
      if (!tree) break;
      const entries: Array<{ path: string; mode: string; oid: string; type: PathEntry['type'] }> = await readTree(tree);
      const entry = entries.find((e) => e.path === part);
      prefix = prefix ? `${prefix}/${part}` : part;
      if (!entry) break;
      found.set(prefix, { mode: entry.mode, sha: entry.oid, type: entry.type });
      tree = entry.type === 'tree' ? entry.oid : null;
    }
  }
  return found;
}
