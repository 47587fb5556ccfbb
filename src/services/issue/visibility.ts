import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';

/**
 * The read policy of issues and pull requests (REST resolveIssueRepo + findIssueByIndex): an issue is readable
 * when the viewer can read its repository's issues unit, a pull request when they can read its pull requests
 * unit — the viewer's mode on the unit, not merely that the unit is enabled.
 */
export function issueReadWhere(cx: ServiceContext): Models.Prisma.IssueWhereInput {
  return {
    OR: [
      { isPull: false, repo: repoReadWhere(cx, ['ISSUES']) },
      { isPull: true, repo: repoReadWhere(cx, ['PULL_REQUESTS']) },
    ],
  };
}

/** The read policy of comments, timeline events and other rows of an issue: those of readable issues. */
export function commentReadWhere(cx: ServiceContext): Models.Prisma.CommentWhereInput {
  return { issue: issueReadWhere(cx) };
}
