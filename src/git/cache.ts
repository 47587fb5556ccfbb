import { LRUCache } from 'lru-cache';

/** isomorphic-git's cache object (opaque; it memoizes parsed pack indexes). */
export type GitCache = Record<string, unknown>;

/**
 * The shared isomorphic-git `cache` of the 64 repositories read most recently: without it every packed read reloads
 * the pack index (and reads and checks the whole pack again). A pack's name is its content's hash, and isomorphic-git
 * lists the pack directory on each packed read: a push's new pack is found under its new name, and the packs already
 * parsed stay valid. Only gc (which replaces packs), deletion and rename call `forgetGitCache`.
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

/** Drops a repository's cache (after gc replaced its packs, or the repository moved or went). */
export function forgetGitCache(gitDir: string): void {
  caches.delete(gitDir);
}
