import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { visibleRepoFilter } from '../repo/visibility.ts';

/**
 * Issues the viewer may see through any path (GraphQL node(id:), relation connections): those of visible
 * repositories whose issues unit (pull requests unit for pull requests) is enabled.
 */
export function visibleIssueFilter(cx: ServiceContext): Models.Prisma.IssueWhereInput {
  return {
    repo: visibleRepoFilter(cx),
    OR: [
      { isPull: false, repo: { units: { some: { type: 'ISSUES' } } } },
      { isPull: true, repo: { units: { some: { type: 'PULL_REQUESTS' } } } },
    ],
  };
}
