import type { DbLike, Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { canWrite, isRepoAdmin, type RepoPermission } from '../../permissions/repoPermission.ts';
import { isSiteAdmin } from '../access/guards.ts';
import { repoPermission, type RepoAccess } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import type { CommitSignature } from '../../git/commitSignature.ts';
import { requireServerMaySign, requireVerifiedCommits } from './signedCommits.ts';
import { filePatterns, findBranchRule, loadRules, firstMatchingRule, matchesAnyFile, type ProtectionRule } from './rule.ts';

const ZERO = /^0+$/;

/** Whether the user belongs to one of the teams (Gitea IsUserInTeams). */
async function inTeams(db: DbLike, userId: number, teamIds: readonly number[]): Promise<boolean> {
  if (!teamIds.length) return false;
  return (await db.teamUser.count({ where: { userId, teamId: { in: [...teamIds] } } })) > 0;
}

/** Gitea CanUserPush: pushing is enabled, and the user is whitelisted (or, without a whitelist, may write code). */
export async function canUserPush(db: DbLike, rule: ProtectionRule, user: Models.User, perm: RepoPermission): Promise<boolean> {
  if (!rule.row.canPush) return false;
  if (!rule.row.enableWhitelist) return canWrite(perm, 'CODE');
  return rule.pushUserIds.includes(user.id) || (await inTeams(db, user.id, rule.pushTeamIds));
}

/** Gitea CanUserForcePush: force pushing is enabled, and the user may push and is on the force-push allowlist when there is one. */
export async function canUserForcePush(db: DbLike, rule: ProtectionRule, user: Models.User, perm: RepoPermission): Promise<boolean> {
  if (!rule.row.canForcePush) return false;
  if (!rule.row.enableForcePushAllowlist) return canUserPush(db, rule, user, perm);
  const listed = rule.forcePushUserIds.includes(user.id) || (await inTeams(db, user.id, rule.forcePushTeamIds));
  return listed && (await canUserPush(db, rule, user, perm));
}

/** Gitea IsUserMergeWhitelisted: the merge whitelist when enabled, code write otherwise. */
export async function isUserMergeWhitelisted(db: DbLike, rule: ProtectionRule, userId: number, perm: RepoPermission): Promise<boolean> {
  if (!rule.row.enableMergeWhitelist) return canWrite(perm, 'CODE');
  return rule.mergeUserIds.includes(userId) || (await inTeams(db, userId, rule.mergeTeamIds));
}

/**
 * Gitea IsUserOfficialReviewer: with an approvals whitelist on the rule protecting the base branch, its users and
 * teams; otherwise anyone with code write on the repository.
 */
export async function isOfficialReviewerFor(
  db: DbLike,
  rule: ProtectionRule | null,
  user: Models.User,
  perm: RepoPermission,
): Promise<boolean> {
  if (user.type === 'ORGANIZATION') return false;
  if (!rule?.row.enableApprovalsWhitelist) return canWrite(perm, 'CODE');
  return rule.approvalsUserIds.includes(user.id) || (await inTeams(db, user.id, rule.approvalsTeamIds));
}

/**
 * Who moves a branch, as the rules see it: a user with their permission on the repository, or a deploy key
 * pushing over SSH (no user: Gitea's pre-receive asks the rule's deploy-key switches instead).
 */
type Pusher = { user: Models.User; perm: RepoPermission } | 'deployKey';

/** Gitea preReceiveBranch for deploy keys: pushing is enabled, and without a whitelist or with deploy keys on it. */
function deployKeyMayPush(rule: ProtectionRule): boolean {
  return rule.row.canPush && (!rule.row.enableWhitelist || rule.row.whitelistDeployKeys);
}

/** The same for a force push: force pushing is enabled, and without an allowlist or with deploy keys on it. */
function deployKeyMayForcePush(rule: ProtectionRule): boolean {
  return rule.row.canForcePush && rule.row.canPush && (!rule.row.enableForcePushAllowlist || rule.row.forcePushAllowlistDeployKeys);
}

/** One branch update of a push (or of an API write). */
export interface BranchUpdate {
  branch: string;
  oldSha: string;
  newSha: string;
}

/** What the gate asks git about a pushed update (run with the push's quarantined objects). */
export interface PushProbe {
  /** Whether `newSha` does not contain `oldSha` (history rewritten). */
  isForcePush(update: BranchUpdate): Promise<boolean>;
  /** The paths the update changes. */
  changedFiles(update: BranchUpdate): Promise<string[]>;
  /** The commits the update brings (Gitea verifyCommits' list), with their signatures, newest first. */
  pushedCommits(update: BranchUpdate): Promise<CommitSignature[]>;
}

/**
 * The branch write gate of a push (Gitea preReceiveBranch), for every branch update, with Gitea's texts:
 * deleting a protected branch, a force push the rule does not allow for the pusher, a change to a protected
 * commit whose signature does not verify where the rule requires signed commits, a change to a protected file,
 * or a push by someone the rule does not let push (unless every changed file is unprotected).
 * @throws PermissionDeniedError
 */
export async function requirePushAllowed(
  cx: ServiceContext,
  repo: Models.Repository,
  updates: readonly BranchUpdate[],
  probe: PushProbe,
): Promise<void> {
  await forEachProtectedUpdate(cx, repo, updates, async (u, rule, pusher) => {
    const isNew = ZERO.test(u.oldSha);
    const mayForcePush = () =>
      pusher === 'deployKey' ? deployKeyMayForcePush(rule) : canUserForcePush(cx.db, rule, pusher.user, pusher.perm);
    if (!isNew && (await probe.isForcePush(u)) && !(await mayForcePush()))
      throw new PermissionDeniedError(`branch ${u.branch} is protected from force push`, { branch: u.branch });
    await requireVerifiedCommits(cx, rule, u.branch, () => probe.pushedCommits(u));
    const protectedFiles = filePatterns(rule.row.protectedFilePatterns);
    const unprotectedFiles = filePatterns(rule.row.unprotectedFilePatterns);
    const files = !isNew && (protectedFiles.length || unprotectedFiles.length) ? await probe.changedFiles(u) : [];
    const touched = files.find((f) => matchesAnyFile(protectedFiles, f));
    if (touched) throw new PermissionDeniedError(`branch ${u.branch} is protected from changing file ${touched}`, { branch: u.branch });
    if (pusher === 'deployKey' ? deployKeyMayPush(rule) : await canUserPush(cx.db, rule, pusher.user, pusher.perm)) return;
    const onlyUnprotected = unprotectedFiles.length > 0 && files.length > 0 && files.every((f) => matchesAnyFile(unprotectedFiles, f));
    if (!onlyUnprotected) throw new PermissionDeniedError(`Not allowed to push to protected branch ${u.branch}`, { branch: u.branch });
  });
}

/**
 * Runs `check` for each update of a branch a rule protects, by a signed-in viewer or a deploy key (the system
 * passes); deleting such a branch is refused outright (Gitea preReceiveBranch, step 1).
 * @throws PermissionDeniedError
 */
async function forEachProtectedUpdate(
  cx: ServiceContext,
  repo: Models.Repository,
  updates: readonly BranchUpdate[],
  check: (u: BranchUpdate, rule: ProtectionRule, pusher: Pusher) => Promise<void>,
): Promise<void> {
  const deployKey = cx.auth.sshKey?.deploy === true;
  if (!updates.length || (!cx.viewer && !deployKey)) return;
  const rules = await loadRules(cx.db, repo.id);
  if (!rules.length) return;
  const pusher: Pusher = cx.viewer && !deployKey ? { user: cx.viewer, perm: await repoPermission(cx, repo.id) } : 'deployKey';
  for (const u of updates) {
    const rule = firstMatchingRule(rules, u.branch);
    if (!rule) continue;
    if (ZERO.test(u.newSha)) throw new PermissionDeniedError(`branch ${u.branch} is protected from deletion`, { branch: u.branch });
    await check(u, rule, pusher);
  }
}

/**
 * The branch write gate of API file writes (Gitea reqRepoBranchWriter + ChangeRepoFiles): on a protected branch
 * the viewer must be allowed to push (site admins pass), and no protected file may change.
 * @throws PermissionDeniedError
 */
export async function requireFilesWritable(
  cx: ServiceContext,
  access: RepoAccess,
  branch: string,
  paths: readonly string[],
): Promise<void> {
  const rule = await findBranchRule(cx.db, access.repo.id, branch);
  if (!rule || !cx.viewer) return;
  if (!isSiteAdmin(cx) && !(await canUserPush(cx.db, rule, cx.viewer, access.perm)))
    throw new PermissionDeniedError('user should have a permission to write to this branch', { branch });
  const patterns = filePatterns(rule.row.protectedFilePatterns);
  const hit = paths.find((p) => matchesAnyFile(patterns, p));
  if (hit) throw new PermissionDeniedError(`path is protected and can not be changed [path: ${hit}]`, { branch, path: hit });
  requireServerMaySign(rule, cx.viewer, branch);
}

/** A protected branch cannot be deleted through the API (Gitea ErrBranchIsProtected). @throws PermissionDeniedError */
export async function requireBranchDeletable(db: DbLike, repoId: number, branch: string): Promise<void> {
  if (await findBranchRule(db, repoId, branch)) throw new PermissionDeniedError('branch protected', { branch });
}

/**
 * Gitea RenameBranch's gate: the default branch, and a branch named by a rule of its own, are renamed by
 * repository (or site) admins only; a branch a pattern rule protects by nobody. Returns the rule named after
 * the branch, which follows the rename.
 * @throws PermissionDeniedError
 */
export async function requireBranchRenamable(
  cx: ServiceContext,
  repo: Models.Repository,
  perm: RepoPermission,
  from: string,
): Promise<ProtectionRule | null> {
  const admin = isRepoAdmin(perm) || isSiteAdmin(cx);
  const adminOnly = () =>
    new PermissionDeniedError('User must be a repo or site admin to rename default or protected branches.', { branch: from });
  if (from === repo.defaultBranch && !admin) throw adminOnly();
  const rules = await loadRules(cx.db, repo.id);
  const named = rules.find((r) => r.row.ruleName === from) ?? null;
  if (named && !admin) throw adminOnly();
  if (!named && firstMatchingRule(rules, from))
    throw new PermissionDeniedError('Branch is protected by glob-based protection rules.', { branch: from });
  return named;
}

/**
 * The branch write gate of a pull request merge moving its base (Gitea preReceiveBranch for merges): the merger
 * may push to the branch, or is on its merge whitelist (code write without one); the pull request's own
 * protection checks (reviews, status checks) are the merge service's, made before. Deleting is never a merge.
 * @throws PermissionDeniedError
 */
export async function requireMergeMoveAllowed(
  cx: ServiceContext,
  repo: Models.Repository,
  updates: readonly BranchUpdate[],
): Promise<void> {
  await forEachProtectedUpdate(cx, repo, updates, async (u, rule, pusher) => {
    // Merges are made by users (a deploy key only pushes over SSH).
    const allowed =
      pusher !== 'deployKey' &&
      !pusher.perm.blocked &&
      ((await canUserPush(cx.db, rule, pusher.user, pusher.perm)) ||
        (await isUserMergeWhitelisted(cx.db, rule, pusher.user.id, pusher.perm)));
    if (!allowed) throw new PermissionDeniedError(`Not allowed to push to protected branch ${u.branch}`, { branch: u.branch });
  });
}

/** What the Branch JSON says about protection for the viewer (Gitea ToBranch). */
export interface BranchProtectionFacts {
  rule: ProtectionRule | null;
  userCanPush: boolean;
  userCanMerge: boolean;
}

/** Gitea ToBranch: whether the viewer may push to and merge into `branch`, given its rule. */
export async function branchFacts(
  cx: ServiceContext,
  access: RepoAccess,
  rules: readonly ProtectionRule[],
  branch: string,
): Promise<BranchProtectionFacts> {
  const rule = firstMatchingRule(rules, branch);
  const viewer = cx.viewer;
  if (!rule) {
    const writer = !!viewer && canWrite(access.perm, 'CODE');
    return { rule, userCanPush: writer, userCanMerge: writer };
  }
  if (!viewer) return { rule, userCanPush: false, userCanMerge: false };
  return {
    rule,
    userCanPush: await canUserPush(cx.db, rule, viewer, access.perm),
    userCanMerge: await isUserMergeWhitelisted(cx.db, rule, viewer.id, access.perm),
  };
}

/** Whether an admin override of failed protection checks is possible (force_merge by a repository admin). */
export function adminMayOverride(rule: ProtectionRule, perm: RepoPermission): boolean {
  return isRepoAdmin(perm) && !rule.row.blockAdminMergeOverride;
}
