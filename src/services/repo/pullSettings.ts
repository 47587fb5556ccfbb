/**
 * Pull-request unit settings as stored in the unit's JSON config (Gitea PullRequestsConfig): what a new
 * repository gets (Gitea's CreateRepositoryByExample) and what a missing key means when reading or editing.
 */
export const PULL_DEFAULTS = {
  ignoreWhitespaceConflicts: false,
  allowMerge: true,
  allowRebase: true,
  allowRebaseMerge: true,
  allowSquash: true,
  allowFastForwardOnly: true,
  allowManualMerge: false,
  autodetectManualMerge: false,
  allowMergeUpdate: true,
  allowRebaseUpdate: true,
  defaultDeleteBranchAfterMerge: false,
  defaultMergeStyle: 'merge',
  defaultUpdateStyle: 'merge',
  defaultAllowMaintainerEdit: false,
};

/** Pull-request unit settings (the unit's JSON config). */
export type PullSettings = typeof PULL_DEFAULTS;
