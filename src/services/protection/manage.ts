import type { DbLike, Models } from '../../db/client.ts';
import { NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError } from '../../errors.ts';
import { requireAdminRepo, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { isValidGlob } from '../glob.ts';
import { toRule, type ProtectionRule } from './rule.ts';

/** Gitea CreateBranchProtectionOption / EditBranchProtectionOption (absent fields keep their value on edit). */
export interface BranchProtectionInput {
  ruleName?: string;
  priority?: number;
  enablePush?: boolean;
  enablePushWhitelist?: boolean;
  pushWhitelistUsernames?: string[];
  pushWhitelistTeams?: string[];
  /** The push whitelist by account ids (GitHub's pushActorIds), instead of names. */
  pushWhitelistUserIds?: number[];
  pushWhitelistTeamIds?: number[];
  pushWhitelistDeployKeys?: boolean;
  enableForcePush?: boolean;
  enableForcePushAllowlist?: boolean;
  forcePushAllowlistUsernames?: string[];
  forcePushAllowlistTeams?: string[];
  forcePushAllowlistDeployKeys?: boolean;
  enableMergeWhitelist?: boolean;
  mergeWhitelistUsernames?: string[];
  mergeWhitelistTeams?: string[];
  enableStatusCheck?: boolean;
  statusCheckContexts?: string[];
  requiredApprovals?: number;
  enableApprovalsWhitelist?: boolean;
  approvalsWhitelistUsernames?: string[];
  approvalsWhitelistTeams?: string[];
  blockOnRejectedReviews?: boolean;
  blockOnOfficialReviewRequests?: boolean;
  blockOnOutdatedBranch?: boolean;
  dismissStaleApprovals?: boolean;
  ignoreStaleApprovals?: boolean;
  requireSignedCommits?: boolean;
  protectedFilePatterns?: string;
  unprotectedFilePatterns?: string;
  blockAdminMergeOverride?: boolean;
}

/** A rule with the names of the users and teams its lists hold, as the API shows it. */
export interface BranchProtectionView extends ProtectionRule {
  userNames: ReadonlyMap<number, string>;
  teamNames: ReadonlyMap<number, string>;
}

/** Rules with the names of their listed users and teams, two queries for any number of rules. */
async function toViews(db: DbLike, rules: ProtectionRule[]): Promise<BranchProtectionView[]> {
  const userIds = new Set(rules.flatMap((r) => [...r.pushUserIds, ...r.forcePushUserIds, ...r.mergeUserIds, ...r.approvalsUserIds]));
  const teamIds = new Set(rules.flatMap((r) => [...r.pushTeamIds, ...r.forcePushTeamIds, ...r.mergeTeamIds, ...r.approvalsTeamIds]));
  const [users, teams] = await Promise.all([
    userIds.size ? db.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, name: true } }) : [],
    teamIds.size ? db.team.findMany({ where: { id: { in: [...teamIds] } }, select: { id: true, name: true } }) : [],
  ]);
  const userNames = new Map(users.map((u) => [u.id, u.name]));
  const teamNames = new Map(teams.map((t) => [t.id, t.name]));
  return rules.map((r) => ({ ...r, userNames, teamNames }));
}

/** Gitea GetUserIDsByNames (unknown names are a 422 "user does not exist"). @throws ValidationError */
export async function userIdsByNames(db: DbLike, names: readonly string[] | undefined): Promise<number[] | undefined> {
  if (names === undefined) return undefined;
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  if (!lower.length) return [];
  const rows = await db.user.findMany({ where: { lowerName: { in: lower }, type: 'INDIVIDUAL' }, select: { id: true, lowerName: true } });
  const missing = lower.find((n) => !rows.some((r) => r.lowerName === n));
  if (missing) throw new ValidationError(`user does not exist [uid: 0, name: ${missing}]`, { name: missing });
  return rows.map((r) => r.id);
}

