// Repository transfer (Gitea services/repository/transfer.go): immediate when the doer may create repositories
// in the target, else a pending RepoTransfer the recipient accepts or rejects. A completed transfer moves the
// bare repository to the new owner's directory, leaves a redirect for the old owner/name and fixes teams,
// collaborators and counters in one transaction.
import type { DbLike, Models } from '../../db/client.ts';
import { refreshLabelCounters } from '../../db/labelCounters.ts';
import { ConflictError, NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import { requireRepo, requireRepoWrite, type RepoRef } from '../access/repoAccess.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { findUserByName } from '../user/user.ts';
import { withRepoHeld } from './heldRepo.ts';
import { moveRepoDirs, repoDirs } from './repoDirs.ts';
import { loadApiRepos, type RepoWithPermission } from './repoRows.ts';

/** Gitea TransferRepoOption: the new owner's login and, for an organization, teams to grant the repository. */
export interface TransferInput {
  newOwner: string;
  /** null/undefined = none given (an empty list is "given" and refused for a user, as Gitea's *[]int64). */
  teamIds?: number[] | null;
}

/** The outcome of POST …/transfer: `pending` until the recipient accepts (Gitea 201), else done (202). */
export interface TransferResult {
  pending: boolean;
  repo: RepoWithPermission;
}

const OWNER_MISSING = 'The new owner does not exist or cannot be found';
/** The repository as the transfer handlers answer it, with the viewer's permission as it now is. */
async function answer(cx: ServiceContext, repoId: number): Promise<RepoWithPermission> {
  cx.loaders.repoPermission.clear(repoId);
  const [[row], perm] = await Promise.all([loadApiRepos(cx, { where: { id: repoId } }), cx.loaders.repoPermission.load(repoId)]);
  if (!row) throw new NotFoundError('repository does not exist', { repoId });
  return { repo: row, perm };
}

/** Whether `userId` may create repositories in the organization (a team with can_create_org_repo). */
async function canCreateIn(tx: DbLike, orgId: number, userId: number): Promise<boolean> {
  return (await tx.team.count({ where: { orgId, canCreateOrgRepo: true, members: { some: { userId } } } })) > 0;
}

async function requireNameFree(db: DbLike, owner: Models.User, repo: Models.Repository): Promise<void> {
  if (await db.repository.findFirst({ where: { ownerId: owner.id, lowerName: repo.lowerName }, select: { id: true } })) {
    throw new ValidationError(`repository already exists [uname: ${owner.name}, name: ${repo.name}]`);
  }
}

/** Where a transfer takes a repository: the new owner, the teams of the request, and who is recorded as doing it. */
interface Handover {
  newOwner: Models.User;
  teamIds: readonly number[];
  actorId: number;
  /** The pending transfer an acceptance completes: it must still be pending once the repository is held. */
  transferId?: number;
}

const noPendingTransfer = (repoId: number) =>
  new NotFoundError(`repository doesn't have a pending transfer [repo_id: ${repoId}]`, { repoId });

/**
 * Moves the repository to its new owner (Gitea TransferOwnership), holding it (withRepoHeld): git directories first
 * (moved back if the transaction fails), then owner, redirects, collaborators, teams, org labels and counters in one
 * transaction.
 */
function transferOwnership(cx: ServiceContext, repo: Models.Repository, handover: Handover): Promise<void> {
  return withRepoHeld(cx, repo, (held) => moveOwnership(cx, held, handover));
}

async function moveOwnership(cx: ServiceContext, repo: Models.Repository, handover: Handover): Promise<void> {
  const { newOwner, teamIds, actorId, transferId } = handover;
  // Rejected while the acceptance waited for the repository: nothing moves.
  if (
    transferId !== undefined &&
    (repo.status !== 'PENDING_TRANSFER' || !(await cx.db.repoTransfer.findUnique({ where: { id: transferId } })))
  ) {
    throw noPendingTransfer(repo.id);
  }
  await requireNameFree(cx.db, newOwner, repo);
  const oldOwner = await cx.db.user.findUniqueOrThrow({ where: { id: repo.ownerId } });
  const dir = cx.config.repositoriesDir;
  const undoMove = await moveRepoDirs(repoDirs(dir, oldOwner.name, repo.name), repoDirs(dir, newOwner.name, repo.name));
  try {
    await withTx(cx, async (tx, emit) => {
      await tx.repository.update({ where: { id: repo.id }, data: { ownerId: newOwner.id, ownerName: newOwner.name, status: 'READY' } });
      const ended = await tx.repoTransfer.deleteMany({
        where: { repoId: repo.id, ...(transferId !== undefined ? { id: transferId } : {}) },
      });
      // A rejection (which does not wait for the repository), or a rejection and a new transfer, committed since the
      // check above: the move is undone.
      if (transferId !== undefined && ended.count === 0) throw noPendingTransfer(repo.id);
      // Redirects: the old owner/name leads here; the new name no longer redirects elsewhere.
      await tx.repoRedirect.deleteMany({ where: { ownerId: newOwner.id, lowerName: repo.lowerName } });
      await tx.repoRedirect.upsert({
        where: { ownerId_lowerName: { ownerId: oldOwner.id, lowerName: repo.lowerName } },
        create: { ownerId: oldOwner.id, lowerName: repo.lowerName, redirectRepoId: repo.id },
        update: { redirectRepoId: repo.id },
      });
      // Redundant collaborators: the new owner, and members of the new owning organization.
      const members =
        newOwner.type === 'ORGANIZATION'
          ? (await tx.orgUser.findMany({ where: { orgId: newOwner.id }, select: { userId: true } })).map((m) => m.userId)
          : [];
      await tx.collaboration.deleteMany({ where: { repoId: repo.id, userId: { in: [newOwner.id, ...members] } } });
      // The old organization's teams and labels no longer apply.
      const oldTeams = await tx.teamRepo.findMany({ where: { repoId: repo.id }, select: { teamId: true } });
      if (oldTeams.length) {
        await tx.team.updateMany({ where: { id: { in: oldTeams.map((t) => t.teamId) } }, data: { numRepos: { decrement: 1 } } });
        await tx.teamRepo.deleteMany({ where: { repoId: repo.id } });
      }
      if (oldOwner.type === 'ORGANIZATION') {
        const links = { issue: { repoId: repo.id }, label: { orgId: oldOwner.id } };
        const used = await tx.issueLabel.findMany({ where: links, select: { labelId: true }, distinct: ['labelId'] });
        await tx.issueLabel.deleteMany({ where: links });
        await refreshLabelCounters(
          tx,
          used.map((l) => l.labelId),
        );
      }
      if (newOwner.type === 'ORGANIZATION') {
        const teams = await tx.team.findMany({
          where: { orgId: newOwner.id, OR: [{ includesAllRepositories: true }, { id: { in: [...teamIds] } }] },
          select: { id: true },
        });
        if (teams.length) {
          await tx.teamRepo.createMany({ data: teams.map((t) => ({ orgId: newOwner.id, teamId: t.id, repoId: repo.id })) });
          await tx.team.updateMany({ where: { id: { in: teams.map((t) => t.id) } }, data: { numRepos: { increment: 1 } } });
        }
      }
      await tx.user.updateMany({ where: { id: oldOwner.id, numRepos: { gt: 0 } }, data: { numRepos: { decrement: 1 } } });
      await tx.user.update({ where: { id: newOwner.id }, data: { numRepos: { increment: 1 } } });
      emit({
        type: 'repo.transferred',
        repoId: repo.id,
        oldOwnerId: oldOwner.id,
        oldOwnerName: oldOwner.name,
        newOwnerId: newOwner.id,
        actorId,
      });
    });
  } catch (err) {
    await undoMove();
    throw err;
  }
}

/** The team ids of the request, checked against the new owner (Gitea's 422 and 403 answers). */
async function checkTeams(cx: ServiceContext, newOwner: Models.User, teamIds: number[] | null | undefined): Promise<number[]> {
  if (teamIds === null || teamIds === undefined) return [];
  if (newOwner.type !== 'ORGANIZATION') throw new ValidationError('Teams can only be added to organization-owned repositories');
  const teams = await cx.db.team.findMany({
    where: { id: { in: teamIds.filter((id) => Number.isSafeInteger(id)) } },
    select: { id: true, orgId: true },
  });
  for (const id of teamIds) {
    const team = teams.find((t) => t.id === id);
    if (!team) throw new ValidationError(`team ${id} not found`);
    if (team.orgId !== newOwner.id) throw new PermissionDeniedError(`team ${id} belongs not to org ${newOwner.id}`);
  }
  return teamIds;
}

/**
 * POST /repos/{o}/{r}/transfer (Gitea reqOwner + Transfer): the repository's owner (an owner of its organization,
 * a site admin) hands it to `newOwner`. Site admins, a transfer to oneself, and a doer who may create repositories
 * in the target organization transfer at once; otherwise the transfer waits for the recipient (who gets read
 * access to a private repository meanwhile).
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError, ValidationError, ConflictError
 */
export async function startTransfer(cx: ServiceContext, ref: RepoRef, input: TransferInput): Promise<TransferResult> {
  const viewer = requireViewer(cx);
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireRepoWrite(cx, access, 'write:repository');
  const { repo } = access;
  if (access.perm.mode !== 'OWNER') throw new PermissionDeniedError('user should be the owner of the repo');
  const newOwner = await findUserByName(cx.db, input.newOwner);
  if (!newOwner) throw new NotFoundError(OWNER_MISSING, { name: input.newOwner });
  if (newOwner.type === 'ORGANIZATION' && newOwner.visibility === 'PRIVATE' && !viewer.isAdmin) {
    if (!(await cx.loaders.orgStanding.load(newOwner.id)).isMember) throw new NotFoundError(OWNER_MISSING, { name: input.newOwner });
  }
  const teamIds = await checkTeams(cx, newOwner, input.teamIds);
  if (await cx.db.block.findFirst({ where: { blockerId: newOwner.id, blockeeId: viewer.id }, select: { id: true } })) {
    throw new PermissionDeniedError('user is blocked');
  }
  if (repo.status === 'PENDING_TRANSFER') throw new ConflictError('repository is already being transferred [uname: , name: ]');
  if (!viewer.isAdmin && newOwner.maxRepoCreation >= 0 && newOwner.numRepos >= newOwner.maxRepoCreation) {
    throw new PermissionDeniedError(`user has reached maximum limit of repositories [limit: ${newOwner.maxRepoCreation}]`);
  }
  const immediate =
    isSiteAdmin(cx) ||
    viewer.id === newOwner.id ||
    (newOwner.type === 'ORGANIZATION' && (await canCreateIn(cx.db, newOwner.id, viewer.id)));
  if (immediate) {
    await transferOwnership(cx, repo, { newOwner, teamIds, actorId: viewer.id });
    return { pending: false, repo: await answer(cx, repo.id) };
  }
  await requireNameFree(cx.db, newOwner, repo);
  await withTx(cx, async (tx, emit) => {
    if (newOwner.type === 'INDIVIDUAL' && repo.isPrivate) {
      const has = await tx.collaboration.findFirst({ where: { repoId: repo.id, userId: newOwner.id }, select: { id: true } });
      const viaTeam = await tx.teamRepo.count({ where: { repoId: repo.id, team: { members: { some: { userId: newOwner.id } } } } });
      if (!has && !viaTeam) await tx.collaboration.create({ data: { repoId: repo.id, userId: newOwner.id, mode: 'READ' } });
    }
    await tx.repository.update({ where: { id: repo.id }, data: { status: 'PENDING_TRANSFER' } });
    await tx.repoTransfer.create({
      data: { doerId: viewer.id, recipientId: newOwner.id, repoId: repo.id, teamIds: JSON.stringify(teamIds) },
    });
    emit({ type: 'repo.transferStarted', repoId: repo.id, recipientId: newOwner.id, actorId: viewer.id });
  });
  return { pending: true, repo: await answer(cx, repo.id) };
}

/** The pending transfer of a repository the viewer can see, if the viewer may decide it (Gitea CanUserAcceptOrRejectTransfer). */
async function decidableTransfer(cx: ServiceContext, ref: RepoRef) {
  const viewer = requireViewer(cx);
  const access = await requireRepo(cx, ref.owner, ref.repo);
  requireRepoWrite(cx, access, 'write:repository');
  const transfer = await cx.db.repoTransfer.findUnique({ where: { repoId: access.repo.id }, include: { recipient: true } });
  if (!transfer || access.repo.status !== 'PENDING_TRANSFER') throw noPendingTransfer(access.repo.id);
  let allowed = isSiteAdmin(cx) || viewer.id === transfer.recipientId;
  if (!allowed && transfer.recipient.type === 'ORGANIZATION') allowed = (await cx.loaders.orgStanding.load(transfer.recipientId)).isOwner;
  if (!allowed) throw new PermissionDeniedError('permission denied');
  return { access, transfer };
}

/**
 * POST /repos/{o}/{r}/transfer/accept: the recipient (an owner of the recipient organization, a site admin)
 * completes a pending transfer, as its initiator. @throws NotFoundError, PermissionDeniedError, ValidationError
 */
export async function acceptTransfer(cx: ServiceContext, ref: RepoRef): Promise<RepoWithPermission> {
  const { access, transfer } = await decidableTransfer(cx, ref);
  const teamIds = (JSON.parse(transfer.teamIds) as unknown[]).filter((id): id is number => typeof id === 'number');
  await transferOwnership(cx, access.repo, { newOwner: transfer.recipient, teamIds, actorId: transfer.doerId, transferId: transfer.id });
  return answer(cx, access.repo.id);
}

/**
 * POST /repos/{o}/{r}/transfer/reject: the recipient declines a pending transfer; the repository stays.
 * @throws NotFoundError, PermissionDeniedError
 */
export async function rejectTransfer(cx: ServiceContext, ref: RepoRef): Promise<RepoWithPermission> {
  const { access, transfer } = await decidableTransfer(cx, ref);
  await withTx(cx, async (tx, emit) => {
    await tx.repoTransfer.deleteMany({ where: { id: transfer.id } });
    await tx.repository.update({ where: { id: access.repo.id }, data: { status: 'READY' } });
    emit({ type: 'repo.transferRejected', repoId: access.repo.id, recipientId: transfer.recipientId, actorId: cx.viewer?.id ?? null });
  });
  return answer(cx, access.repo.id);
}
