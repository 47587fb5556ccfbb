// A repository named by its global id in a mutation input (GitHub's `repositoryId`), turned into the owner and
// name the services take, through the repository read policy.
import type { RepoRef } from '../services/access/repoAccess.ts';
import { getRepoById } from '../services/repo/read.ts';
import type { GraphQLContext } from './context.ts';
import { requireDbIdOf, type GlobalId } from './ids.ts';

/** The owner and name of the repository `gid` names. @throws NotFoundError (not a Repository id, missing or unreadable) */
export async function repoRefOf(ctx: GraphQLContext, gid: GlobalId): Promise<RepoRef> {
  const { repo } = await getRepoById(ctx.cx, requireDbIdOf(gid, 'Repository', 'repository does not exist'));
  return { owner: repo.ownerName, repo: repo.name };
}