/** Gitea GetTeamIDsByNames: teams of the owning organization; a user-owned repository ignores them. @throws ValidationError */
export async function teamIdsByNames(
  db: DbLike,
  repo: Models.Repository,
  names: readonly string[] | undefined,
): Promise<number[] | undefined> {
  if (names === undefined) return undefined;
  const owner = await db.user.findUnique({ where: { id: repo.ownerId }, select: { type: true } });
  if (owner?.type !== 'ORGANIZATION') return [];
  const lower = [...new Set(names.map((n) => n.toLowerCase()))];
  if (!lower.length) return [];
  const rows = await db.team.findMany({ where: { orgId: repo.ownerId, lowerName: { in: lower } }, select: { id: true, lowerName: true } });
  const missing = lower.find((n) => !rows.some((r) => r.lowerName === n));
  if (missing) throw new ValidationError(`team does not exist [name: ${missing}]`, { name: missing });
  return rows.map((r) => r.id);
}

/** Ids of individual users, each of which must exist. @throws ValidationError */
async function existingUserIds(db: DbLike, ids: readonly number[] | undefined): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  const unique = [...new Set(ids)];
  const rows = unique.length ? await db.user.findMany({ where: { id: { in: unique }, type: 'INDIVIDUAL' }, select: { id: true } }) : [];
  const missing = unique.find((id) => !rows.some((r) => r.id === id));
  if (missing !== undefined) throw new ValidationError(`user does not exist [uid: ${missing}]`, { id: missing });
  return unique;
}

/** Ids of teams of the repository's owning organization. @throws ValidationError */
async function existingTeamIds(db: DbLike, repo: Models.Repository, ids: readonly number[] | undefined): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  const unique = [...new Set(ids)];
  const rows = unique.length ? await db.team.findMany({ where: { id: { in: unique }, orgId: repo.ownerId }, select: { id: true } }) : [];
  const missing = unique.find((id) => !rows.some((r) => r.id === id));
  if (missing !== undefined) throw new ValidationError(`team does not exist [id: ${missing}]`, { id: missing });
  return unique;
}

/** One list given by names or by ids, not both. @throws ValidationError */
function oneOf<T>(byName: T | undefined, byId: T | undefined, field: string): T | undefined {
  if (byName !== undefined && byId !== undefined)
    throw new ValidationError(`${field}: give the accounts by name or by id, not both`, { field });
  return byName ?? byId;
}

const json = (v: readonly unknown[] | undefined) => (v === undefined ? undefined : JSON.stringify(v));

