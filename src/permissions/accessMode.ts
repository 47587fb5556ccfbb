import type { Models } from '../db/client.ts';

export type AccessMode = Models.AccessMode;

const RANK: Record<AccessMode, number> = { NONE: 0, READ: 1, WRITE: 2, ADMIN: 3, OWNER: 4 };

/** The greater of two modes. */
export function maxMode(a: AccessMode, b: AccessMode): AccessMode {
  return RANK[a] >= RANK[b] ? a : b;
}

/** True when `mode` is at least `needed`. */
export function atLeast(mode: AccessMode, needed: AccessMode): boolean {
  return RANK[mode] >= RANK[needed];
}

/** Gitea's lower-case names (`none`, `read`, …) as used in JSON. */
export function modeName(mode: AccessMode): 'none' | 'read' | 'write' | 'admin' | 'owner' {
  return mode.toLowerCase() as 'none' | 'read' | 'write' | 'admin' | 'owner';
}
