/** RFC 3339 at second precision in UTC, as Gitea renders times. */
export function apiTime(date: Date): string {
  const iso = date.toISOString();
  // YYYY-MM-DDTHH:mm:ss.sssZ for years 0-9999 (every stored time): cut the milliseconds without a regular expression,
  // which cost a few µs per time at dozens of times per issue.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** Gitea's rendering of an unset `timeutil.TimeStamp`. */
export const UNIX_ZERO = '1970-01-01T00:00:00Z';
/** Gitea's rendering of an unset `time.Time`. */
export const GO_ZERO = '0001-01-01T00:00:00Z';