/** The row fields an input sets (undefined: unchanged). @throws ValidationError */
async function rowData(db: DbLike, repo: Models.Repository, input: BranchProtectionInput) {
  if (input.requiredApprovals !== undefined && input.requiredApprovals < 0)
    throw new ValidationError('RequiredApprovals: must be at least 0', { field: 'required_approvals' });
  const contexts = input.statusCheckContexts?.map((c) => c.trim()).filter(Boolean);
  const bad = contexts?.find((c) => !isValidGlob(c));
  if (bad !== undefined) throw new ValidationError(`status check context "${bad}" is not a valid glob`, { field: 'status_check_contexts' });
  const [pushUsersByName, forceUsers, mergeUsers, approvalUsers, pushTeamsByName, forceTeams, mergeTeams, approvalTeams] =
    await Promise.all([
      userIdsByNames(db, input.pushWhitelistUsernames),
      userIdsByNames(db, input.forcePushAllowlistUsernames),
      userIdsByNames(db, input.mergeWhitelistUsernames),
      userIdsByNames(db, input.approvalsWhitelistUsernames),
      teamIdsByNames(db, repo, input.pushWhitelistTeams),
      teamIdsByNames(db, repo, input.forcePushAllowlistTeams),
      teamIdsByNames(db, repo, input.mergeWhitelistTeams),
      teamIdsByNames(db, repo, input.approvalsWhitelistTeams),
    ]);
  const pushUsers = oneOf(pushUsersByName, await existingUserIds(db, input.pushWhitelistUserIds), 'push_whitelist_usernames');
  const pushTeams = oneOf(pushTeamsByName, await existingTeamIds(db, repo, input.pushWhitelistTeamIds), 'push_whitelist_teams');
  return {
    priority: input.priority,
    canPush: input.enablePush,
    enableWhitelist: input.enablePushWhitelist,
    whitelistUserIds: json(pushUsers),
    whitelistTeamIds: json(pushTeams),
    whitelistDeployKeys: input.pushWhitelistDeployKeys,
    canForcePush: input.enableForcePush,
    enableForcePushAllowlist: input.enableForcePushAllowlist,
    forcePushAllowlistUserIds: json(forceUsers),
    forcePushAllowlistTeamIds: json(forceTeams),
    forcePushAllowlistDeployKeys: input.forcePushAllowlistDeployKeys,
    enableMergeWhitelist: input.enableMergeWhitelist,
    mergeWhitelistUserIds: json(mergeUsers),
    mergeWhitelistTeamIds: json(mergeTeams),
    enableStatusCheck: input.enableStatusCheck,
    statusCheckContexts: json(contexts),
    requiredApprovals: input.requiredApprovals,
    enableApprovalsWhitelist: input.enableApprovalsWhitelist,
    approvalsWhitelistUserIds: json(approvalUsers),
    approvalsWhitelistTeamIds: json(approvalTeams),
    blockOnRejectedReviews: input.blockOnRejectedReviews,
    blockOnOfficialReviewRequests: input.blockOnOfficialReviewRequests,
    blockOnOutdatedBranch: input.blockOnOutdatedBranch,
    dismissStaleApprovals: input.dismissStaleApprovals,
    ignoreStaleApprovals: input.ignoreStaleApprovals,
    requireSignedCommits: input.requireSignedCommits,
    protectedFilePatterns: input.protectedFilePatterns,
    unprotectedFilePatterns: input.unprotectedFilePatterns,
    blockAdminMergeOverride: input.blockAdminMergeOverride,
  };
}

/** Branch protection settings need repository admin (Gitea reqAdmin). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
function adminRepo(cx: ServiceContext, ref: RepoRef, level: 'read' | 'write'): Promise<RepoAccess> {
  return requireAdminRepo(cx, ref, `${level}:repository`);
}

/** The rule named exactly `name`. @throws NotFoundError */
async function ruleByName(db: DbLike, repoId: number, name: string): Promise<Models.ProtectedBranch> {
  const row = await db.protectedBranch.findUnique({ where: { repoId_ruleName: { repoId, ruleName: name } } });
  if (!row) throw new NotFoundError('not found', { ruleName: name });
  return row;
}

/** GET /repos/{o}/{r}/branch_protections (Gitea ListBranchProtections), in Gitea's order. @throws NotFoundError, PermissionDeniedError */
export async function listBranchProtections(cx: ServiceContext, ref: RepoRef): Promise<BranchProtectionView[]> {
  const access = await adminRepo(cx, ref, 'read');
  const rows = await cx.db.protectedBranch.findMany({ where: { repoId: access.repo.id }, orderBy: [{ priority: 'asc' }, { id: 'asc' }] });
  return toViews(cx.db, rows.map(toRule));
}

/** GET /repos/{o}/{r}/branch_protections/{name}. @throws NotFoundError, PermissionDeniedError */
export async function getBranchProtection(cx: ServiceContext, ref: RepoRef, name: string): Promise<BranchProtectionView> {
  const access = await adminRepo(cx, ref, 'read');
  const [view] = await toViews(cx.db, [toRule(await ruleByName(cx.db, access.repo.id, name))]);
  return view as BranchProtectionView;
}

/**
 * POST /repos/{o}/{r}/branch_protections (Gitea CreateBranchProtection): `rule_name` (else `branch_name`) must
 * be given and new (403 "Branch protection already exist"); whitelisted users and teams must exist (422); a new
 * rule without priority goes last.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError, InvalidArgumentError
 */
