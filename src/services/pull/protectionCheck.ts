import type { DbLike, Models } from '../../db/client.ts';
import { PreconditionFailedError } from '../../errors.ts';
import type { RepoPermission } from '../../permissions/repoPermission.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { isUserMergeWhitelisted } from '../protection/branchGate.ts';
import { findBranchRule, type ProtectionRule } from '../protection/rule.ts';
import { latestStatuses } from '../status/commitStatus.ts';
import { requiredChecksState } from '../status/rollup.ts';

/** A merge refused by branch protection (Gitea ErrNotReadyToMerge, 405); an admin's force_merge may override it. */
export function notReadyToMerge(message: string, data: Record<string, unknown>): PreconditionFailedError {
  return new PreconditionFailedError(message, { ...data, reason: 'MERGE_NOT_ALLOWED', notReady: true });
}

/** Gitea IsUserAllowedToMerge: code write without a rule; the rule's merge whitelist (or code write) with one. */
export async function isUserAllowedToMerge(
  db: DbLike,
  rule: ProtectionRule | null,
  user: Models.User,
  perm: RepoPermission,
): Promise<boolean> {
  if (perm.blocked) return false;
  if (!rule) return canWrite(perm, 'CODE');
  return isUserMergeWhitelisted(db, rule, user.id, perm);
}

/** The rule protecting the base branch of a pull request. */
export function baseBranchRule(db: DbLike, pull: Models.PullRequest): Promise<ProtectionRule | null> {
  return findBranchRule(db, pull.baseRepoId, pull.baseBranch);
}

/** Gitea GetPullRequestCommitStatusState: the required checks' state of the head commit ('success' without required checks). */
export async function requiredChecksOf(
  db: DbLike,
  rule: ProtectionRule | null,
  pull: Models.PullRequest,
  headSha: string,
): Promise<string> {
  if (!rule?.row.enableStatusCheck) return 'success';
  return requiredChecksState(await latestStatuses(db, pull.baseRepoId, headSha), rule.statusCheckContexts);
}

/** Gitea GetGrantedApprovalsCount: official, undismissed approvals (fresh ones only when stale approvals are ignored). */
export function grantedApprovals(db: DbLike, rule: ProtectionRule, issueId: number): Promise<number> {
  return db.review.count({
    where: { issueId, type: 'APPROVE', official: true, dismissed: false, ...(rule.row.ignoreStaleApprovals ? { stale: false } : {}) },
  });
}

/**
 * Gitea CheckPullBranchProtections, with its texts and order: required status checks, enough approvals,
 * requested changes, official review requests, an outdated head branch, changed protected files.
 * @throws PreconditionFailedError (notReadyToMerge)
 */
export async function checkPullBranchProtections(
  db: DbLike,
  rule: ProtectionRule | null,
  rows: { issue: Models.Issue; pull: Models.PullRequest },
  headSha: string,
): Promise<void> {
  if (!rule) return;
  const data = { pullId: rows.pull.id, rule: rule.row.ruleName };
  if ((await requiredChecksOf(db, rule, rows.pull, headSha)) !== 'success')
    throw notReadyToMerge('Not all required status checks successful', data);
  if (rule.row.requiredApprovals > 0 && (await grantedApprovals(db, rule, rows.issue.id)) < rule.row.requiredApprovals)
    throw notReadyToMerge('Does not have enough approvals', data);
  const official = { issueId: rows.issue.id, official: true, dismissed: false };
  if (rule.row.blockOnRejectedReviews && (await db.review.count({ where: { ...official, type: 'REJECT' } })) > 0)
    throw notReadyToMerge('There are requested changes', data);
  if (
    rule.row.blockOnOfficialReviewRequests &&
    (await db.review.count({ where: { issueId: rows.issue.id, official: true, type: 'REQUEST' } })) > 0
  )
    throw notReadyToMerge('There are official review requests', data);
  if (rule.row.blockOnOutdatedBranch && rows.pull.commitsBehind > 0)
    throw notReadyToMerge('The head branch is behind the base branch', data);
  if (rule.row.protectedFilePatterns.trim() && JSON.parse(rows.pull.changedProtectedFiles || '[]').length > 0)
    throw notReadyToMerge('Changed protected files', data);
}
