import { requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgOwner, requireOrgWrite } from '../access/orgAccess.ts';
import type { ServiceContext } from '../context.ts';
import { removeRepository } from '../repo/delete.ts';

/**
 * Deletes every repository of an organization (DELETE /orgs/{org}/repos): its owners (and site admins) only,
 * with the token's organization and repository write scopes; each goes the way a single repository delete goes
 * (removeRepository: rows, counters, forks detached, git directory, events). Returns how many were deleted.
 * @throws NotFoundError, UnauthenticatedError, PermissionDeniedError
 */
export async function deleteOrgRepos(cx: ServiceContext, orgName: string): Promise<number> {
  const access = await requireOrg(cx, orgName);
  const viewer = requireViewer(cx);
  requireOrgWrite(cx, access, ['write:organization', 'write:repository']);
  requireOrgOwner(cx, access, 'write:organization');
  const repos = await cx.db.repository.findMany({ where: { ownerId: access.org.id }, orderBy: { id: 'asc' } });
  for (const repo of repos) await removeRepository(cx, repo, viewer.id);
  return repos.length;
}