export async function createBranchProtection(
  cx: ServiceContext,
  ref: RepoRef,
  input: BranchProtectionInput,
): Promise<BranchProtectionView> {
  const access = await adminRepo(cx, ref, 'write');
  if (access.repo.isArchived) throw new RepoArchivedError();
  const ruleName = input.ruleName?.trim() ?? '';
  if (!ruleName) throw new ValidationError('both rule_name and branch_name are empty', { field: 'rule_name' });
  const exists = await cx.db.protectedBranch.findUnique({ where: { repoId_ruleName: { repoId: access.repo.id, ruleName } } });
  if (exists) throw new PermissionDeniedError('Branch protection already exist', { ruleName });
  const data = await rowData(cx.db, access.repo, input);
  const row = await withTx(cx, async (tx) => {
    let priority = data.priority ?? 0;
    if (!priority) {
      const top = await tx.protectedBranch.aggregate({ where: { repoId: access.repo.id }, _max: { priority: true } });
      priority = (top._max.priority ?? 0) + 1;
    }
    return tx.protectedBranch.create({ data: { ...stripUndefined(data), priority, repoId: access.repo.id, ruleName } });
  });
  const [view] = await toViews(cx.db, [toRule(row)]);
  return view as BranchProtectionView;
}

/**
 * PATCH /repos/{o}/{r}/branch_protections/{name} (Gitea EditBranchProtection): given fields change; a given
 * `ruleName` renames the rule (Gitea's settings page; REST never sends one), and must be free.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError
 */
export async function editBranchProtection(
  cx: ServiceContext,
  ref: RepoRef,
  name: string,
  input: BranchProtectionInput,
): Promise<BranchProtectionView> {
  const access = await adminRepo(cx, ref, 'write');
  if (access.repo.isArchived) throw new RepoArchivedError();
  const row = await ruleByName(cx.db, access.repo.id, name);
  const ruleName = input.ruleName?.trim();
  if (ruleName === '') throw new ValidationError('rule_name is empty', { field: 'rule_name' });
  if (ruleName !== undefined && ruleName !== row.ruleName) {
    const taken = await cx.db.protectedBranch.findUnique({ where: { repoId_ruleName: { repoId: access.repo.id, ruleName } } });
    if (taken) throw new PermissionDeniedError('Branch protection already exist', { ruleName });
  }
  const data = await rowData(cx.db, access.repo, input);
  const updated = await cx.db.protectedBranch.update({ where: { id: row.id }, data: stripUndefined({ ...data, ruleName }) });
  const [view] = await toViews(cx.db, [toRule(updated)]);
  return view as BranchProtectionView;
}

/** DELETE /repos/{o}/{r}/branch_protections/{name}. @throws NotFoundError, PermissionDeniedError */
export async function deleteBranchProtection(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const access = await adminRepo(cx, ref, 'write');
  const row = await ruleByName(cx.db, access.repo.id, name);
  await cx.db.protectedBranch.delete({ where: { id: row.id } });
}

/**
 * POST /repos/{o}/{r}/branch_protections/priority (Gitea UpdateBranchProtectionPriories): the rules `ids` get
 * priorities 1, 2, … in that order; ids of other repositories change nothing.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError
 */
export async function updateBranchProtectionPriorities(cx: ServiceContext, ref: RepoRef, ids: readonly number[]): Promise<void> {
  const access = await adminRepo(cx, ref, 'write');
  if (access.repo.isArchived) throw new RepoArchivedError();
  await withTx(cx, async (tx) => {
    let priority = 1;
    for (const id of ids) {
      if (!Number.isSafeInteger(id)) continue;
      await tx.protectedBranch.updateMany({ where: { id, repoId: access.repo.id }, data: { priority } });
      priority++;
    }
  });
}

function stripUndefined<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
