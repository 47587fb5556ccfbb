// What a commit's tree has at some paths and at each of their parent directories (isomorphic-git, in process).
import fs from 'node:fs';
import { isomorphicGit } from '../lazyPackage.ts';
import { gitCache } from './cache.ts';
import { toDomainError } from './errors.ts';

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
  return lookup(treeReader(gitDir), gitDir, commit, paths);
}

type RawEntry = { path: string; mode: string; oid: string; type: PathEntry['type'] };

/** Reads trees of one repository, each once. */
function treeReader(gitDir: string): (oid: string) => Promise<RawEntry[]> {
  const cache = gitCache(gitDir);
  const trees = new Map<string, Promise<RawEntry[]>>();
  return (oid) => {
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
}

async function lookup(
  readTree: (oid: string) => Promise<RawEntry[]>,
  gitDir: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, PathEntry>> {
  const found = new Map<string, PathEntry>();
  const root = (await isomorphicGit().readCommit({ fs, gitdir: gitDir, oid: commit, cache: gitCache(gitDir) })).commit.tree;
  for (const p of paths) {
    let tree: string | null = root;
    let prefix = '';
    for (const part of p.split('/')) {
      if (!tree) break;
      const entries = await readTree(tree);
      const entry = entries.find((e) => e.path === part);
      prefix = prefix ? `${prefix}/${part}` : part;
      if (!entry) break;
      found.set(prefix, { mode: entry.mode, sha: entry.oid, type: entry.type });
      tree = entry.type === 'tree' ? entry.oid : null;
    }
  }
  return found;
}

/** An entry directly under a directory: its path from the root and its name. */
export interface DirEntry extends PathEntry {
  path: string;
  name: string;
}

/**
 * The entries directly under each of `dirs` at `commit`, read in process (readTreeDirs without a git process: a
 * push's workflow lookup pays no process start); a directory that is not there lists nothing.
 */
export async function listDirs(gitDir: string, commit: string, dirs: readonly string[]): Promise<DirEntry[]> {
  const readTree = treeReader(gitDir);
  try {
    const found = await lookup(readTree, gitDir, commit, dirs);
    const out: DirEntry[] = [];
    for (const dir of dirs) {
      const entry = found.get(dir);
      if (entry?.type !== 'tree') continue;
      for (const e of await readTree(entry.sha))
        out.push({ mode: e.mode, sha: e.oid, type: e.type, path: `${dir}/${e.path}`, name: e.path });
    }
    return out;
  } catch (err) {
    throw toDomainError(err, `object does not exist [id: ${commit}, rel_path: ]`);
  }
}
