import type { Models } from '../../db/client.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { issueReadWhere } from '../issue/visibility.ts';
import { teamReadWhere } from '../org/visibility.ts';

/** The read policy of pull requests: those whose issue row is readable (the pull requests unit of the base repository). */
export function pullReadWhere(cx: ServiceContext): Models.Prisma.PullRequestWhereInput {
  return { issue: issueReadWhere(cx) };
}

/**
 * The read policy of reviews (not requests): submitted reviews of readable pull requests, and pending ones only
 * to their reviewer and site admins (Gitea prepareSingleReview).
 */
export function reviewReadWhere(cx: ServiceContext): Models.Prisma.ReviewWhereInput {
  const pending: Models.Prisma.ReviewWhereInput[] = isSiteAdmin(cx)
    ? [{ type: 'PENDING' }]
    : cx.viewer
      ? [{ type: 'PENDING', reviewerId: cx.viewer.id }]
      : [];
  return { issue: issueReadWhere(cx), OR: [{ type: { in: ['APPROVE', 'REJECT', 'COMMENT'] } }, ...pending] };
}

/**
 * The read policy of review requests: requests on readable pull requests, of users, or of teams the viewer may
 * read (teamReadWhere) — a private team is never revealed by the pull requests it was asked to review.
 */
export function reviewRequestReadWhere(cx: ServiceContext): Models.Prisma.ReviewWhereInput {
  return { type: 'REQUEST', issue: issueReadWhere(cx), OR: [{ reviewerTeamId: null }, { reviewerTeam: teamReadWhere(cx) }] };
}
