// Renaming an account (Gitea services/user RenameUser): POST /admin/users/{username}/rename for users (site admins)
// and POST /orgs/{org}/rename for organizations (owners). The name is checked like a new one; the repositories'
// owner name and git directories follow; the old name redirects to the account (Gitea user_redirect).
import { rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { DbLike, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../errors.ts';
import { requireOrg, requireOrgOwner } from '../access/orgAccess.ts';
import { requireSiteAdmin } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { moveRepoDirs, repoDirs } from '../repo/repoDirs.ts';
import { findUserByName } from '../user/user.ts';
import { validateUsernameAvailable, validateUsernameSyntax } from '../user/validate.ts';

/** POST /admin/users/{username}/rename: a user (not an organization) gets a new login. @throws PermissionDeniedError, NotFoundError, ValidationError */
export async function adminRenameUser(cx: ServiceContext, username: string, newName: string): Promise<Models.User> {
  requireSiteAdmin(cx, 'write');
  const user = await findUserByName(cx.db, username);
  if (!user) throw new NotFoundError(`user redirect does not exist [name: ${username.toLowerCase()}]`, { name: username });
  if (user.type === 'ORGANIZATION') throw new ValidationError(`${user.name} is an organization not a user`);
  return renameAccount(cx, user, newName, 'new_username');
}

/** POST /orgs/{org}/rename: an organization's owners give it a new name. @throws NotFoundError, PermissionDeniedError, ValidationError */
export async function renameOrg(cx: ServiceContext, orgName: string, newName: string): Promise<Models.User> {
  const access = await requireOrg(cx, orgName);
  requireOrgOwner(cx, access, 'write:organization');
  return renameAccount(cx, access.org, newName, 'new_name');
}

const taken = (name: string) => new ValidationError(`user already exists [name: ${name}]`);

/**
 * Gitea RenameUser: the same name is a no-op; a case-only change only rewrites the name; otherwise the git
 * directories move first (back again if the transaction fails), then one transaction renames the account, its
 * repositories' owner name and records the redirect.
 */
async function renameAccount(cx: ServiceContext, account: Models.User, newName: string, field: string): Promise<Models.User> {
  validateUsernameSyntax(newName, field);
  if (newName === account.name) return account;
  validateUsernameAvailable(newName);
  const oldLower = account.lowerName;
  const newLower = newName.toLowerCase();
  if (newLower === oldLower) {
    return withTx(cx, async (tx, emit) => {
      const renamed = await tx.user.update({ where: { id: account.id }, data: { name: newName } });
      await tx.repository.updateMany({ where: { ownerId: account.id }, data: { ownerName: newName } });
      emitRenamed(cx, emit, account);
      return renamed;
    });
  }
  if (await findUserByName(cx.db, newName)) throw taken(newName);
  // Every repository of the account held (RepoLocks.runRepos): no push or merge writes in a directory while it moves.
  const listed = await cx.db.repository.findMany({ where: { ownerId: account.id }, select: { id: true } });
  const ids = listed.map((r) => r.id);
  return cx.repoLocks.runRepos(ids, () => moveAccount(cx, account, newName, ids));
}

/**
 * A real rename, holding the repositories `ids` of the account: the account and its repositories are read again
 * (another rename, or a repository made, deleted or transferred while this one waited, is refused: its directory
 * would not follow), the directories move, then one transaction writes the names and the redirect.
 */
async function moveAccount(cx: ServiceContext, account: Models.User, newName: string, ids: readonly number[]): Promise<Models.User> {
  const newLower = newName.toLowerCase();
  const oldLower = account.lowerName;
  const now = await cx.db.user.findUnique({ where: { id: account.id }, select: { name: true } });
  const repos = await cx.db.repository.findMany({ where: { ownerId: account.id }, select: { id: true, name: true } });
  if (now?.name !== account.name || !sameIds(repos, ids)) {
    throw new ConflictError(`${account.name} or its repositories changed while the rename waited for them; nothing was changed, retry`);
  }
  const dir = cx.config.repositoriesDir;
  const from = repos.flatMap((r) => repoDirs(dir, account.name, r.name));
  const to = repos.flatMap((r) => repoDirs(dir, newName, r.name));
  let undo: () => Promise<void>;
  try {
    undo = await moveRepoDirs(from, to);
  } catch {
    throw new ValidationError(`repository files already exist under ${newName}`);
  }
  let renamed: Models.User;
  try {
    renamed = await withTx(cx, async (tx, emit) => {
      const row = await tx.user.update({ where: { id: account.id }, data: { name: newName, lowerName: newLower } });
      const moved = await tx.repository.updateMany({ where: { ownerId: account.id }, data: { ownerName: newName } });
      // A repository made under the old name since they were read would keep its directory there.
      if (moved.count !== ids.length)
        throw new ConflictError(`${account.name} got a new repository while it was renamed; nothing was changed, retry`);
      await recordRedirect(tx, account.id, oldLower, newLower);
      emitRenamed(cx, emit, account);
      return row;
    });
  } catch (err) {
    await undo();
    throw isUniqueViolation(err) ? taken(newName) : err;
  }
  // The old owner directory goes once nothing else (an unadopted repository) is left in it.
  await rmdir(path.join(dir, oldLower)).catch(() => undefined);
  return renamed;
}

/** Gitea NewUserRedirect: the new name stops redirecting anywhere; the old one leads to the account. */
async function recordRedirect(tx: DbLike, userId: number, oldLower: string, newLower: string): Promise<void> {
  await tx.userRedirect.deleteMany({ where: { lowerName: { in: [oldLower, newLower] } } });
  await tx.userRedirect.create({ data: { lowerName: oldLower, redirectUserId: userId } });
}

const sameIds = (rows: readonly { id: number }[], ids: readonly number[]): boolean => {
  const wanted = new Set(ids);
  return rows.length === wanted.size && rows.every((r) => wanted.has(r.id));
};

type Emit = Parameters<Parameters<typeof withTx>[1]>[1];

function emitRenamed(cx: ServiceContext, emit: Emit, account: Models.User): void {
  const actorId = cx.viewer?.id ?? null;
  if (account.type === 'ORGANIZATION') emit({ type: 'org.updated', orgId: account.id, actorId });
  else emit({ type: 'user.updated', userId: account.id, actorId, fields: ['name'] });
}
