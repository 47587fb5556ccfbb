// Pinned pull requests of a repository (GET /repos/{o}/{r}/pulls/pinned).
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { pinnedIssues } from '../issue/pin.ts';
import { loadPullViews, resolvePullRepo } from './pull.ts';
import type { PullView } from './types.ts';

/** The repository's pinned pull requests in pin order. @throws NotFoundError, PermissionDeniedError */
export async function listPinnedPulls(cx: ServiceContext, ref: RepoRef): Promise<PullView[]> {
  const access = await resolvePullRepo(cx, ref, 'read');
  return loadPullViews(cx, await pinnedIssues(cx.db, access.repo.id, true));
}
