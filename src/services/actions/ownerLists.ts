// The runs and jobs of an organization's or the signed-in user's repositories (Gitea routers/api/v1/org/action.go
// and user/action.go: shared.ListRuns / ListJobs with ownerID): organization owners, or the user, may list them.
import type { ServiceContext } from '../context.ts';
import type { ListOptions, Page } from '../paging.ts';
import { listJobs, listRuns, type JobFilter, type JobView, type RunFilter, type RunView } from './lists.ts';
import { requireSettingsScope, type SettingsRef } from './settingsScope.ts';

/** An organization (by name) or the signed-in user: the owner whose runs and jobs are listed. */
export type OwnerRef = Exclude<SettingsRef, { repo: unknown }>;

/** The owner's id, when the viewer may read its Actions (organization owner, or the user). */
async function ownerIdOf(cx: ServiceContext, ref: OwnerRef): Promise<number> {
  const scope = await requireSettingsScope(cx, ref, 'read');
  return scope.ownerId ?? 0;
}

/** GET /orgs/{org}/actions/runs, /user/actions/runs: newest first, Gitea's ListRuns filters. */
export async function listOwnerRuns(cx: ServiceContext, ref: OwnerRef, filter: RunFilter, page: ListOptions): Promise<Page<RunView>> {
  return listRuns(cx, { ownerId: await ownerIdOf(cx, ref) }, filter, page);
}

/** GET /orgs/{org}/actions/jobs, /user/actions/jobs: Gitea's ListJobs filters and order. */
export async function listOwnerJobs(cx: ServiceContext, ref: OwnerRef, filter: JobFilter, page: ListOptions): Promise<Page<JobView>> {
  return listJobs(cx, { ownerId: await ownerIdOf(cx, ref) }, filter, page);
}
