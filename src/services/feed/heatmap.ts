// The contribution heatmap (Gitea models/activities/user_heatmap.go getUserHeatmapData).
import { isSiteAdmin, requireTokenScope } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { getUserByName } from '../user/user.ts';
import { activityReadWhere } from './visibility.ts';

/** One bucket of the heatmap: its start (Unix seconds, a multiple of 15 minutes) and how many activities fall in it. */
export interface HeatmapBucket {
  timestamp: number;
  contributions: number;
}

/** Gitea groups by 15 minutes, so that clients can shift buckets to time zones such as UTC+5:30 or +12:45. */
const BUCKET_SECONDS = 900;
/** 366 days plus the first week the heatmap shows. */
const WINDOW_SECONDS = (366 + 7) * 86_400;

/**
 * GET /users/{username}/heatmap: the account's activity rows of the last year, counted per 15 minutes, oldest
 * first. A user's heatmap counts what the user did; an organization's what anyone did in its feed. Empty when
 * the account keeps its activity private from the viewer (Gitea ActivityReadable); rows on repositories the
 * viewer cannot read are not counted, rows whose subject was deleted are.
 * @throws NotFoundError (unknown or invisible account), PermissionDeniedError (token scope)
 */
export async function getUserHeatmap(cx: ServiceContext, username: string, now = new Date()): Promise<HeatmapBucket[]> {
  requireTokenScope(cx, 'user', 'read');
  const user = await getUserByName(cx, username);
  const readable = !user.keepActivityPrivate || (cx.viewer !== null && (isSiteAdmin(cx) || cx.viewer.id === user.id));
  if (!readable) return [];
  const since = new Date(now.getTime() - WINDOW_SECONDS * 1000);
  const where = activityReadWhere(cx, {
    kind: 'user',
    user,
    includePrivate: true,
    includeDeleted: true,
    onlyPerformedBy: user.type !== 'ORGANIZATION',
  });
  // One row per distinct instant, counted by the database; the 15-minute buckets are summed here.
  const groups = await cx.db.action.groupBy({
    by: ['createdAt'],
    where: { AND: [where, { createdAt: { gt: since } }] },
    _count: { _all: true },
  });
  const buckets = new Map<number, number>();
  for (const g of groups) {
    const ts = Math.floor(g.createdAt.getTime() / 1000 / BUCKET_SECONDS) * BUCKET_SECONDS;
    buckets.set(ts, (buckets.get(ts) ?? 0) + g._count._all);
  }
  return [...buckets].sort((a, b) => a[0] - b[0]).map(([timestamp, contributions]) => ({ timestamp, contributions }));
}
