/** Formats a git signature time (unix seconds + isomorphic-git's offset in minutes, sign as JS Date) as RFC 3339 in its own zone. */
export function formatGitTime(timestamp: number, timezoneOffset: number): string {
  const offsetMin = -timezoneOffset;
  const local = new Date((timestamp + offsetMin * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (offsetMin === 0) return `${local}Z`;
  const sign = offsetMin > 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
