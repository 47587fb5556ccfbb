// GitHub's flat input fields of createBranchProtectionRule/updateBranchProtectionRule, mapped onto Gitea's protected
// branch settings. A GitHub setting Gitea has no counterpart for is accepted only at the value that matches what a
// Gitea rule does (e.g. `allowsDeletions: false`: a protected branch is never deleted); any other value is an
// UNPROCESSABLE error naming the field, never dropped.
import { ValidationError } from '../../errors.ts';
import type { BranchProtectionInput } from '../../services/protection/manage.ts';
import { dbId, opt, type GlobalId } from '../ids.ts';
import { builder } from '../builder.ts';

/** GitHub's RequiredStatusCheckInput: a context; `appId` (a GitHub App) has no counterpart in Gitea. */
export const RequiredStatusCheckInputRef = builder.inputType('RequiredStatusCheckInput', {
  description: 'A required status check: its context (a glob in Gitea). `appId` may only be absent, null or "-1" (any source).',
  fields: (t) => ({
    context: t.string({ required: true }),
    appId: t.id({ description: 'Only "-1" (any source) or null: Gitea does not tie a status to an app.' }),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** GitHub's input fields, the same on create and update. */
export const githubRuleFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  allowsDeletions: t.boolean({ description: 'Only false: Gitea never lets a protected branch be deleted.' }),
  allowsForcePushes: t.boolean({ description: 'Gitea enable_force_push.' }),
  blocksCreations: t.boolean({ description: 'Only false: Gitea rules do not restrict creating matching branches.' }),
  bypassForcePushActorIds: t.globalIDList({
    description: 'Only empty: use settings.forcePushAllowanceLogins/Teams (Gitea force-push allowlist) instead.',
  }),
  bypassPullRequestActorIds: t.globalIDList({ description: 'Only empty: Gitea has no pull request bypass list.' }),
  dismissesStaleReviews: t.boolean({ description: 'Gitea dismiss_stale_approvals.' }),
  isAdminEnforced: t.boolean({ description: 'Gitea block_admin_merge_override.' }),
  lockAllowsFetchAndMerge: t.boolean({ description: 'Only false: Gitea has no branch lock.' }),
  lockBranch: t.boolean({ description: 'Only false: Gitea has no branch lock (settings.isPushEnabled: false stops pushes).' }),
  pushActorIds: t.globalIDList({ description: 'Users and teams on the push whitelist (Gitea push_whitelist_usernames/teams).' }),
  requireLastPushApproval: t.boolean({ description: 'Only false: Gitea has no such rule.' }),
  requiredApprovingReviewCount: t.int({ description: 'Gitea required_approvals.' }),
  requiredDeploymentEnvironments: t.stringList({ description: 'Only empty: Gitea has no deployments.' }),
  requiredStatusCheckContexts: t.stringList({ description: 'Gitea status_check_contexts.' }),
  requiredStatusChecks: t.field({
    type: [RequiredStatusCheckInputRef],
    description: 'Gitea status_check_contexts (the contexts); not with requiredStatusCheckContexts.',
  }),
  requiresApprovingReviews: t.boolean({
    description: 'false: required_approvals becomes 0; true needs requiredApprovingReviewCount ≥ 1 (Gitea keeps only the count).',
  }),
  requiresCodeOwnerReviews: t.boolean({ description: 'Only false: Gitea does not require code owner reviews.' }),
  requiresCommitSignatures: t.boolean({ description: 'Gitea require_signed_commits.' }),
  requiresConversationResolution: t.boolean({ description: 'Only false: Gitea has no such rule.' }),
  requiresDeployments: t.boolean({ description: 'Only false: Gitea has no deployments.' }),
  requiresLinearHistory: t.boolean({ description: 'Only false: Gitea has no such rule.' }),
  requiresStatusChecks: t.boolean({ description: 'Gitea enable_status_check.' }),
  requiresStrictStatusChecks: t.boolean({ description: 'Gitea block_on_outdated_branch.' }),
  restrictsPushes: t.boolean({ description: 'Gitea enable_push_whitelist.' }),
  restrictsReviewDismissals: t.boolean({ description: 'Only false: in Gitea, repository admins dismiss reviews.' }),
  reviewDismissalActorIds: t.globalIDList({ description: 'Only empty: in Gitea, repository admins dismiss reviews.' }),
});

/** What GitHub's fields hold, as the resolver receives them. */
export interface GithubRuleFields {
  allowsDeletions?: boolean | null;
  allowsForcePushes?: boolean | null;
  blocksCreations?: boolean | null;
  bypassForcePushActorIds?: GlobalId[] | null;
  bypassPullRequestActorIds?: GlobalId[] | null;
  dismissesStaleReviews?: boolean | null;
  isAdminEnforced?: boolean | null;
  lockAllowsFetchAndMerge?: boolean | null;
  lockBranch?: boolean | null;
  pushActorIds?: GlobalId[] | null;
  requireLastPushApproval?: boolean | null;
  requiredApprovingReviewCount?: number | null;
  requiredDeploymentEnvironments?: string[] | null;
  requiredStatusCheckContexts?: string[] | null;
  requiredStatusChecks?: { context: string; appId?: string | number | null }[] | null;
  requiresApprovingReviews?: boolean | null;
  requiresCodeOwnerReviews?: boolean | null;
  requiresCommitSignatures?: boolean | null;
  requiresConversationResolution?: boolean | null;
  requiresDeployments?: boolean | null;
  requiresLinearHistory?: boolean | null;
  requiresStatusChecks?: boolean | null;
  requiresStrictStatusChecks?: boolean | null;
  restrictsPushes?: boolean | null;
  restrictsReviewDismissals?: boolean | null;
  reviewDismissalActorIds?: GlobalId[] | null;
}

/** The GitHub settings a Gitea rule cannot hold, with the one value each may take. */
const ONLY_FALSE = [
  'allowsDeletions',
  'blocksCreations',
  'lockAllowsFetchAndMerge',
  'lockBranch',
  'requireLastPushApproval',
  'requiresCodeOwnerReviews',
  'requiresConversationResolution',
  'requiresDeployments',
  'requiresLinearHistory',
  'restrictsReviewDismissals',
] as const;
const ONLY_EMPTY = [
  'bypassForcePushActorIds',
  'bypassPullRequestActorIds',
  'reviewDismissalActorIds',
  'requiredDeploymentEnvironments',
] as const;

const unsupported = (field: string, why: string) => new ValidationError(`${field}: ${why}`, { field });

/** The push whitelist of GitHub's actor ids: users and teams. @throws ValidationError for another kind of actor */
function pushActors(ids: readonly GlobalId[]): { users: number[]; teams: number[] } {
  const users: number[] = [];
  const teams: number[] = [];
  for (const gid of ids) {
    if (gid.typename === 'User') users.push(dbId(gid.id));
    else if (gid.typename === 'Team') teams.push(dbId(gid.id));
    else throw unsupported('pushActorIds', `a ${gid.typename} cannot be on a Gitea push whitelist (users and teams only)`);
  }
  return { users, teams };
}

/** The contexts of requiredStatusChecks or requiredStatusCheckContexts. @throws ValidationError */
function statusContexts(f: GithubRuleFields): string[] | undefined {
  const checks = opt(f.requiredStatusChecks);
  const contexts = opt(f.requiredStatusCheckContexts);
  if (checks === undefined) return contexts;
  if (contexts !== undefined)
    throw unsupported('requiredStatusChecks', 'give requiredStatusChecks or requiredStatusCheckContexts, not both');
  for (const c of checks) {
    if (c.appId != null && String(c.appId) !== '-1')
      throw unsupported('requiredStatusChecks', 'appId must be null or "-1": Gitea does not tie a status check to an app');
  }
  return checks.map((c) => c.context);
}

/** The required approvals of requiredApprovingReviewCount and requiresApprovingReviews. @throws ValidationError */
function approvals(f: GithubRuleFields): number | undefined {
  const count = opt(f.requiredApprovingReviewCount);
  const requires = opt(f.requiresApprovingReviews);
  if (requires === false) {
    if (count) throw unsupported('requiresApprovingReviews', 'false contradicts a requiredApprovingReviewCount above 0');
    return 0;
  }
  if (requires === true && !count)
    throw unsupported('requiresApprovingReviews', 'true needs requiredApprovingReviewCount of 1 or more (Gitea keeps only the count)');
  return count;
}

/**
 * The service input of GitHub's fields (undefined: not given). @throws ValidationError for a value Gitea cannot
 * honour
 */
export function githubRuleInput(f: GithubRuleFields): BranchProtectionInput {
  for (const field of ONLY_FALSE) if (f[field] === true) throw unsupported(field, 'only false is supported: Gitea has no such setting');
  for (const field of ONLY_EMPTY) {
    if ((f[field]?.length ?? 0) > 0) throw unsupported(field, 'only an empty list is supported: Gitea has no such list');
  }
  const actors = f.pushActorIds == null ? undefined : pushActors(f.pushActorIds);
  return {
    enableForcePush: opt(f.allowsForcePushes),
    dismissStaleApprovals: opt(f.dismissesStaleReviews),
    blockAdminMergeOverride: opt(f.isAdminEnforced),
    enablePushWhitelist: opt(f.restrictsPushes),
    pushWhitelistUserIds: actors?.users,
    pushWhitelistTeamIds: actors?.teams,
    requiredApprovals: approvals(f),
    enableStatusCheck: opt(f.requiresStatusChecks),
    statusCheckContexts: statusContexts(f),
    requireSignedCommits: opt(f.requiresCommitSignatures),
    blockOnOutdatedBranch: opt(f.requiresStrictStatusChecks),
  };
}

/** Each service key GitHub's fields set: GitHub's field, and the field of `settings` that sets the same thing. */
const SAME_SETTING: Partial<Record<keyof BranchProtectionInput, readonly [string, string]>> = {
  enableForcePush: ['allowsForcePushes', 'allowsForcePushes'],
  dismissStaleApprovals: ['dismissesStaleReviews', 'dismissesStaleReviews'],
  blockAdminMergeOverride: ['isAdminEnforced', 'blockAdminMergeOverride'],
  enablePushWhitelist: ['restrictsPushes', 'restrictsPushes'],
  pushWhitelistUserIds: ['pushActorIds', 'pushAllowanceLogins'],
  pushWhitelistTeamIds: ['pushActorIds', 'pushAllowanceTeams'],
  requiredApprovals: ['requiredApprovingReviewCount', 'requiredApprovingReviewCount'],
  enableStatusCheck: ['requiresStatusChecks', 'requiresStatusChecks'],
  statusCheckContexts: ['requiredStatusCheckContexts', 'requiredStatusCheckContexts'],
  requireSignedCommits: ['requiresCommitSignatures', 'requiresCommitSignatures'],
  blockOnOutdatedBranch: ['requiresStrictStatusChecks', 'blocksOnOutdatedBranch'],
};

/** The key of `settings` input that names the same list as a by-id key (ids and names are both given). */
const BY_NAME: Partial<Record<keyof BranchProtectionInput, keyof BranchProtectionInput>> = {
  pushWhitelistUserIds: 'pushWhitelistUsernames',
  pushWhitelistTeamIds: 'pushWhitelistTeams',
};

/**
 * GitHub's fields and ours (`settings`) together: each setting may come from one of them only.
 * @throws ValidationError naming both fields when a setting is given twice
 */
export function mergeRuleInputs(github: BranchProtectionInput, ours: BranchProtectionInput): BranchProtectionInput {
  for (const [key, value] of Object.entries(github) as [keyof BranchProtectionInput, unknown][]) {
    if (value === undefined) continue;
    const twin = BY_NAME[key] ?? key;
    if (ours[twin] !== undefined) {
      const [theirs, mine] = SAME_SETTING[key] ?? [key, key];
      throw new ValidationError(`${theirs} and settings.${mine} set the same thing: give one`, { field: theirs });
    }
  }
  const merged: BranchProtectionInput = { ...ours };
  for (const [key, value] of Object.entries(github) as [keyof BranchProtectionInput, never][]) if (value !== undefined) merged[key] = value;
  return merged;
}
