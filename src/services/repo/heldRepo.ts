import type { Models } from '../../db/client.ts';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { ServiceContext } from '../context.ts';

/**
 * Runs `fn` holding the whole of repository `repo` (RepoLocks.run: every push, merge, ref move, mirror sync and wiki
 * write of it has finished, and none starts until `fn` is done), with its row as it is once the lock is held. The
 * moves and removals of a repository's git directories (rename, transfer, deletion) run here (Gitea takes the
 * repository's working lock for them): a writer never has its directory moved or removed under it, and a change
 * planned from a row that another rename or transfer changed while this one waited is refused instead of moving a
 * directory that is no longer there.
 * @throws NotFoundError when the repository was deleted meanwhile, ConflictError when its owner or name changed
 */
export function withRepoHeld<T>(
  cx: ServiceContext,
  repo: Pick<Models.Repository, 'id' | 'ownerId' | 'ownerName' | 'name'>,
  fn: (held: Models.Repository) => Promise<T>,
): Promise<T> {
  return withRepoRow(cx, repo.id, async (held) => {
    if (!held) throw new NotFoundError(`repository does not exist [id: ${repo.id}]`, { id: repo.id });
    if (held.ownerId !== repo.ownerId || held.ownerName !== repo.ownerName || held.name !== repo.name) {
      throw new ConflictError(
        `repository ${repo.ownerName}/${repo.name} was renamed or transferred to ${held.ownerName}/${held.name} meanwhile; nothing was changed, retry`,
      );
    }
    return fn(held);
  });
}

/**
 * Runs `fn` holding the whole of repository `id` (RepoLocks.run), with its row read once the lock is held: null when
 * it was deleted while this waited.
 */
export function withRepoRow<T>(cx: ServiceContext, id: number, fn: (row: Models.Repository | null) => Promise<T>): Promise<T> {
  return cx.repoLocks.run(id, async () => fn(await cx.db.repository.findUnique({ where: { id } })));
}
