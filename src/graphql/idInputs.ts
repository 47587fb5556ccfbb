// Accounts and repositories named by their global ids in mutation inputs (GitHub's `repositoryId`, `ownerId`),
// turned into the names the services take.
import type { RepoRef } from '../services/access/repoAccess.ts';
import { getRepoById } from '../services/repo/read.ts';
import type { GraphQLContext } from './context.ts';
import { NotFoundError } from '../errors.ts';
import { dbIdOf, requireDbIdOf, type GlobalId } from './ids.ts';

/** The owner and name of the repository `gid` names. @throws NotFoundError (not a Repository id, missing or unreadable) */
export async function repoRefOf(ctx: GraphQLContext, gid: GlobalId): Promise<RepoRef> {
  const { repo } = await getRepoById(ctx.cx, requireDbIdOf(gid, 'Repository', 'repository does not exist'));
  return { owner: repo.ownerName, repo: repo.name };
}

/**
 * The login of the account a User or Organization global id names (`typename` limits it to one of them); the
 * service it is passed to applies the account's read policy, so a hidden account is as absent as a missing one.
 * @throws NotFoundError
 */
export async function loginOfOwnerId(
  ctx: GraphQLContext,
  id: GlobalId,
  typenames: readonly string[] = ['User', 'Organization'],
): Promise<string> {
  const dbIdOfOwner = typenames.reduce((found, typename) => found || dbIdOf(id, typename), 0);
  const row = dbIdOfOwner ? await ctx.cx.db.user.findUnique({ where: { id: dbIdOfOwner }, select: { name: true } }) : null;
  if (!row) throw new NotFoundError('owner does not exist', { field: 'ownerId' });
  return row.name;
}
