/** Unit lengths of Go's time.ParseDuration, in milliseconds. */
const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a Go duration (`10m`, `72h`, `1h30m`, `500ms`, `0`), the form Gitea's settings and `@every`
 * schedules use, into milliseconds. Throws an Error naming the value when it is not one.
 */
export function parseDuration(value: string): number {
  const text = value.trim();
  if (text === '0') return 0;
  const parts = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/.test(text) ? text.match(/\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)/g) : null;
  if (!parts) throw new Error(`invalid duration "${value}" (expected Go syntax such as 30s, 10m, 72h or 1h30m)`);
  let ms = 0;
  for (const part of parts) {
    const [, amount, unit] = /^(\d+(?:\.\d+)?)(\D+)$/.exec(part) ?? [];
    ms += Number(amount) * (UNITS[unit ?? ''] ?? Number.NaN);
  }
  return Math.round(ms);
}

/** Formats milliseconds the way Go prints a duration (`24h0m0s` style, shortened: `24h`, `1h30m`, `10s`). */
export function formatDuration(ms: number): string {
  if (ms <= 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}
