// The runs and jobs of an organization's or the signed-in user's repositories (Gitea api.go addActionsReaderRoutes:
// reqOrgMembership for an organization, the user for /user; shared.ListRuns / ListJobs with the owner's id), and
// only of the repositories whose Actions the viewer may read (Gitea's fix of the organization-level leak,
// TestAPIOrgActionsRunsAccessControl: site admins see all, a public-only token public repositories only).
import type { Models } from '../../db/client.ts';
import { PermissionDeniedError } from '../../errors.ts';
import { requireViewer } from '../access/guards.ts';
import { requireOrg, requireOrgMember } from '../access/orgAccess.ts';
import { requireNeed } from '../access/writeGate.ts';
import type { ServiceContext } from '../context.ts';
import type { ListOptions, Page } from '../paging.ts';
import { repoReadWhere } from '../repo/visibility.ts';
import { listJobs, listRuns, type JobFilter, type JobView, type RunFilter, type RunView } from './lists.ts';

/** An organization (by name) or the signed-in user: the owner whose runs and jobs are listed. */
export type OwnerRef = { org: string } | 'user';

/**
 * The rows of the owner's repositories whose Actions the viewer may read.
 * @throws NotFoundError (invisible organization), UnauthenticatedError, PermissionDeniedError (not a member,
 *   token scope, a public-only token on /user)
 */
async function ownerScope(cx: ServiceContext, ref: OwnerRef): Promise<{ ownerId: number; repo: Models.Prisma.RepositoryWhereInput }> {
  let ownerId: number;
  if (ref === 'user') {
    ownerId = requireViewer(cx).id;
    requireNeed(cx, 'read:user', null);
    if (cx.auth.scope?.publicOnly) throw new PermissionDeniedError('this endpoint is not available for public-only tokens');
  } else {
    const access = await requireOrg(cx, ref.org);
    requireViewer(cx);
    requireOrgMember(cx, access, 'read:organization');
    ownerId = access.org.id;
  }
  return { ownerId, repo: repoReadWhere(cx, ['ACTIONS']) };
}

/** GET /orgs/{org}/actions/runs, /user/actions/runs: newest first, Gitea's ListRuns filters. */
export async function listOwnerRuns(cx: ServiceContext, ref: OwnerRef, filter: RunFilter, page: ListOptions): Promise<Page<RunView>> {
  return listRuns(cx, await ownerScope(cx, ref), filter, page);
}

/** GET /orgs/{org}/actions/jobs, /user/actions/jobs: Gitea's ListJobs filters and order. */
export async function listOwnerJobs(cx: ServiceContext, ref: OwnerRef, filter: JobFilter, page: ListOptions): Promise<Page<JobView>> {
  return listJobs(cx, await ownerScope(cx, ref), filter, page);
}
