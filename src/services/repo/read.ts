import type { Models } from '../../db/client.ts';
import { NotFoundError } from '../../errors.ts';
import { canReadAny } from '../../permissions/repoPermission.ts';
import { findRepoByName, requireRepoAccess, requireRepoAccessWithFacts } from '../access/repoAccess.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireOrg } from '../access/orgAccess.ts';
import type { ServiceContext } from '../context.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { getUserByName } from '../user/user.ts';
import { collaborativeWhere } from './access.ts';
import { repoReadWhere } from './visibility.ts';
import { loadApiRepoRows, loadApiRepos, withPermissions, type RepoWithPermission } from './repoRows.ts';

type Where = Models.Prisma.RepositoryWhereInput;

async function loadOne(cx: ServiceContext, repo: Models.Repository): Promise<RepoWithPermission> {
  const { perm } = await requireRepoAccess(cx, repo);
  const [row] = await loadApiRepos(cx, { where: { id: repo.id } });
  if (!row) throw new NotFoundError('repository does not exist', { repoId: repo.id });
  return { repo: row, perm };
}

/** GET /repos/{owner}/{repo}: the repository with the viewer's permission. @throws NotFoundError (missing or invisible) */
export async function getRepo(cx: ServiceContext, owner: string, name: string): Promise<RepoWithPermission> {
  requireTokenScope(cx, 'repository', 'read');
  // One load for the JSON and the permission: the row's owner and units are the access facts.
  const found = await findRepoByName(cx.db, owner, name);
  const [row] = found ? await loadApiRepoRows(cx, [found]) : [];
  if (!row) throw new NotFoundError('repository does not exist', { owner, name });
  const { perm } = await requireRepoAccessWithFacts(cx, row, row);
  return { repo: row, perm };
}

/** GET /repositories/{id}. @throws NotFoundError (missing or invisible: the same answer) */
export async function getRepoById(cx: ServiceContext, id: number): Promise<RepoWithPermission> {
  requireTokenScope(cx, 'repository', 'read');
  const repo = id > 0 && id <= 2_147_483_647 ? await cx.db.repository.findUnique({ where: { id } }) : null;
  const perm = repo ? await cx.loaders.repoPermission.load(repo.id) : null;
  if (!repo || !perm || !canReadAny(perm))
    throw new NotFoundError(`repository does not exist [id: ${id}, uid: 0, owner_name: , name: ]`, { id });
  return loadOne(cx, repo);
}

/** Loads one page of `where` in `orderBy`, with the total, permissions in one batch. */
export async function listRepoPage(
  cx: ServiceContext,
  where: Where,
  orderBy: Models.Prisma.RepositoryOrderByWithRelationInput[],
  opts: ListOptions | ListWindow,
): Promise<Page<RepoWithPermission>> {
  const [rows, total] = await Promise.all([loadApiRepos(cx, { where, orderBy, ...skipTake(opts) }), cx.db.repository.count({ where })]);
  return { items: await withPermissions(cx, rows), total };
}

/**
 * GET /user/repos (Gitea ListMyRepos): repositories the viewer owns, collaborates on, or reaches through a
 * team or organization membership, by name.
 * @throws UnauthenticatedError
 */
export async function listMyRepos(cx: ServiceContext, opts: ListOptions | ListWindow): Promise<Page<RepoWithPermission>> {
  const viewer = requireViewer(cx);
  requireTokenScope(cx, 'repository', 'read');
  const where: Where = { AND: [repoReadWhere(cx), { OR: [{ ownerId: viewer.id }, collaborativeWhere(viewer.id)] }] };
  return listRepoPage(cx, where, [{ lowerName: 'asc' }, { id: 'asc' }], opts);
}

/**
 * GET /users/{username}/repos (Gitea listUserRepos): the account's own repositories the viewer may see, by id.
 * Unlike Gitea the total counts only those (Gitea counts the invisible private ones too).
 * @throws NotFoundError when the account is absent or invisible
 */
export async function listUserRepos(
  cx: ServiceContext,
  username: string,
  opts: ListOptions | ListWindow,
): Promise<Page<RepoWithPermission>> {
  requireTokenScope(cx, 'repository', 'read');
  const user = await getUserByName(cx, username);
  return listOwnerRepos(cx, user, opts);
}

/** GET /orgs/{org}/repos: the organization's repositories the viewer may see, by id. @throws NotFoundError */
export async function listOrgRepos(cx: ServiceContext, orgName: string, opts: ListOptions | ListWindow): Promise<Page<RepoWithPermission>> {
  requireTokenScope(cx, 'repository', 'read');
  const { org } = await requireOrg(cx, orgName);
  return listOwnerRepos(cx, org, opts);
}

function listOwnerRepos(cx: ServiceContext, owner: Models.User, opts: ListOptions | ListWindow): Promise<Page<RepoWithPermission>> {
  const where: Where = { AND: [{ ownerId: owner.id }, repoReadWhere(cx)] };
  return listRepoPage(cx, where, [{ id: 'asc' }], opts);
}
