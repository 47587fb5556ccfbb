import { withoutWipPrefix, withWipPrefix } from '../issue/wip.ts';
import type { RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { editPullRequest } from './edit.ts';
import { findPullByIndex, resolvePullRepo } from './pull.ts';
import type { PullView } from './types.ts';

/**
 * Marks a pull request as a draft (Gitea's work-in-progress: the title gets `WIP: `) or ready for review (the
 * prefix removed), as a title edit through editPullRequest: the same gate (poster or writer), CHANGE_TITLE
 * comment and events (leaving work in progress is `pull.readyForReview`: feed row and notifications). Already in
 * the asked state, nothing changes (the gate still applies).
 * @throws NotFoundError, PermissionDeniedError, UnauthenticatedError, RepoArchivedError, ValidationError
 */
export async function setPullDraft(cx: ServiceContext, ref: RepoRef, index: number, draft: boolean): Promise<PullView> {
  const access = await resolvePullRepo(cx, ref, 'read');
  const { issue } = await findPullByIndex(cx, access, index);
  const title = draft ? withWipPrefix(issue.title) : withoutWipPrefix(issue.title);
  return editPullRequest(cx, ref, index, title === issue.title ? {} : { title });
}
