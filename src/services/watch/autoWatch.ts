// Gitea's AUTO_WATCH_NEW_REPOS (default true): team members watch the repositories their teams are given.
import type { DbTx } from '../../db/client.ts';
import type { DomainEvent } from '../../notify/events.ts';
import type { TxSubscriber } from '../../notify/notifier.ts';
import { insertRows } from '../../db/insertRows.ts';

/** Makes each user watch each repository (mode AUTO: an explicit watch or ignore is kept), counters included. */
async function autoWatch(tx: DbTx, userIds: readonly number[], repoIds: readonly number[]): Promise<void> {
  const users = [...new Set(userIds)];
  const repos = [...new Set(repoIds)];
  if (!users.length || !repos.length) return;
  const existing = await tx.watch.findMany({
    where: { userId: { in: users }, repoId: { in: repos } },
    select: { userId: true, repoId: true },
  });
  const have = new Set(existing.map((w) => `${w.userId}:${w.repoId}`));
  const fresh = users.flatMap((userId) => repos.filter((repoId) => !have.has(`${userId}:${repoId}`)).map((repoId) => ({ userId, repoId })));
  if (!fresh.length) return;
  await insertRows(
    tx,
    'Watch',
    fresh.map((w) => ({ ...w, mode: 'AUTO' as const })),
  );
  const perRepo = new Map<number, number>();
  for (const w of fresh) perRepo.set(w.repoId, (perRepo.get(w.repoId) ?? 0) + 1);
  for (const [repoId, n] of perRepo) await tx.repository.update({ where: { id: repoId }, data: { numWatches: { increment: n } } });
}

async function onEvent(tx: DbTx, event: DomainEvent): Promise<void> {
  switch (event.type) {
    // A new organization repository was linked to the teams that include every repository (linkOrgTeams).
    case 'repo.created':
    case 'repo.forked': {
      const members = await tx.teamUser.findMany({
        where: { team: { repos: { some: { repoId: event.repoId } } } },
        select: { userId: true },
      });
      return autoWatch(
        tx,
        members.map((m) => m.userId),
        [event.repoId],
      );
    }
    case 'team.repoAdded': {
      const members = await tx.teamUser.findMany({ where: { teamId: event.teamId }, select: { userId: true } });
      return autoWatch(
        tx,
        members.map((m) => m.userId),
        [event.repoId],
      );
    }
    case 'team.memberAdded': {
      const repos = await tx.teamRepo.findMany({ where: { teamId: event.teamId }, select: { repoId: true } });
      return autoWatch(
        tx,
        [event.userId],
        repos.map((r) => r.repoId),
      );
    }
    default:
      return undefined;
  }
}

/**
 * The in-transaction subscriber of Gitea's auto-watch (services/org/team.go, repo_service.CreateRepositoryByExample):
 * the members of a team watch a repository added to it (and new organization repositories their
 * include-everything teams get), and a new member watches the team's repositories. The creator's own watch is
 * written by repository creation itself.
 */
export function autoWatchSubscriber(): TxSubscriber {
  return { name: 'autoWatch', handle: onEvent };
}
