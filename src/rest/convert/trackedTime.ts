import type { Models } from '../../db/client.ts';
import { secToHours, stopwatchSeconds, type StopwatchView } from '../../services/issue/stopwatch.ts';
import type { TrackedTimeView } from '../../services/issue/trackedTime.ts';
import type { StopWatch, TrackedTime } from '../structs/trackedTime.ts';
import { toApiIssue } from './issue.ts';
import { apiTime } from './time.ts';
import type { ConvertOptions } from './user.ts';

type Viewer = Pick<Models.User, 'id' | 'isAdmin'> | null;

/** Gitea convert.ToTrackedTime: `user_name` "Ghost" (id -1) once the user is deleted; the issue embedded. */
export function toApiTrackedTime(v: TrackedTimeView, viewer: Viewer, opts: ConvertOptions): TrackedTime {
  return {
    id: v.time.id,
    created: apiTime(v.time.createdAt),
    time: v.time.time,
    user_id: v.time.userId ?? -1,
    user_name: v.user?.name ?? 'Ghost',
    issue_id: v.time.issueId,
    issue: v.issue ? toApiIssue(v.issue, viewer, opts) : null,
  };
}

/** A list of tracked times (always an array, as Gitea's ToTrackedTimeList). */
export function toApiTrackedTimeList(views: readonly TrackedTimeView[], viewer: Viewer, opts: ConvertOptions): TrackedTime[] {
  return views.map((v) => toApiTrackedTime(v, viewer, opts));
}

/** Gitea convert.ToStopWatches entry: elapsed seconds and their human form. */
export function toApiStopWatch(v: StopwatchView, now = new Date()): StopWatch {
  const seconds = stopwatchSeconds(v.stopwatch, now);
  return {
    created: apiTime(v.stopwatch.createdAt),
    seconds,
    duration: secToHours(seconds),
    issue_index: v.issue.index,
    issue_title: v.issue.title,
    repo_owner_name: v.repo.ownerName,
    repo_name: v.repo.name,
  };
}
