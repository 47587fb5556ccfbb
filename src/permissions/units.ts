import type { Models } from '../db/client.ts';

export type UnitType = Models.RepoUnitType;

/** Every repository unit, in Gitea's order (unit.AllRepoUnitTypes). */
export const ALL_UNITS: readonly UnitType[] = [
  'CODE',
  'ISSUES',
  'PULL_REQUESTS',
  'RELEASES',
  'WIKI',
  'EXT_WIKI',
  'EXT_ISSUES',
  'PROJECTS',
  'PACKAGES',
  'ACTIONS',
];

/** Units whose access is capped at read (external trackers and wikis only link out). */
export const READ_ONLY_UNITS: readonly UnitType[] = ['EXT_WIKI', 'EXT_ISSUES'];

const KEYS: Record<UnitType, string> = {
  CODE: 'repo.code',
  ISSUES: 'repo.issues',
  PULL_REQUESTS: 'repo.pulls',
  RELEASES: 'repo.releases',
  WIKI: 'repo.wiki',
  EXT_WIKI: 'repo.ext_wiki',
  EXT_ISSUES: 'repo.ext_issues',
  PROJECTS: 'repo.projects',
  PACKAGES: 'repo.packages',
  ACTIONS: 'repo.actions',
};

/** Gitea's unit key, e.g. `repo.code`. */
export function unitKey(unit: UnitType): string {
  return KEYS[unit];
}

/** The unit named by a Gitea key (`repo.code`), or null for an unknown key. */
export function unitFromKey(key: string): UnitType | null {
  const found = (Object.entries(KEYS) as [UnitType, string][]).find(([, k]) => k === key);
  return found ? found[0] : null;
}

/** A unit's stored settings (`RepoUnit.config`, a JSON object); `{}` when absent, malformed or not an object. */
export function unitConfig(raw: string | null | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
