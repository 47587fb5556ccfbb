import { LRUCache } from 'lru-cache';

/** isomorphic-git's cache object (opaque; it memoizes parsed pack indexes). */
export type GitCache = Record<string, unknown>;

/**
 * The shared isomorphic-git `cache` of the 64 repositories read most recently: without it every packed read reloads
 * the pack index. Packs only grow or get replaced by gc, so entries stay valid until `forgetGitCache` (called after
 * a push).
 */
const caches = new LRUCache<string, GitCache>({ max: 64 });

/** The shared isomorphic-git `cache` of one repository. */
export function gitCache(gitDir: string): GitCache {
  let cache = caches.get(gitDir);
  if (!cache) {
    cache = {};
    caches.set(gitDir, cache);
  }
  return cache;
}

/** Drops a repository's cache (after a push or gc changed its packs). */
export function forgetGitCache(gitDir: string): void {
  caches.delete(gitDir);
}
