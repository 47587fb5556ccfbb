import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { orgReadWhere } from '../org/visibility.ts';
import { repoReadWhere } from '../repo/visibility.ts';

/**
 * The read policy of labels: organization labels of organizations the viewer can see (GET /orgs/{org}/labels),
 * repository labels of repositories whose issues or pull requests the viewer can read (GET …/labels).
 */
export function labelReadWhere(cx: ServiceContext): Models.Prisma.LabelWhereInput {
  return {
    OR: [
      { orgId: { not: null }, org: orgReadWhere(cx) },
      { repoId: { not: null }, repo: repoReadWhere(cx, ['ISSUES', 'PULL_REQUESTS']) },
    ],
  };
}
