/** isomorphic-git's cache object (opaque; it memoizes parsed pack indexes). */
export type GitCache = Record<string, unknown>;

const MAX_REPOS = 64;
const caches = new Map<string, GitCache>();

/**
 * The shared isomorphic-git `cache` of one repository (an LRU over repositories): without it every
 * packed read reloads the pack index. Packs only grow or get replaced by gc, so entries stay valid
 * until `forgetGitCache` (called after a push).
 */
export function gitCache(gitDir: string): GitCache {
  let cache = caches.get(gitDir);
  if (cache) {
    caches.delete(gitDir);
  } else {
    cache = {};
    if (caches.size >= MAX_REPOS) {
      const oldest = caches.keys().next().value;
      if (oldest !== undefined) caches.delete(oldest);
    }
  }
  caches.set(gitDir, cache);
  return cache;
}

/** Drops a repository's cache (after a push or gc changed its packs). */
export function forgetGitCache(gitDir: string): void {
  caches.delete(gitDir);
}
