import { z } from 'zod';
import { zBool } from '../validation.ts';

/** Gitea `BranchProtection` (modules/structs/repo_branch.go); the bypass allowlist (Gitea 1.25) is not modelled. */
export const BranchProtection = z.object({
  branch_name: z.string(),
  rule_name: z.string(),
  priority: z.number().int(),
  enable_push: z.boolean(),
  enable_push_whitelist: z.boolean(),
  push_whitelist_usernames: z.array(z.string()),
  push_whitelist_teams: z.array(z.string()),
  push_whitelist_deploy_keys: z.boolean(),
  enable_force_push: z.boolean(),
  enable_force_push_allowlist: z.boolean(),
  force_push_allowlist_usernames: z.array(z.string()),
  force_push_allowlist_teams: z.array(z.string()),
  force_push_allowlist_deploy_keys: z.boolean(),
  enable_merge_whitelist: z.boolean(),
  merge_whitelist_usernames: z.array(z.string()),
  merge_whitelist_teams: z.array(z.string()),
  enable_status_check: z.boolean(),
  status_check_contexts: z.array(z.string()),
  required_approvals: z.number().int(),
  enable_approvals_whitelist: z.boolean(),
  approvals_whitelist_username: z.array(z.string()),
  approvals_whitelist_teams: z.array(z.string()),
  block_on_rejected_reviews: z.boolean(),
  block_on_official_review_requests: z.boolean(),
  block_on_outdated_branch: z.boolean(),
  dismiss_stale_approvals: z.boolean(),
  ignore_stale_approvals: z.boolean(),
  require_signed_commits: z.boolean(),
  protected_file_patterns: z.string(),
  unprotected_file_patterns: z.string(),
  block_admin_merge_override: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BranchProtection = z.infer<typeof BranchProtection>;

const names = z.array(z.string()).nullable().optional();
const flag = zBool.nullable().optional();

/** The fields Gitea's CreateBranchProtectionOption and EditBranchProtectionOption share. */
const protectionFields = {
  priority: z.number().int().nullable().optional(),
  enable_push: flag,
  enable_push_whitelist: flag,
  push_whitelist_usernames: names,
  push_whitelist_teams: names,
  push_whitelist_deploy_keys: flag,
  enable_force_push: flag,
  enable_force_push_allowlist: flag,
  force_push_allowlist_usernames: names,
  force_push_allowlist_teams: names,
  force_push_allowlist_deploy_keys: flag,
  enable_merge_whitelist: flag,
  merge_whitelist_usernames: names,
  merge_whitelist_teams: names,
  enable_status_check: flag,
  status_check_contexts: names,
  required_approvals: z.number().int().nullable().optional(),
  enable_approvals_whitelist: flag,
  approvals_whitelist_username: names,
  approvals_whitelist_teams: names,
  block_on_rejected_reviews: flag,
  block_on_official_review_requests: flag,
  block_on_outdated_branch: flag,
  dismiss_stale_approvals: flag,
  ignore_stale_approvals: flag,
  require_signed_commits: flag,
  protected_file_patterns: z.string().nullable().optional(),
  unprotected_file_patterns: z.string().nullable().optional(),
  block_admin_merge_override: flag,
};

/** Gitea `CreateBranchProtectionOption`: `rule_name`, or the deprecated `branch_name`. */
export const CreateBranchProtectionOption = z.object({
  branch_name: z.string().nullable().optional(),
  rule_name: z.string().nullable().optional(),
  ...protectionFields,
});
export type CreateBranchProtectionOption = z.infer<typeof CreateBranchProtectionOption>;

/** Gitea `EditBranchProtectionOption`: absent fields keep their value. */
export const EditBranchProtectionOption = z.object(protectionFields);
export type EditBranchProtectionOption = z.infer<typeof EditBranchProtectionOption>;

/** Gitea `UpdateBranchProtectionPriories`. */
export const UpdateBranchProtectionPriories = z.object({ ids: z.array(z.number().int()) });
