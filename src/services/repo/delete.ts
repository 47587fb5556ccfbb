import type { Models } from '../../db/client.ts';
import { refreshLabelCounters } from '../../db/labelCounters.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { deleteRepository } from '../../git/deleteRepository.ts';
import { requireRepo, requireRepoWrite } from '../access/repoAccess.ts';
import { isSiteAdmin, requireViewer } from '../access/guards.ts';
import { withTx, type ServiceContext } from '../context.ts';
import { withRepoHeld } from './heldRepo.ts';
import { repoDirs } from './repoDirs.ts';
import { removeAvatarFile } from '../avatar/store.ts';
import { removeRepoArchives } from './download.ts';

/**
 * DELETE /repos/{owner}/{repo} (Gitea reqOwner + CanUserDelete): the owner, an owner of the owning
 * organization, or a site admin. Deletes the row (relations cascade) and fixes the counters in one
 * transaction, then removes the git directories (and the wiki's) after the commit.
 * @throws UnauthenticatedError, NotFoundError, PermissionDeniedError
 */
export async function deleteRepo(cx: ServiceContext, owner: string, name: string): Promise<void> {
  const viewer = requireViewer(cx);
  const access = await requireRepo(cx, owner, name);
  requireRepoWrite(cx, access, 'write:repository');
  const { repo, perm } = access;
  if (perm.mode !== 'OWNER') throw new PermissionDeniedError('user should be the owner of the repo');
  if (!isSiteAdmin(cx) && repo.ownerId !== viewer.id) {
    const standing = await cx.loaders.orgStanding.load(repo.ownerId);
    if (!standing.isOwner) throw new PermissionDeniedError('Given user is not owner of organization.');
  }
  await removeRepository(cx, repo, viewer.id);
}

/**
 * Deletes a repository without a permission check (callers decide: deleteRepo, the delete_missing_repos cron
 * task): the row (relations cascade) and the counters in one transaction, then, after the commit, the files kept
 * outside the database (Gitea DeleteRepository): the git directories (and the wiki's), the avatar and the archive
 * cache. Attachment files and the Actions task logs and artifacts are swept on the `repo.deleted` event.
 */
export async function removeRepository(cx: ServiceContext, repo: Models.Repository, actorId: number | null): Promise<void> {
  // Holding the repository (withRepoHeld): no push or merge is writing in the directories when they go.
  await withRepoHeld(cx, repo, (held) => removeHeld(cx, held, actorId));
}

async function removeHeld(cx: ServiceContext, repo: Models.Repository, actorId: number | null): Promise<void> {
  await withTx(cx, async (tx, emit) => {
    const teams = await tx.teamRepo.findMany({ where: { repoId: repo.id }, select: { teamId: true } });
    if (teams.length) await tx.team.updateMany({ where: { id: { in: teams.map((t) => t.teamId) } }, data: { numRepos: { decrement: 1 } } });
    if (repo.forkId)
      await tx.repository.updateMany({ where: { id: repo.forkId, numForks: { gt: 0 } }, data: { numForks: { decrement: 1 } } });
    // Its topics lose a repository (Gitea removeTopicsFromRepo).
    await tx.topic.updateMany({
      where: { repoTopics: { some: { repoId: repo.id } }, repoCount: { gt: 0 } },
      data: { repoCount: { decrement: 1 } },
    });
    // Gitea: the forks of a deleted repository become ordinary repositories (their git data is their own).
    await tx.repository.updateMany({ where: { forkId: repo.id }, data: { isFork: false, forkId: null } });
    // Gitea DeleteRepository: the users who starred it lose one star each (the star rows go with the repository).
    await tx.user.updateMany({
      where: { stars: { some: { repoId: repo.id } }, numStars: { gt: 0 } },
      data: { numStars: { decrement: 1 } },
    });
    // Its organization's labels lose the issues that go with it.
    const orgLabels = await tx.issueLabel.findMany({
      where: { issue: { repoId: repo.id }, label: { orgId: { not: null } } },
      select: { labelId: true },
      distinct: ['labelId'],
    });
    await tx.repository.delete({ where: { id: repo.id } });
    await refreshLabelCounters(
      tx,
      orgLabels.map((l) => l.labelId),
    );
    await tx.user.updateMany({ where: { id: repo.ownerId, numRepos: { gt: 0 } }, data: { numRepos: { decrement: 1 } } });
    emit({ type: 'repo.deleted', repoId: repo.id, ownerId: repo.ownerId, name: repo.name, actorId });
  });
  await Promise.all([
    ...repoDirs(cx.config.repositoriesDir, repo.ownerName, repo.name).map((dir) => deleteRepository(dir)),
    removeAvatarFile(cx.config.avatars, 'repo', repo.avatar),
    removeRepoArchives(cx, repo.id),
  ]);
}
