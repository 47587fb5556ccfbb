import type { BranchProtectionInput, BranchProtectionView } from '../../services/protection/manage.ts';
import { isRuleNameSpecial } from '../../services/protection/rule.ts';
import type { BranchProtection, EditBranchProtectionOption } from '../structs/branchProtection.ts';
import { apiTime } from './time.ts';

/** Gitea ToBranchProtection: user and team ids as names (unknown ones dropped); `branch_name` only for a plain rule. */
export function toApiBranchProtection(v: BranchProtectionView): BranchProtection {
  const users = (ids: number[]) => ids.flatMap((id) => v.userNames.get(id) ?? []);
  const teams = (ids: number[]) => ids.flatMap((id) => v.teamNames.get(id) ?? []);
  const r = v.row;
  return {
    branch_name: isRuleNameSpecial(r.ruleName) ? '' : r.ruleName,
    rule_name: r.ruleName,
    priority: r.priority,
    enable_push: r.canPush,
    enable_push_whitelist: r.enableWhitelist,
    push_whitelist_usernames: users(v.pushUserIds),
    push_whitelist_teams: teams(v.pushTeamIds),
    push_whitelist_deploy_keys: r.whitelistDeployKeys,
    enable_force_push: r.canForcePush,
    enable_force_push_allowlist: r.enableForcePushAllowlist,
    force_push_allowlist_usernames: users(v.forcePushUserIds),
    force_push_allowlist_teams: teams(v.forcePushTeamIds),
    force_push_allowlist_deploy_keys: r.forcePushAllowlistDeployKeys,
    enable_merge_whitelist: r.enableMergeWhitelist,
    merge_whitelist_usernames: users(v.mergeUserIds),
    merge_whitelist_teams: teams(v.mergeTeamIds),
    enable_status_check: r.enableStatusCheck,
    status_check_contexts: v.statusCheckContexts,
    required_approvals: r.requiredApprovals,
    enable_approvals_whitelist: r.enableApprovalsWhitelist,
    approvals_whitelist_username: users(v.approvalsUserIds),
    approvals_whitelist_teams: teams(v.approvalsTeamIds),
    block_on_rejected_reviews: r.blockOnRejectedReviews,
    block_on_official_review_requests: r.blockOnOfficialReviewRequests,
    block_on_outdated_branch: r.blockOnOutdatedBranch,
    dismiss_stale_approvals: r.dismissStaleApprovals,
    ignore_stale_approvals: r.ignoreStaleApprovals,
    require_signed_commits: r.requireSignedCommits,
    protected_file_patterns: r.protectedFilePatterns,
    unprotected_file_patterns: r.unprotectedFilePatterns,
    block_admin_merge_override: r.blockAdminMergeOverride,
    created_at: apiTime(r.createdAt),
    updated_at: apiTime(r.updatedAt),
  };
}

const opt = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

/** The service input of a create or edit body (null and absent fields change nothing). */
export function branchProtectionInput(b: EditBranchProtectionOption): BranchProtectionInput {
  return {
    priority: opt(b.priority),
    enablePush: opt(b.enable_push),
    enablePushWhitelist: opt(b.enable_push_whitelist),
    pushWhitelistUsernames: opt(b.push_whitelist_usernames),
    pushWhitelistTeams: opt(b.push_whitelist_teams),
    pushWhitelistDeployKeys: opt(b.push_whitelist_deploy_keys),
    enableForcePush: opt(b.enable_force_push),
    enableForcePushAllowlist: opt(b.enable_force_push_allowlist),
    forcePushAllowlistUsernames: opt(b.force_push_allowlist_usernames),
    forcePushAllowlistTeams: opt(b.force_push_allowlist_teams),
    forcePushAllowlistDeployKeys: opt(b.force_push_allowlist_deploy_keys),
    enableMergeWhitelist: opt(b.enable_merge_whitelist),
    mergeWhitelistUsernames: opt(b.merge_whitelist_usernames),
    mergeWhitelistTeams: opt(b.merge_whitelist_teams),
    enableStatusCheck: opt(b.enable_status_check),
    statusCheckContexts: opt(b.status_check_contexts),
    requiredApprovals: opt(b.required_approvals),
    enableApprovalsWhitelist: opt(b.enable_approvals_whitelist),
    approvalsWhitelistUsernames: opt(b.approvals_whitelist_username),
    approvalsWhitelistTeams: opt(b.approvals_whitelist_teams),
    blockOnRejectedReviews: opt(b.block_on_rejected_reviews),
    blockOnOfficialReviewRequests: opt(b.block_on_official_review_requests),
    blockOnOutdatedBranch: opt(b.block_on_outdated_branch),
    dismissStaleApprovals: opt(b.dismiss_stale_approvals),
    ignoreStaleApprovals: opt(b.ignore_stale_approvals),
    requireSignedCommits: opt(b.require_signed_commits),
    protectedFilePatterns: opt(b.protected_file_patterns),
    unprotectedFilePatterns: opt(b.unprotected_file_patterns),
    blockAdminMergeOverride: opt(b.block_admin_merge_override),
  };
}
