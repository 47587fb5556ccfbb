// Writes a commit from file changes without a work tree or index: isomorphic-git rewrites only the trees on the
// changed paths (in process, with the repository's object cache), then writes the blobs and the commit.
import fs from 'node:fs';
import { isomorphicGit } from '../lazyPackage.ts';
import { gitCache } from './cache.ts';
import { identityEnv, type GitIdentity } from './identity.ts';

/** One change: a file written (content and mode), an existing blob placed (a rename), or a file removed. */
export type FileChange =
  { path: string; content: Buffer; mode: string } | { path: string; blob: string; mode: string } | { path: string; remove: true };

/** What to commit: the changes on top of `parent` (null: a root commit on an empty tree). */
export interface CommitFilesInput {
  parent: string | null;
  changes: readonly FileChange[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

type Entry = { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' };
type Pending = { rel: string; change: FileChange; blob: string | null };

/** isomorphic-git's signature of an identity (its offset is in minutes, signed as JS Date's). */
function signature(who: GitIdentity, kind: 'AUTHOR' | 'COMMITTER') {
  identityEnv(kind, who);
  const tz = who.tz ?? '+0000';
  const minutes = Number(tz.slice(1, 3)) * 60 + Number(tz.slice(3, 5));
  return {
    name: who.name,
    email: who.email,
    timestamp: Math.floor(who.when.getTime() / 1000),
    timezoneOffset: tz.startsWith('-') ? minutes : -minutes,
  };
}

/**
 * Writes the commit of `changes` on `parent` and returns its id, its tree and the blob of each written path; no ref moves (the caller updates
 * the branch with a compare-and-swap). The paths must be valid and free (checked by the caller with
 * `lookupPaths`). The message gets a final newline, as `git commit-tree` gives it.
 * @throws InvalidArgumentError for identities git would mangle
 */
export async function commitFiles(
  gitDir: string,
  input: CommitFilesInput,
): Promise<{ commit: string; tree: string; blobs: Map<string, string> }> {
  const cache = gitCache(gitDir);
  const author = signature(input.author, 'AUTHOR');
  const committer = signature(input.committer, 'COMMITTER');
  const pending: Pending[] = [];
  for (const change of input.changes) {
    const blob =
      'content' in change
        ? await isomorphicGit().writeBlob({ fs, gitdir: gitDir, blob: change.content })
        : 'blob' in change
          ? change.blob
          : null;
    pending.push({ rel: change.path, change, blob });
  }

  const rewrite = async (treeOid: string | null, changes: Pending[]): Promise<string | null> => {
    const entries = new Map<string, Entry>();
    if (treeOid) for (const e of (await isomorphicGit().readTree({ fs, gitdir: gitDir, oid: treeOid, cache })).tree) entries.set(e.path, e);
    const below = new Map<string, Pending[]>();
    for (const p of changes) {
      const slash = p.rel.indexOf('/');
      if (slash < 0) {
        if (p.blob === null) entries.delete(p.rel);
        else entries.set(p.rel, { mode: 'mode' in p.change ? p.change.mode : '100644', path: p.rel, oid: p.blob, type: 'blob' });
        continue;
      }
      const dir = p.rel.slice(0, slash);
      below.set(dir, [...(below.get(dir) ?? []), { ...p, rel: p.rel.slice(slash + 1) }]);
    }
    for (const [dir, sub] of below) {
      const current = entries.get(dir);
      const oid = await rewrite(current?.type === 'tree' ? current.oid : null, sub);
      if (oid) entries.set(dir, { mode: '040000', path: dir, oid, type: 'tree' });
      else entries.delete(dir);
    }
    if (!entries.size) return null;
    return isomorphicGit().writeTree({ fs, gitdir: gitDir, tree: [...entries.values()] });
  };

  const parentTree = input.parent ? (await isomorphicGit().readCommit({ fs, gitdir: gitDir, oid: input.parent, cache })).commit.tree : null;
  const tree = (await rewrite(parentTree, pending)) ?? (await isomorphicGit().writeTree({ fs, gitdir: gitDir, tree: [] }));
  const commit = await isomorphicGit().writeCommit({
    fs,
    gitdir: gitDir,
    commit: {
      message: input.message.endsWith('\n') ? input.message : `${input.message}\n`,
      tree,
      parent: input.parent ? [input.parent] : [],
      author,
      committer,
    },
  });
  return { commit, tree, blobs: new Map(pending.flatMap((p) => (p.blob ? [[p.change.path, p.blob] as const] : []))) };
}
