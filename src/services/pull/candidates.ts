// Who can be assigned to a repository's issues, and who can be asked to review its pull requests (Gitea
// GetRepoAssignees, CanBeAssigned, GetReviewers): the candidates come from the repository's explicit grants
// (collaborators, the organization's teams that have the repository, the owning user); the access model decides.
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError } from '../../errors.ts';
import { usersRepoPermissions } from '../../loaders/usersRepoPermission.ts';
import { atLeast } from '../../permissions/accessMode.ts';
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from '../../permissions/repoPermission.ts';
import { hasEveryUnit } from '../../permissions/teamUnits.ts';
import { ALL_UNITS } from '../../permissions/units.ts';
import { requireViewer } from '../access/guards.ts';
import { requireAnyRepoReader, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { canBeAssigned } from '../issue/create.ts';
import { canChangeReviewRequests } from './reviewRequest.ts';
import { findUserByName } from '../user/user.ts';

type User = Models.User;

/** A member of a team that has the repository, with whether that team reads its pull requests. */
interface TeamGrantee {
  userId: number;
  readsPulls: boolean;
}

/** Collaborators (any mode) and members of the owning organization's teams that have the repository: two queries. */
async function explicitGrantees(cx: ServiceContext, repo: Models.Repository): Promise<{ collaborators: number[]; team: TeamGrantee[] }> {
  const [collaborations, teamUsers] = await Promise.all([
    cx.db.collaboration.findMany({ where: { repoId: repo.id }, select: { userId: true } }),
    cx.db.teamUser.findMany({
      where: { orgId: repo.ownerId, team: { repos: { some: { repoId: repo.id } } } },
      select: {
        userId: true,
        team: { select: { authorize: true, units: { where: { type: 'PULL_REQUESTS' }, select: { accessMode: true } } } },
      },
    }),
  ]);
  return {
    collaborators: collaborations.map((c) => c.userId),
    team: teamUsers.map((tu) => ({
      userId: tu.userId,
      readsPulls: hasEveryUnit(tu.team.authorize) || tu.team.units.some((u) => atLeast(u.accessMode, 'READ')),
    })),
  };
}

/**
 * Active users (never organizations) among `ids`, by name, with the owning user (when individual and not among them)
 * appended last, as Gitea lists them; `keep` decides with each user's permission from the access model.
 */
async function candidates(
  cx: ServiceContext,
  repo: Models.Repository,
  ids: ReadonlySet<number>,
  keep: (user: User, perm: RepoPermission) => boolean,
): Promise<User[]> {
  const [users, perms, owner] = await Promise.all([
    ids.size
      ? cx.db.user.findMany({
          where: { id: { in: [...ids] }, isActive: true, type: { not: 'ORGANIZATION' } },
          orderBy: [{ lowerName: 'asc' }, { id: 'asc' }],
        })
      : [],
    usersRepoPermissions(cx.db, repo.id, [...ids]),
    cx.loaders.userById.load(repo.ownerId),
  ]);
  const out = users.filter((u) => {
    const perm = perms.get(u.id);
    return perm !== undefined && keep(u, perm);
  });
  if (owner && owner.type !== 'ORGANIZATION' && !ids.has(owner.id)) out.push(owner);
  return out;
}

/** Write on some unit (admins included); blocked users write nothing. */
function writesSomeUnit(perm: RepoPermission): boolean {
  return (isRepoAdmin(perm) && !perm.blocked) || ALL_UNITS.some((u) => canWrite(perm, u));
}

/**
 * Users who can be assigned to the repository's issues (GET /repos/{o}/{r}/assignees, Gitea GetRepoAssignees):
 * collaborators and team members with write on some unit, members of teams that read pull requests, and the
 * owning user (listed last); active accounts only, by name. Readers of the repository only.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listRepoAssignees(cx: ServiceContext, ref: RepoRef): Promise<User[]> {
  const { repo } = await requireAnyRepoReader(cx, ref);
  const grants = await explicitGrantees(cx, repo);
  const pullTeams = new Set(grants.team.filter((g) => g.readsPulls).map((g) => g.userId));
  const ids = new Set([...grants.collaborators, ...grants.team.map((g) => g.userId)]);
  return candidates(cx, repo, ids, (u, perm) => writesSomeUnit(perm) || (pullTeams.has(u.id) && canRead(perm, 'PULL_REQUESTS')));
}

/**
 * The assignees of a repository the viewer reads, whose login or full name contains `query` (GraphQL
 * Repository.assignableUsers): the list of GET …/assignees, which only signed-in viewers may have (none for others).
 * @throws NotFoundError, PermissionDeniedError
 */
export async function findAssignableUsers(cx: ServiceContext, repo: Models.Repository, query = ''): Promise<User[]> {
  if (!cx.viewer) return [];
  const q = query.toLowerCase();
  return (await listRepoAssignees(cx, { owner: repo.ownerName, repo: repo.name })).filter(
    (u) => u.lowerName.includes(q) || u.fullName.toLowerCase().includes(q),
  );
}

/**
 * Whether a user can be assigned to the repository's issues (GET /repos/{o}/{r}/assignees/{assignee}, Gitea
 * CanBeAssigned, the rule issue assignment applies): resolves when assignable. 404 for an unknown user or one
 * who cannot be assigned; 400 for an organization.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, InvalidArgumentError
 */
export async function checkRepoAssignee(cx: ServiceContext, ref: RepoRef, name: string): Promise<void> {
  const { repo } = await requireAnyRepoReader(cx, ref);
  const user = await findUserByName(cx.db, name);
  if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`, { name });
  if (user.type === 'ORGANIZATION') {
    throw new InvalidArgumentError(`organization can't be added as assignee [user_id: ${user.id}, repo_id: ${repo.id}]`, {
      userId: user.id,
    });
  }
  if (!(await canBeAssigned(cx, repo.id, user))) throw new NotFoundError('not found', { userId: user.id });
}

/**
 * Users who can be asked to review the repository's pull requests (GET /repos/{o}/{r}/reviewers, Gitea
 * GetReviewers): collaborators, members of teams that read pull requests, and the owning user (listed last), who
 * can read pull requests (the rule a review request checks); active accounts only, by name. Only those who may
 * change review requests may ask (403 otherwise, as Gitea).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function listRepoReviewers(cx: ServiceContext, ref: RepoRef): Promise<User[]> {
  const { repo } = await requireAnyRepoReader(cx, ref);
  if (!(await canChangeReviewRequests(cx, requireViewer(cx), repo, null))) {
    throw new PermissionDeniedError('doer has no permission to get reviewers');
  }
  const grants = await explicitGrantees(cx, repo);
  const ids = new Set([...grants.collaborators, ...grants.team.filter((g) => g.readsPulls).map((g) => g.userId)]);
  return candidates(cx, repo, ids, (_u, perm) => canRead(perm, 'PULL_REQUESTS'));
}
