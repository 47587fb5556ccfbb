import DataLoader from 'dataloader';
import type { Models } from '../../db/client.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { adminMayOverride } from '../protection/branchGate.ts';
import { firstMatchingRule, sortRules, type ProtectionRule } from '../protection/rule.ts';
import type { ServiceContext } from '../context.ts';
import { combinedState, latestPerContext } from '../status/rollup.ts';
import { pullGitLoaders } from './gitLoaders.ts';
import type { ReviewDecision } from './reviewView.ts';
import { isWorkInProgress } from '../issue/wip.ts';
import { gitDirOf, pullHeadRef } from './pull.ts';
import {
  BEHIND_MESSAGE,
  OFFICIAL_REVIEWS,
  protectionFailure,
  requiredChecksFrom,
  reviewFacts,
  type ProtectionFacts,
} from './protectionCheck.ts';

/** A pull request row with what its protection state needs. */
export type ProtectionRow = Pick<
  Models.PullRequest,
  'id' | 'issueId' | 'index' | 'baseRepoId' | 'baseBranch' | 'status' | 'hasMerged' | 'commitsBehind' | 'changedProtectedFiles'
> & { baseRepo: Pick<Models.Repository, 'ownerName' | 'name' | 'isArchived'>; issue: Pick<Models.Issue, 'title' | 'isClosed'> };

/** Where a pull request stands against the rule protecting its base branch (what a merge would check now). */
export interface PullProtectionState {
  rule: ProtectionRule | null;
  facts: ProtectionFacts;
  /** The combined state of every latest status of the head commit ('' without statuses). */
  allChecks: string;
  /** protectionFailure's message, or null when protection lets the merge through. */
  failure: string | null;
  /** Whether the viewer may merge now as far as permission and protection go (a repository admin's override counted). */
  viewerCanMerge: boolean;
}

/** GitHub's MergeStateStatus (HAS_HOOKS never: there are no pre-merge hooks here). */
export type MergeStateStatus = 'BEHIND' | 'BLOCKED' | 'CLEAN' | 'DIRTY' | 'DRAFT' | 'UNKNOWN' | 'UNSTABLE';

/** GitHub's PullRequest.mergeStateStatus from the protection state (the same decision as a merge). */
export function mergeStateStatus(pull: ProtectionRow, state: PullProtectionState): MergeStateStatus {
  if (pull.hasMerged || pull.issue.isClosed) return 'UNKNOWN';
  if (isWorkInProgress(pull.issue.title)) return 'DRAFT';
  if (pull.status === 'CONFLICT') return 'DIRTY';
  if (pull.status === 'CHECKING' || pull.status === 'ERROR') return 'UNKNOWN';
  if (state.failure === BEHIND_MESSAGE) return 'BEHIND';
  if (state.failure) return 'BLOCKED';
  return state.allChecks === '' || state.allChecks === 'success' ? 'CLEAN' : 'UNSTABLE';
}

/**
 * GitHub's reviewDecision: under a rule with required approvals, CHANGES_REQUESTED when an official review asks
 * for changes, APPROVED with enough granted approvals (as the merge counts them), else REVIEW_REQUIRED. Without
 * one, no review is required: the reviewers' latest verdict (`verdict`, reviewView.ts) when it approves or asks
 * for changes, else null.
 */
export function reviewDecisionOf(state: PullProtectionState, verdict: ReviewDecision): ReviewDecision | null {
  const required = state.rule?.row.requiredApprovals ?? 0;
  if (required <= 0) return verdict === 'REVIEW_REQUIRED' ? null : verdict;
  if (state.facts.rejections > 0) return 'CHANGES_REQUESTED';
  return state.facts.approvals >= required ? 'APPROVED' : 'REVIEW_REQUIRED';
}

/** The state of many pull requests: four queries and one ref read per repository, whatever their number. */
async function loadStates(cx: ServiceContext, pulls: readonly ProtectionRow[]): Promise<PullProtectionState[]> {
  const repoIds = [...new Set(pulls.map((p) => p.baseRepoId))];
  const ruleRows = await cx.db.protectedBranch.findMany({ where: { repoId: { in: repoIds } } });
  const rulesOf = new Map(repoIds.map((id) => [id, sortRules(ruleRows.filter((r) => r.repoId === id))]));
  const rules = pulls.map((p) => firstMatchingRule(rulesOf.get(p.baseRepoId) ?? [], p.baseBranch));
  const { refs } = pullGitLoaders(cx);
  const heads = await Promise.all(pulls.map((p) => refs.load({ gitDir: gitDirOf(cx, p.baseRepo), ref: pullHeadRef(p.index) })));
  const keys = pulls.flatMap((p, i) => (heads[i] ? [{ repoId: p.baseRepoId, sha: heads[i] }] : []));
  const viewer = cx.viewer;
  const needTeams = !!viewer && rules.some((r) => r?.row.enableMergeWhitelist && r.mergeTeamIds.length);
  const [statuses, reviews, teams] = await Promise.all([
    keys.length ? cx.db.commitStatus.findMany({ where: { OR: keys }, orderBy: { index: 'asc' } }) : [],
    cx.db.review.findMany({
      where: { issueId: { in: pulls.map((p) => p.issueId) }, ...OFFICIAL_REVIEWS },
      select: { issueId: true, type: true, dismissed: true, stale: true },
    }),
    needTeams && viewer ? cx.db.teamUser.findMany({ where: { userId: viewer.id }, select: { teamId: true } }) : [],
  ]);
  const viewerTeams = new Set(teams.map((t) => t.teamId));
  const perms = await Promise.all(pulls.map((p) => cx.loaders.repoPermission.load(p.baseRepoId)));
  return pulls.map((p, i) => {
    const rule = rules[i] ?? null;
    const latest = latestPerContext(statuses.filter((s) => s.repoId === p.baseRepoId && s.sha === heads[i]));
    const facts = {
      checks: requiredChecksFrom(rule, latest),
      ...reviewFacts(
        rule,
        reviews.filter((r) => r.issueId === p.issueId),
      ),
    };
    const failure = protectionFailure(rule, facts, p);
    const perm = perms[i]!;
    const allowed =
      !!viewer &&
      !perm.blocked &&
      (rule?.row.enableMergeWhitelist
        ? rule.mergeUserIds.includes(viewer.id) || rule.mergeTeamIds.some((id) => viewerTeams.has(id))
        : canWrite(perm, 'CODE'));
    const open = !p.hasMerged && !p.issue.isClosed && !p.baseRepo.isArchived;
    const viewerCanMerge = open && allowed && (!failure || (rule !== null && adminMayOverride(rule, perm)));
    return { rule, facts, allChecks: combinedState(latest), failure, viewerCanMerge };
  });
}

const perRequest = new WeakMap<ServiceContext['loaders'], DataLoader<ProtectionRow, PullProtectionState, number>>();

/**
 * A pull request's protection state through the request's loader (the graph's mergeStateStatus, reviewDecision
 * and viewerCanMerge). The caller has read the pull request through its read policy.
 */
export function pullProtectionState(cx: ServiceContext, pull: ProtectionRow): Promise<PullProtectionState> {
  let loader = perRequest.get(cx.loaders);
  if (!loader) perRequest.set(cx.loaders, (loader = new DataLoader((pulls) => loadStates(cx, pulls), { cacheKeyFn: (p) => p.id })));
  return loader.load(pull);
}
