// The graph's view of an issue's tracked time (Issue.trackedTimes, totalTrackedTime), batched per request.
import DataLoader from 'dataloader';
import type { Models } from '../../db/client.ts';
import { canWrite } from '../../permissions/repoPermission.ts';
import { isSiteAdmin } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { timeTrackersOf, type TrackedTimeWithUser } from './trackedTime.ts';
import { groupBy } from '../../groupBy.ts';

/** An issue's tracked time as the graph shows it; null when the repository's time tracker is disabled. */
export interface IssueTimeSummary {
  /** Seconds of every user's (non-deleted) time: Gitea shows the total to everyone who reads the issue. */
  total: number;
  /** The entries the viewer may list (the REST rule: writers and site admins all, others their own). */
  entries: TrackedTimeWithUser[];
}

/**
 * Tracked times of many (already visible) issues for the graph, in a constant number of queries: the tracker
 * settings, the viewer's permissions (batched loader) and the time rows.
 */
async function loadIssueTimeSummaries(
  cx: ServiceContext,
  issues: readonly Pick<Models.Issue, 'id' | 'repoId'>[],
): Promise<Map<number, IssueTimeSummary | null>> {
  const repoIds = [...new Set(issues.map((i) => i.repoId))];
  const issueIds = issues.map((i) => i.id);
  const [trackers, perms, rows] = await Promise.all([
    timeTrackersOf(cx.db, repoIds),
    Promise.all(repoIds.map((id) => cx.loaders.repoPermission.load(id))),
    issueIds.length
      ? cx.db.trackedTime.findMany({
          where: { issueId: { in: issueIds }, deleted: false },
          include: { user: true },
          orderBy: { id: 'asc' },
        })
      : [],
  ]);
  const permByRepo = new Map(repoIds.map((id, i) => [id, perms[i]]));
  const rowsByIssue = groupBy(rows, (r) => r.issueId);
  const viewerId = cx.viewer?.id ?? null;
  return new Map(
    issues.map((issue) => {
      if (!trackers.get(issue.repoId)?.enabled) return [issue.id, null];
      const perm = permByRepo.get(issue.repoId);
      const seesAll = isSiteAdmin(cx) || (perm !== undefined && canWrite(perm, 'ISSUES'));
      const mine = rowsByIssue.get(issue.id) ?? [];
      const total = mine.reduce((sum, r) => sum + r.time, 0);
      return [issue.id, { total, entries: seesAll ? mine : mine.filter((r) => viewerId !== null && r.userId === viewerId) }];
    }),
  );
}

/** A per-request loader of IssueTimeSummary by issue (the graph's Issue.trackedTimes and totalTrackedTime). */
export function issueTimeSummaryLoader(
  cx: ServiceContext,
): DataLoader<Pick<Models.Issue, 'id' | 'repoId'>, IssueTimeSummary | null, number> {
  return new DataLoader(
    async (issues) => {
      const byId = await loadIssueTimeSummaries(cx, issues);
      return issues.map((i) => byId.get(i.id) ?? null);
    },
    { cacheKeyFn: (i) => i.id },
  );
}
