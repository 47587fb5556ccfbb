import fs from 'node:fs';
import { isomorphicGit } from '../lazyPackage.ts';
import { gitCache } from './cache.ts';

/** A ref the user named, resolved to the commit it points at. */
export interface ResolvedRef {
  kind: 'branch' | 'tag' | 'commit';
  /** Short name as given (branch or tag name, or the full commit sha). */
  name: string;
  commit: string;
}

/** git check-ref-format, the parts that matter for reading: no traversal, no revision syntax. */
export function isSafeRefName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 255 &&
    // eslint-disable-next-line no-control-regex -- git refuses control characters in ref names
    !/(^|\/)\.|\.\.|[\x00-\x20\x7f~^:?*[\\]|@\{|\/\/|\.lock(\/|$)|\/$|^\/|\.$/.test(name) &&
    name !== '@'
  );
}

async function peel(gitDir: string, oid: string): Promise<string | null> {
  try {
    return (await isomorphicGit().readCommit({ fs, gitdir: gitDir, oid, cache: gitCache(gitDir) })).oid;
  } catch {
    return null;
  }
}

async function tryRef(gitDir: string, ref: string): Promise<string | null> {
  try {
    return await isomorphicGit().resolveRef({ fs, gitdir: gitDir, ref });
  } catch {
    return null;
  }
}

/**
 * Resolves a branch name, then a tag name, then a commit sha (full or abbreviated, ≥ 4 hex), like Gitea's
 * ref lookup for the contents API. Returns null when nothing matches.
 */
export async function resolveRef(gitDir: string, ref: string): Promise<ResolvedRef | null> {
  if (isSafeRefName(ref)) {
    for (const [kind, prefix] of [
      ['branch', 'refs/heads/'],
      ['tag', 'refs/tags/'],
    ] as const) {
      const oid = await tryRef(gitDir, prefix + ref);
      if (oid) {
        const commit = await peel(gitDir, oid);
        return commit ? { kind, name: ref, commit } : null;
      }
    }
  }
  if (/^[0-9a-f]{4,64}$/i.test(ref)) {
    let oid: string;
    try {
      oid =
        ref.length === 40 || ref.length === 64
          ? ref.toLowerCase()
          : await isomorphicGit().expandOid({ fs, gitdir: gitDir, oid: ref.toLowerCase(), cache: gitCache(gitDir) });
    } catch {
      return null;
    }
    const commit = await peel(gitDir, oid);
    return commit ? { kind: 'commit', name: commit, commit } : null;
  }
  return null;
}
