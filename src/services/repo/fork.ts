import type { DbTx, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { AlreadyExistsError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { deleteRepository } from '../../git/deleteRepository.ts';
import { forkRepository } from '../../git/fork.ts';
import { hooksDir } from '../../git/installHooks.ts';
import { repoPath } from '../../git/repoPath.ts';
import { repoSize } from '../../git/repoSize.ts';
import { canRead, isRepoAdmin } from '../../permissions/repoPermission.ts';
import type { UnitType } from '../../permissions/units.ts';
import { requireTokenScope, requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgWrite } from '../access/orgAccess.ts';
import { requireRepo, requireRepoWrite } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import type { ListOptions, ListWindow, Page } from '../paging.ts';
import { repoReadWhere } from './visibility.ts';
import { recordGitBranches } from './branchRows.ts';
import { linkOrgTeams, ownerPermission } from './create.ts';
import { PULL_DEFAULTS } from './pullSettings.ts';
import { listRepoPage } from './read.ts';
import { loadApiRepos, type RepoWithPermission } from './repoRows.ts';
import { validateRepoNameSyntax, validateRepoNameUsable } from './validate.ts';

/** Gitea's CreateForkOption. */
export interface ForkRepoInput {
  /** Fork into this organization instead of the viewer's account. */
  organization?: string;
  /** The fork's name; the parent's name when omitted. */
  name?: string;
}

/** Gitea's DefaultForkRepoUnits: a fork starts with code and pull requests only. */
const FORK_UNITS: readonly UnitType[] = ['CODE', 'PULL_REQUESTS'];

/**
 * Who will own the fork (Gitea CreateFork + prepareDoerCreateRepoInOrg): the viewer, or an organization the
 * viewer can see (404 otherwise) and create repositories in: an owner, a member of a team with
 * can_create_org_repo, or a site admin (403 otherwise).
 */
async function resolveForkOwner(cx: ServiceContext, viewer: Models.User, organization: string | undefined): Promise<Models.User> {
  if (organization === undefined) return viewer;
  const access = await requireOrg(cx, organization);
  requireOrgWrite(cx, access, 'write:repository');
  if (!access.isOwner) {
    const team = await cx.db.team.findFirst({
      where: { orgId: access.org.id, canCreateOrgRepo: true, members: { some: { userId: viewer.id } } },
      select: { id: true },
    });
    if (!team) throw new PermissionDeniedError('User is not allowed to create repositories in this organization.');
  }
  return access.org;
}

/**
 * POST /repos/{owner}/{repo}/forks (Gitea CreateFork → ForkRepository): copies the repository into the
 * viewer's account or an organization.
 * - gates: a signed-in viewer who can see the repository (404) and read its code (403); not blocked by its
 *   owner (403); the target as in resolveForkOwner;
 * - one fork per owner and parent (409 `repository is already forked by user […]`), a free name (409
 *   `repository already exists […]`), a usable name (422);
 * - the row copies Gitea's fields (description, default branch, object format, emptiness; private when the
 *   parent is private or its owner is a private organization; is_fork and fork_id) with the fork units,
 *   the viewer's watch, team links and counters; the parent's forks count, language statistics and licenses;
 *   the bare repository (hard-linked objects, branches and tags) and one Branch row per branch, as a push
 *   leaves them; all in one transaction, so a git failure leaves no row and a database failure no directory;
 * - emits `repo.forked` (the feed records create_repo, as Gitea).
 * Returns the fork with the owner's permission.
 * @throws UnauthenticatedError, NotFoundError, PermissionDeniedError, ValidationError, AlreadyExistsError
 */
export async function forkRepo(cx: ServiceContext, ownerName: string, repoName: string, input: ForkRepoInput): Promise<RepoWithPermission> {
  const viewer = requireViewer(cx);
  const parentAccess = await requireRepo(cx, ownerName, repoName);
  requireRepoWrite(cx, parentAccess, 'write:repository');
  const { repo: parent, perm } = parentAccess;
  if (!canRead(perm, 'CODE') && !isRepoAdmin(perm)) {
    throw new PermissionDeniedError('user should have specific read permission or be a repo admin or a site admin');
  }
  const owner = await resolveForkOwner(cx, viewer, input.organization);
  if (perm.blocked) throw new PermissionDeniedError('user is blocked');
  const existing = await cx.db.repository.findFirst({
    where: { ownerId: owner.id, forkId: parent.id },
    select: { ownerName: true, name: true },
  });
  if (existing) {
    throw new AlreadyExistsError(
      `repository is already forked by user [uname: ${owner.name}, repo path: ${parent.ownerName}/${parent.name}, fork path: ${existing.ownerName}/${existing.name}]`,
      { owner: owner.name, fork: `${existing.ownerName}/${existing.name}` },
    );
  }
  // Gitea checks the name (IsUsableRepoName, then uniqueness) only after the one-fork-per-owner rule.
  const name = input.name ?? parent.name;
  validateRepoNameSyntax(name);
  validateRepoNameUsable(name);
  const lowerName = name.toLowerCase();
  const taken = () =>
    new AlreadyExistsError(`repository already exists [uname: ${owner.name}, name: ${name}]`, { owner: owner.name, name });
  if (await cx.db.repository.findUnique({ where: { ownerId_lowerName: { ownerId: owner.id, lowerName } }, select: { id: true } }))
    throw taken();
  const parentOwner = await cx.db.user.findUniqueOrThrow({ where: { id: parent.ownerId }, select: { visibility: true } });

  const source = repoPath(cx.config.repositoriesDir, parent.ownerName, parent.name);
  const gitdir = repoPath(cx.config.repositoriesDir, owner.name, name);
  let createdDir = false;
  try {
    const forkId = await withTx(cx, async (tx, emit) => {
      const fork = await tx.repository.create({
        data: {
          ownerId: owner.id,
          ownerName: owner.name,
          name,
          lowerName,
          description: parent.description,
          defaultBranch: parent.defaultBranch,
          isPrivate: parent.isPrivate || parentOwner.visibility === 'PRIVATE',
          isEmpty: parent.isEmpty,
          isFork: true,
          forkId: parent.id,
          objectFormatName: parent.objectFormatName,
          numWatches: 1,
          units: { create: FORK_UNITS.map((type) => ({ type, config: JSON.stringify(type === 'PULL_REQUESTS' ? PULL_DEFAULTS : {}) })) },
          watches: { create: { userId: viewer.id, mode: 'AUTO' } },
        },
      });
      await tx.repoRedirect.deleteMany({ where: { ownerId: owner.id, lowerName } });
      await tx.user.update({ where: { id: owner.id }, data: { numRepos: { increment: 1 } } });
      if (owner.type === 'ORGANIZATION') await linkOrgTeams(tx, owner.id, fork.id, viewer);
      await tx.repository.update({ where: { id: parent.id }, data: { numForks: { increment: 1 } } });
      await copyRepoStats(tx, parent.id, fork.id);

      await forkRepository({
        source,
        gitdir,
        defaultBranch: parent.defaultBranch,
        objectFormat: parent.objectFormatName === 'sha256' ? 'sha256' : 'sha1',
        hooksDir: hooksDir(cx.config.dataDir),
      });
      createdDir = true;
      const heads = await recordGitBranches(tx, fork.id, gitdir, viewer.id);
      const size = await repoSize(gitdir);
      await tx.repository.update({ where: { id: fork.id }, data: { size, gitSize: size, isEmpty: heads.length === 0 } });
      emit({ type: 'repo.forked', repoId: fork.id, parentId: parent.id, actorId: viewer.id });
      return fork.id;
    });
    const [row] = await loadApiRepos(cx, { where: { id: forkId } });
    if (!row) throw new NotFoundError('repository does not exist', { repoId: forkId });
    return { repo: row, perm: ownerPermission(row.units.map((u) => u.type)) };
  } catch (err) {
    if (createdDir) await deleteRepository(gitdir);
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/** Gitea CopyLanguageStat and CopyLicense: the fork starts with the parent's statistics. */
async function copyRepoStats(tx: DbTx, fromId: number, toId: number): Promise<void> {
  const [languages, licenses] = await Promise.all([
    tx.languageStat.findMany({ where: { repoId: fromId }, select: { commitId: true, isPrimary: true, language: true, size: true } }),
    tx.repoLicense.findMany({ where: { repoId: fromId }, select: { commitId: true, license: true } }),
  ]);
  if (languages.length) await tx.languageStat.createMany({ data: languages.map((l) => ({ ...l, repoId: toId })) });
  if (licenses.length) await tx.repoLicense.createMany({ data: licenses.map((l) => ({ ...l, repoId: toId })) });
}

/**
 * GET /repos/{owner}/{repo}/forks (Gitea ListForks → FindForks): the direct forks the viewer may see, oldest
 * first; the total counts only those.
 * @throws NotFoundError when the repository is absent or invisible
 */
export async function listForks(
  cx: ServiceContext,
  ownerName: string,
  repoName: string,
  opts: ListOptions | ListWindow,
): Promise<Page<RepoWithPermission>> {
  requireTokenScope(cx, 'repository', 'read');
  const { repo } = await requireRepo(cx, ownerName, repoName);
  return listRepoPage(cx, { AND: [{ forkId: repo.id }, repoReadWhere(cx)] }, [{ id: 'asc' }], opts);
}
