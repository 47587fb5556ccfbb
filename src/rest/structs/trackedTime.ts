import { z } from 'zod';
import { qString, qTime } from '../params.ts';
import { zInt } from '../validation.ts';
import { Issue } from './issue.ts';

/** Gitea `TrackedTime` (modules/structs/issue_tracked_time.go), fields in Gitea's order; `time` in seconds. */
export const TrackedTime = z.object({
  id: z.number().int(),
  created: z.string(),
  time: z.number().int(),
  user_id: z.number().int(),
  user_name: z.string(),
  issue_id: z.number().int(),
  issue: Issue.nullable(),
});
/** A Gitea TrackedTime as sent on the wire. */
export type TrackedTime = z.infer<typeof TrackedTime>;

/** Gitea `StopWatch`: a running stopwatch of the viewer. */
export const StopWatch = z.object({
  created: z.string(),
  seconds: z.number().int(),
  duration: z.string(),
  issue_index: z.number().int(),
  issue_title: z.string(),
  repo_owner_name: z.string(),
  repo_name: z.string(),
});
/** A Gitea StopWatch as sent on the wire. */
export type StopWatch = z.infer<typeof StopWatch>;

/** RFC 3339 date-time (Go's time.Time JSON decoding); anything else is a 422. */
const zDateTime = z
  .string()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && !Number.isNaN(new Date(v).getTime()),
    'Invalid',
  );

/**
 * Gitea `AddTimeOption`. `time` is `binding:"Required"`; its absence (or 0) is reported by the service, after the
 * sign-in check, because Gitea's /times group checks the token before binding the body.
 */
export const AddTimeOption = z.object({
  time: zInt.optional(),
  created: zDateTime.nullish(),
  user_name: z.string().nullish(),
});

/** RFC 3339 filters of the tracked-time lists (Gitea GetQueryBeforeSince). */
export const TrackedTimesQuery = z.object({
  user: qString('optional filter by user (available for issue managers)'),
  since: qTime('only show times updated after the given time (RFC 3339)'),
  before: qTime('only show times updated before the given time (RFC 3339)'),
});
