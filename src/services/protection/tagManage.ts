// Managing tag protections (Gitea routers/api/v1/repo/tag.go *TagProtection).
import type { DbLike, Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError } from '../../errors.ts';
import { requireAdminRepo, type RepoAccess, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { teamIdsByNames, userIdsByNames } from './manage.ts';
import { isValidTagPattern, toTagRule, type TagRule } from './tagGate.ts';

/** Gitea CreateTagProtectionOption / EditTagProtectionOption (absent fields keep their value on edit). */
export interface TagProtectionInput {
  namePattern?: string;
  whitelistUsernames?: string[];
  whitelistTeams?: string[];
}

/** A tag protection with the names of the users and teams it allows, as the API shows it. */
export interface TagProtectionView extends TagRule {
  userNames: string[];
  teamNames: string[];
}

/** Rules with their allowlists as names (ids of deleted accounts dropped), two queries for any number of rules. */
async function toViews(db: DbLike, rows: readonly Models.ProtectedTag[]): Promise<TagProtectionView[]> {
  const rules = rows.map(toTagRule);
  const userIds = [...new Set(rules.flatMap((r) => r.userIds))];
  const teamIds = [...new Set(rules.flatMap((r) => r.teamIds))];
  const [users, teams] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } }) : [],
    teamIds.length ? db.team.findMany({ where: { id: { in: teamIds } }, select: { id: true, name: true } }) : [],
  ]);
  const userName = new Map(users.map((u) => [u.id, u.name]));
  const teamName = new Map(teams.map((t) => [t.id, t.name]));
  return rules.map((r) => ({
    ...r,
    userNames: r.userIds.flatMap((id) => userName.get(id) ?? []),
    teamNames: r.teamIds.flatMap((id) => teamName.get(id) ?? []),
  }));
}

async function viewOf(db: DbLike, row: Models.ProtectedTag): Promise<TagProtectionView> {
  const [view] = await toViews(db, [row]);
  return view as TagProtectionView;
}

/** Tag protections are for repository admins (Gitea reqToken + reqAdmin). @throws NotFoundError, UnauthenticatedError, PermissionDeniedError */
function adminRepo(cx: ServiceContext, ref: RepoRef, level: 'read' | 'write'): Promise<RepoAccess> {
  return requireAdminRepo(cx, ref, `${level}:repository`);
}

/** The protection `id` of the repository (Gitea: 404 also for another repository's). @throws NotFoundError */
async function ruleById(db: DbLike, repoId: number, id: number): Promise<Models.ProtectedTag> {
  const row = Number.isSafeInteger(id) ? await db.protectedTag.findFirst({ where: { id, repoId } }) : null;
  if (!row) throw new NotFoundError('not found', { id });
  return row;
}

/** A pattern that does not compile would make every push of a tag fail: refused up front. @throws ValidationError */
function requireValidPattern(pattern: string): void {
  if (!isValidTagPattern(pattern))
    throw new ValidationError(`invalid name_pattern: ${pattern} is neither a glob nor a /regular expression/`, { namePattern: pattern });
}

/** GET /repos/{o}/{r}/tag_protections (Gitea ListTagProtection), in creation order. @throws NotFoundError, PermissionDeniedError */
export async function listTagProtections(cx: ServiceContext, ref: RepoRef): Promise<TagProtectionView[]> {
  const access = await adminRepo(cx, ref, 'read');
  return toViews(cx.db, await cx.db.protectedTag.findMany({ where: { repoId: access.repo.id }, orderBy: { id: 'asc' } }));
}

/** GET /repos/{o}/{r}/tag_protections/{id}. @throws NotFoundError, PermissionDeniedError */
export async function getTagProtection(cx: ServiceContext, ref: RepoRef, id: number): Promise<TagProtectionView> {
  const access = await adminRepo(cx, ref, 'read');
  return viewOf(cx.db, await ruleById(cx.db, access.repo.id, id));
}

/**
 * POST /repos/{o}/{r}/tag_protections (Gitea CreateTagProtection): a pattern (trimmed) and at least one allowed
 * user or team (400 otherwise, with Gitea's texts), a pattern not yet used in the repository (403 "Tag
 * protection already exist"), existing users and teams (422); teams only count for an organization's repository.
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, InvalidArgumentError, ValidationError
 */
export async function createTagProtection(cx: ServiceContext, ref: RepoRef, input: TagProtectionInput): Promise<TagProtectionView> {
  const access = await adminRepo(cx, ref, 'write');
  if (access.repo.isArchived) throw new RepoArchivedError();
  const namePattern = (input.namePattern ?? '').trim();
  if (!namePattern) throw new InvalidArgumentError('name_pattern are empty');
  if (!input.whitelistUsernames?.length && !input.whitelistTeams?.length)
    throw new InvalidArgumentError('both whitelist_usernames and whitelist_teams are empty');
  const taken = await cx.db.protectedTag.findFirst({ where: { repoId: access.repo.id, namePattern }, select: { id: true } });
  if (taken) throw new PermissionDeniedError('Tag protection already exist', { namePattern });
  requireValidPattern(namePattern);
  const userIds = (await userIdsByNames(cx.db, input.whitelistUsernames ?? [])) ?? [];
  const teamIds = (await teamIdsByNames(cx.db, access.repo, input.whitelistTeams ?? [])) ?? [];
  const row = await cx.db.protectedTag.create({
    data: { repoId: access.repo.id, namePattern, allowlistUserIds: JSON.stringify(userIds), allowlistTeamIds: JSON.stringify(teamIds) },
  });
  return viewOf(cx.db, row);
}

/**
 * PATCH /repos/{o}/{r}/tag_protections/{id} (Gitea EditTagProtection): given fields replace the old ones, as
 * given (Gitea neither trims an edited pattern nor requires an allowlist here).
 * @throws NotFoundError, PermissionDeniedError, RepoArchivedError, ValidationError
 */
export async function editTagProtection(
  cx: ServiceContext,
  ref: RepoRef,
  id: number,
  input: TagProtectionInput,
): Promise<TagProtectionView> {
  const access = await adminRepo(cx, ref, 'write');
  if (access.repo.isArchived) throw new RepoArchivedError();
  const row = await ruleById(cx.db, access.repo.id, id);
  if (input.namePattern !== undefined) requireValidPattern(input.namePattern);
  const [teamIds, userIds] = [
    await teamIdsByNames(cx.db, access.repo, input.whitelistTeams),
    await userIdsByNames(cx.db, input.whitelistUsernames),
  ];
  const updated = await cx.db.protectedTag.update({
    where: { id: row.id },
    data: {
      ...(input.namePattern !== undefined ? { namePattern: input.namePattern } : {}),
      ...(userIds !== undefined ? { allowlistUserIds: JSON.stringify(userIds) } : {}),
      ...(teamIds !== undefined ? { allowlistTeamIds: JSON.stringify(teamIds) } : {}),
    },
  });
  return viewOf(cx.db, updated);
}

/** DELETE /repos/{o}/{r}/tag_protections/{id}. @throws NotFoundError, PermissionDeniedError */
export async function deleteTagProtection(cx: ServiceContext, ref: RepoRef, id: number): Promise<void> {
  const access = await adminRepo(cx, ref, 'write');
  const row = await ruleById(cx.db, access.repo.id, id);
  await cx.db.protectedTag.delete({ where: { id: row.id } });
}
