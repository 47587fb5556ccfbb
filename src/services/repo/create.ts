import { PULL_DEFAULTS } from './pullSettings.ts';
import type { DbTx, Models } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/prismaErrors.ts';
import { AlreadyExistsError, InvalidArgumentError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { deleteRepository } from '../../git/deleteRepository.ts';
import { hooksDir } from '../../git/installHooks.ts';
import { configureRepository, initRepository } from '../../git/initRepository.ts';
import { readHeadBranch } from '../../git/readHead.ts';
import { repoPath } from '../../git/repoPath.ts';
import { repoSize } from '../../git/repoSize.ts';
import { writeInitialCommit } from '../../git/writeInitialCommit.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import type { RepoPermission } from '../../permissions/repoPermission.ts';
import { READ_ONLY_UNITS, type UnitType } from '../../permissions/units.ts';
import { requireSiteAdmin, requireWriter } from '../access/guards.ts';
import { requireOrg, requireOrgWrite } from '../access/orgAccess.ts';
import type { WriteNeed } from '../access/writeGate.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { gitName } from '../user/gitIdentity.ts';
import { findUserByName } from '../user/user.ts';
import { recordGitBranches } from './branchRows.ts';
import { loadApiRepos, type RepoWithPermission } from './repoRows.ts';
import { isReadmeTemplate, labelSet, licenseId, README_TEMPLATES, renderInitialFiles, validateInitTemplates } from './templates.ts';
import { validateDefaultBranch, validateObjectFormat, validateRepoNameSyntax, validateRepoNameUsable } from './validate.ts';

/** Who will own the new repository: the viewer, an organization, or (site admins) any user. */
export type RepoOwnerRef = { kind: 'viewer' } | { kind: 'org'; org: string } | { kind: 'user'; username: string };

/** The token scopes of each way to create a repository: Gitea's routes /user/repos, /orgs/{org}/repos, /admin/users/{u}/repos. */
const CREATE_NEEDS: Record<RepoOwnerRef['kind'], WriteNeed[]> = {
  viewer: ['write:repository'],
  org: ['write:organization', 'write:repository'],
  user: ['write:admin'],
};

/** Gitea's CreateRepoOption. */
export interface CreateRepoInput {
  name: string;
  description?: string;
  private?: boolean;
  template?: boolean;
  autoInit?: boolean;
  /** Label set name (`Default`, `Advanced`). */
  issueLabels?: string;
  /** Comma-separated .gitignore templates (auto_init only). */
  gitignores?: string;
  /** License template, an SPDX id (auto_init only). */
  license?: string;
  /** README template (auto_init only; empty → `Default`). */
  readme?: string;
  defaultBranch?: string;
  /** default, collaborator, committer, collaboratorcommitter; anything else → default. */
  trustModel?: string;
  objectFormatName?: string;
  /** The website (GitHub's homepageUrl at creation; Gitea sets it by editing). */
  website?: string;
  /** Units of DEFAULT_REPO_UNITS the repository starts without (GitHub's hasIssuesEnabled/hasWikiEnabled: false). */
  withoutUnits?: readonly UnitType[];
}

const TRUST_MODELS: Record<string, Models.TrustModel> = {
  collaborator: 'COLLABORATOR',
  committer: 'COMMITTER',
  collaboratorcommitter: 'COLLABORATOR_COMMITTER',
};

/** Gitea's default unit configs for a new repository (CreateRepositoryByExample). */
function defaultUnitConfig(type: UnitType): Record<string, unknown> {
  switch (type) {
    case 'ISSUES':
      return { enableTimetracker: true, allowOnlyContributorsToTrackTime: true, enableDependencies: true };
    case 'PULL_REQUESTS':
      return { ...PULL_DEFAULTS };
    case 'PROJECTS':
      return { projectsMode: 'all' };
    default:
      return {};
  }
}

/** Gitea's DefaultRepoUnits. */
export const DEFAULT_REPO_UNITS: readonly UnitType[] = [
  'CODE',
  'ISSUES',
  'PULL_REQUESTS',
  'RELEASES',
  'WIKI',
  'PROJECTS',
  'PACKAGES',
  'ACTIONS',
];

/** The owner's permission (Gitea renders a new repository with AccessModeOwner). */
export function ownerPermission(units: readonly UnitType[]): RepoPermission {
  return {
    mode: 'OWNER',
    units: Object.fromEntries(units.map((u) => [u, READ_ONLY_UNITS.includes(u) ? 'READ' : 'OWNER'])),
    blocked: false,
  };
}

async function resolveOwner(cx: ServiceContext, viewer: Models.User, ref: RepoOwnerRef): Promise<Models.User> {
  if (ref.kind === 'viewer') {
    if (viewer.type === 'ORGANIZATION') throw new ValidationError('not allowed creating repository for organization');
    return viewer;
  }
  if (ref.kind === 'user') {
    requireSiteAdmin(cx, 'write');
    const user = await findUserByName(cx.db, ref.username);
    if (!user) throw new NotFoundError(`user does not exist [name: ${ref.username}]`, { name: ref.username });
    return user;
  }
  const access = await requireOrg(cx, ref.org);
  requireOrgWrite(cx, access, CREATE_NEEDS.org);
  if (!access.isOwner) {
    const team = await cx.db.team.findFirst({
      where: { orgId: access.org.id, canCreateOrgRepo: true, members: { some: { userId: viewer.id } } },
      select: { id: true },
    });
    if (!team) throw new PermissionDeniedError('User is not allowed to create repositories in this organization.');
  }
  return access.org;
}

/** How createRepo names an owner already resolved (and checked) by the caller: the viewer, an organization or another user. */
export function ownerRefFor(viewer: Models.User, owner: Models.User): RepoOwnerRef {
  if (owner.id === viewer.id) return { kind: 'viewer' };
  return owner.type === 'ORGANIZATION' ? { kind: 'org', org: owner.name } : { kind: 'user', username: owner.name };
}

/** Gitea's CanCreateRepoIn: the owner's max_repo_creation (-1 = the site default, unlimited). */
function checkLimit(viewer: Models.User, owner: Models.User): void {
  if (viewer.isAdmin || owner.maxRepoCreation < 0) return;
  if (owner.numRepos >= owner.maxRepoCreation) {
    throw new PermissionDeniedError(`user has reached maximum limit of repositories [limit: ${owner.maxRepoCreation}]`, {
      limit: owner.maxRepoCreation,
    });
  }
}

/** What a migration adds to a new repository: columns (status, mirror flag, original URL) and rows written in its transaction. */
export interface CreateRepoExtra {
  data?: Pick<
    Models.Prisma.RepositoryUncheckedCreateInput,
    'status' | 'isMirror' | 'originalUrl' | 'originalServiceType' | 'templateId' | 'trustModel'
  >;
  inTx?: (tx: DbTx, repo: Models.Repository) => Promise<void>;
  /** The git directory exists already (an unadopted repository): it is configured and read, not created. */
  adopt?: boolean;
}

const ALREADY_EXISTS = 'The repository with the same name already exists.';

/**
 * Creates a repository (POST /user/repos, /orgs/{org}/repos, /admin/users/{u}/repos) with Gitea's rules:
 * the row, default units, label set, team links and counters in one transaction, the bare git directory
 * (and the auto_init commit) inside it, so a git failure leaves no row and a database failure no directory.
 * Returns the repository with the owner's permission.
 * @throws UnauthenticatedError, NotFoundError, PermissionDeniedError, ValidationError, InvalidArgumentError, AlreadyExistsError
 */
export async function createRepo(
  cx: ServiceContext,
  ownerRef: RepoOwnerRef,
  input: CreateRepoInput,
  extra: CreateRepoExtra = {},
): Promise<RepoWithPermission> {
  // The token half of the write gate comes first, as Gitea's route scopes; the owner's gate follows (resolveOwner).
  const viewer = requireWriter(cx, CREATE_NEEDS[ownerRef.kind]);
  validateRepoNameSyntax(input.name);
  if ((input.description ?? '').length > 2048) throw new ValidationError('MaxSize', { field: 'description', rule: 'MaxSize' });
  const defaultBranch = validateDefaultBranch(input.defaultBranch);
  const objectFormat = validateObjectFormat(input.objectFormatName);
  const owner = await resolveOwner(cx, viewer, ownerRef);
  const autoInit = input.autoInit ?? false;
  const readme = autoInit ? input.readme || 'Default' : '';
  if (autoInit && !isReadmeTemplate(readme)) {
    throw new InvalidArgumentError(`readme template does not exist, available templates: [${README_TEMPLATES.join(' ')}]`, { readme });
  }
  validateRepoNameUsable(input.name);
  checkLimit(viewer, owner);
  const labels = input.issueLabels ? labelSet(input.issueLabels) : [];
  if (autoInit) validateInitTemplates(input.gitignores ?? '', input.license ?? '');
  const lowerName = input.name.toLowerCase();
  if (await cx.db.repository.findUnique({ where: { ownerId_lowerName: { ownerId: owner.id, lowerName } }, select: { id: true } })) {
    throw new AlreadyExistsError(ALREADY_EXISTS, { owner: owner.name, name: input.name });
  }

  const gitdir = repoPath(cx.config.repositoriesDir, owner.name, input.name);
  let createdDir = false;
  try {
    const repoId = await withTx(cx, async (tx, emit) => {
      const repo = await tx.repository.create({
        data: {
          ownerId: owner.id,
          ownerName: owner.name,
          name: input.name,
          lowerName,
          description: input.description ?? '',
          isPrivate: input.private ?? false,
          isTemplate: input.template ?? false,
          defaultBranch,
          trustModel: TRUST_MODELS[(input.trustModel ?? '').toLowerCase()] ?? 'DEFAULT',
          objectFormatName: objectFormat,
          numWatches: 1,
          website: input.website ?? '',
          units: {
            create: DEFAULT_REPO_UNITS.filter((type) => !input.withoutUnits?.includes(type)).map((type) => ({
              type,
              config: JSON.stringify(defaultUnitConfig(type)),
            })),
          },
          watches: { create: { userId: viewer.id, mode: 'AUTO' } },
          ...extra.data,
        },
      });
      if (labels.length) {
        await tx.label.createMany({
          data: labels.map((l) => ({ repoId: repo.id, name: l.name, color: l.color, description: l.description, exclusive: l.exclusive })),
        });
      }
      await tx.user.update({ where: { id: owner.id }, data: { numRepos: { increment: 1 } } });
      if (owner.type === 'ORGANIZATION') await linkOrgTeams(tx, owner.id, repo.id, viewer);

      if (extra.adopt) {
        await adoptGitDir(tx, repo, gitdir, hooksDir(cx.config.dataDir), viewer.id);
      } else {
        await initRepository({ gitdir, defaultBranch, objectFormat, hooksDir: hooksDir(cx.config.dataDir) });
        createdDir = true;
        if (autoInit) await initialCommit(cx, tx, { repo, owner, viewer, gitdir, readme, input });
      }
      const size = await repoSize(gitdir);
      await tx.repository.update({ where: { id: repo.id }, data: { size, gitSize: size } });
      if (extra.inTx) await extra.inTx(tx, repo);
      emit({ type: 'repo.created', repoId: repo.id, actorId: viewer.id });
      return repo.id;
    });
    const [row] = await loadApiRepos(cx, { where: { id: repoId } });
    if (!row) throw new NotFoundError('repository does not exist', { repoId });
    return { repo: row, perm: ownerPermission(row.units.map((u) => u.type)) };
  } catch (err) {
    if (createdDir) await deleteRepository(gitdir);
    if (isUniqueViolation(err)) throw new AlreadyExistsError(ALREADY_EXISTS, { owner: owner.name, name: input.name });
    throw err;
  }
}

/** Gitea adoptRepository: the existing directory gets our settings, its branches rows, and HEAD's branch (else the first) as default. */
async function adoptGitDir(tx: DbTx, repo: Models.Repository, gitdir: string, hooks: string, pusherId: number): Promise<void> {
  await configureRepository(gitdir, hooks);
  const branches = await recordGitBranches(tx, repo.id, gitdir, pusherId);
  const head = await readHeadBranch(gitdir);
  const defaultBranch = head && branches.includes(head) ? head : (branches[0] ?? head ?? repo.defaultBranch);
  await tx.repository.update({ where: { id: repo.id }, data: { defaultBranch, isEmpty: branches.length === 0 } });
}

/**
 * Gitea createRepositoryInDB for organizations (new repositories and forks): teams with
 * includes_all_repositories get the repository; a creator who is not thereby an admin of it becomes an admin
 * collaborator.
 */
export async function linkOrgTeams(tx: DbTx, orgId: number, repoId: number, viewer: Models.User): Promise<void> {
  const teams = await tx.team.findMany({
    where: { orgId, includesAllRepositories: true },
    select: { id: true, authorize: true, members: { where: { userId: viewer.id }, select: { id: true } } },
  });
  if (teams.length) {
    await tx.teamRepo.createMany({ data: teams.map((t) => ({ orgId, teamId: t.id, repoId })) });
    await tx.team.updateMany({ where: { id: { in: teams.map((t) => t.id) } }, data: { numRepos: { increment: 1 } } });
  }
  const isAdmin = viewer.isAdmin || teams.some((t) => t.members.length > 0 && atLeast(t.authorize, 'ADMIN'));
  if (!isAdmin) await tx.collaboration.create({ data: { repoId, userId: viewer.id, mode: 'ADMIN' } });
}

interface InitialCommitArgs {
  repo: Models.Repository;
  owner: Models.User;
  viewer: Models.User;
  gitdir: string;
  readme: string;
  input: CreateRepoInput;
}

/** auto_init: README/.gitignore/LICENSE committed by the creator; the branch row, license row and non-empty flag. */
async function initialCommit(cx: ServiceContext, tx: DbTx, a: InitialCommitArgs): Promise<void> {
  const when = new Date();
  const email = a.viewer.keepEmailPrivate ? `${a.viewer.lowerName}@${cx.config.noReplyAddress}` : a.viewer.email;
  const host = new URL(cx.config.rootUrl).hostname;
  const files = renderInitialFiles({
    repoName: a.repo.name,
    description: a.repo.description,
    ownerName: a.owner.name,
    authorEmail: email,
    cloneUrlHttps: `${cx.config.rootUrl}${a.owner.name}/${a.repo.name}.git`,
    cloneUrlSsh: `git@${host}:${a.owner.name}/${a.repo.name}.git`,
    readme: a.readme,
    gitignores: a.input.gitignores ?? '',
    license: a.input.license ?? '',
    year: when.getUTCFullYear(),
  });
  const message = 'Initial commit\n';
  const oid = await writeInitialCommit({
    gitdir: a.gitdir,
    objectFormat: a.repo.objectFormatName === 'sha256' ? 'sha256' : 'sha1',
    branch: a.repo.defaultBranch,
    files,
    author: { name: gitName(a.viewer), email },
    when,
    message,
  });
  const commitTime = new Date(Math.floor(when.getTime() / 1000) * 1000);
  await tx.branch.create({
    data: {
      repoId: a.repo.id,
      name: a.repo.defaultBranch,
      commitId: oid,
      commitMessage: message.trim(),
      pusherId: a.viewer.id,
      commitTime,
    },
  });
  const license = licenseId(a.input.license ?? '');
  if (license) await tx.repoLicense.create({ data: { repoId: a.repo.id, commitId: oid, license } });
  await tx.repository.update({ where: { id: a.repo.id }, data: { isEmpty: false } });
}
