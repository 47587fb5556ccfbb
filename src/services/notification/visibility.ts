// The read policy of notification threads.
import type { Models } from '../../db/client.ts';
import { NO_ROWS } from '../../db/filters.ts';
import type { ServiceContext } from '../context.ts';
import { issueReadWhere } from '../issue/visibility.ts';
import { repoReadWhere } from '../repo/visibility.ts';

/**
 * The read policy of notification threads: the viewer's own threads whose subject the viewer can still read
 * (notificationSubjectWhere), so a thread disappears from lists and counts when its reader loses access.
 * Nobody else's threads; anonymous viewers and public-only tokens none (Gitea refuses them notifications).
 */
export function notificationReadWhere(cx: ServiceContext): Models.Prisma.NotificationWhereInput {
  if (!cx.viewer || cx.auth.scope?.publicOnly) return NO_ROWS;
  return { userId: cx.viewer.id, ...notificationSubjectWhere(cx) };
}

/**
 * Threads whose subject the viewer can read: the issue read policy for issue and pull request threads, the
 * repository read policy for commit and repository threads (site admins reading another user's thread).
 */
export function notificationSubjectWhere(cx: ServiceContext): Models.Prisma.NotificationWhereInput {
  return {
    OR: [
      { issueId: { not: null }, issue: issueReadWhere(cx) },
      { issueId: null, repo: repoReadWhere(cx) },
    ],
  };
}
