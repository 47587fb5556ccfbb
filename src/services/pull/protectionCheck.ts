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

/** The official reviews of a pull request that protection counts (rows of `review`). */
export type OfficialReview = Pick<Models.Review, 'type' | 'dismissed' | 'stale'>;

/** What branch protection looks at on a pull request, gathered once (for a merge, or for many pulls in the graph). */
export interface ProtectionFacts {
  /** The required checks' state of the head commit ('success' without required checks). */
  checks: string;
  /** Gitea GetGrantedApprovalsCount: official, undismissed approvals (fresh ones only when stale approvals are ignored). */
  approvals: number;
  /** Official, undismissed requests for changes. */
  rejections: number;
  /** Pending official review requests. */
  officialRequests: number;
}

/** The review counts of the facts, from a pull request's official reviews. */
export function reviewFacts(rule: ProtectionRule | null, reviews: readonly OfficialReview[]): Omit<ProtectionFacts, 'checks'> {
  const live = reviews.filter((r) => !r.dismissed);
  return {
    approvals: live.filter((r) => r.type === 'APPROVE' && !(rule?.row.ignoreStaleApprovals && r.stale)).length,
    rejections: live.filter((r) => r.type === 'REJECT').length,
    officialRequests: reviews.filter((r) => r.type === 'REQUEST').length,
  };
}

/** The query of a pull request's official reviews (one issue, or many with `{ in: [...] }`). */
export const OFFICIAL_REVIEWS = { official: true, type: { in: ['APPROVE', 'REJECT', 'REQUEST'] as Models.ReviewType[] } } as const;

/** Gitea GetPullRequestCommitStatusState for required checks: the combined state of the matching latest statuses. */
export function requiredChecksFrom(rule: ProtectionRule | null, latest: readonly Pick<Models.CommitStatus, 'state' | 'context'>[]): string {
  if (!rule?.row.enableStatusCheck) return 'success';
  return requiredChecksState(latest, rule.statusCheckContexts);
}

/**
 * Gitea CheckPullBranchProtections, with its texts and order: required status checks, enough approvals,
 * requested changes, official review requests, an outdated head branch, changed protected files. Null: nothing
 * stops the merge. The one decision behind merges, auto-merges and the graph's mergeStateStatus.
 */
export function protectionFailure(
  rule: ProtectionRule | null,
  facts: ProtectionFacts,
  pull: Pick<Models.PullRequest, 'commitsBehind' | 'changedProtectedFiles'>,
): string | null {
  if (!rule) return null;
  if (facts.checks !== 'success') return 'Not all required status checks successful';
  if (rule.row.requiredApprovals > 0 && facts.approvals < rule.row.requiredApprovals) return 'Does not have enough approvals';
  if (rule.row.blockOnRejectedReviews && facts.rejections > 0) return 'There are requested changes';
  if (rule.row.blockOnOfficialReviewRequests && facts.officialRequests > 0) return 'There are official review requests';
  if (rule.row.blockOnOutdatedBranch && pull.commitsBehind > 0) return BEHIND_MESSAGE;
  if (rule.row.protectedFilePatterns.trim() && JSON.parse(pull.changedProtectedFiles || '[]').length > 0) return 'Changed protected files';
  return null;
}

/** protectionFailure's answer for a head branch behind its base. */
export const BEHIND_MESSAGE = 'The head branch is behind the base branch';

/** @throws PreconditionFailedError (notReadyToMerge) when protectionFailure finds something. */
export async function checkPullBranchProtections(
  db: DbLike,
  rule: ProtectionRule | null,
  rows: { issue: Models.Issue; pull: Models.PullRequest },
  headSha: string,
): Promise<void> {
  if (!rule) return;
  const [latest, reviews] = await Promise.all([
    rule.row.enableStatusCheck ? latestStatuses(db, rows.pull.baseRepoId, headSha) : [],
    db.review.findMany({ where: { issueId: rows.issue.id, ...OFFICIAL_REVIEWS }, select: { type: true, dismissed: true, stale: true } }),
  ]);
  const failure = protectionFailure(rule, { checks: requiredChecksFrom(rule, latest), ...reviewFacts(rule, reviews) }, rows.pull);
  if (failure) throw notReadyToMerge(failure, { pullId: rows.pull.id, rule: rule.row.ruleName });
}
