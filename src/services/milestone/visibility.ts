import type { Models } from '../../db/client.ts';
import type { ServiceContext } from '../context.ts';
import { repoReadWhere } from '../repo/visibility.ts';

/**
 * The read policy of milestones (Gitea mustEnableIssuesOrPulls): those of repositories whose issues or pull
 * requests the viewer can read.
 */
export function milestoneReadWhere(cx: ServiceContext): Models.Prisma.MilestoneWhereInput {
  return { repo: repoReadWhere(cx, ['ISSUES', 'PULL_REQUESTS']) };
}
