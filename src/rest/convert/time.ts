/** RFC 3339 at second precision in UTC, as Gitea renders times. */
export function apiTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Gitea's rendering of an unset `timeutil.TimeStamp`. */
export const UNIX_ZERO = '1970-01-01T00:00:00Z';
/** Gitea's rendering of an unset `time.Time`. */
export const GO_ZERO = '0001-01-01T00:00:00Z';
