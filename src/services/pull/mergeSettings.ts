import type { DbLike } from '../../db/client.ts';
import { readRows } from '../../db/readPath.ts';
import { unitConfig } from '../../permissions/units.ts';
import { PULL_DEFAULTS, type PullSettings } from '../repo/pullSettings.ts';
import type { MergeDo } from './types.ts';

/** The pull requests unit settings as stored (Gitea PullRequestsConfig), with the optional default target branch. */
export type StoredPullSettings = PullSettings & { defaultTargetBranch?: string };

/** The pull requests unit settings of a repository (missing keys take the new-repository defaults, as repo edit does). */
export async function loadPullSettings(db: DbLike, repoId: number): Promise<StoredPullSettings> {
  const [unit] = await readRows<'RepoUnit', { config: string }>(
    db,
    'RepoUnit',
    'SELECT "config" FROM "RepoUnit" WHERE "repoId" = ? AND "type" = ?',
    [repoId, 'PULL_REQUESTS'],
  );
  return settingsOf(unit?.config);
}

/** The same, from a repository's units already loaded. */
export function pullSettingsOf(units: readonly { type: string; config: string }[]): StoredPullSettings {
  return settingsOf(units.find((u) => u.type === 'PULL_REQUESTS')?.config);
}

const settingsOf = (config: string | undefined): StoredPullSettings => ({
  ...PULL_DEFAULTS,
  ...(unitConfig(config) as Partial<StoredPullSettings>),
});

/** Gitea PullRequestsConfig.IsMergeStyleAllowed. */
export function isMergeStyleAllowed(settings: PullSettings, style: MergeDo): boolean {
  switch (style) {
    case 'merge':
      return settings.allowMerge === true;
    case 'rebase':
      return settings.allowRebase === true;
    case 'rebase-merge':
      return settings.allowRebaseMerge === true;
    case 'squash':
      return settings.allowSquash === true;
    case 'fast-forward-only':
      return settings.allowFastForwardOnly === true;
    case 'manually-merged':
      return settings.allowManualMerge === true;
  }
}
