import { ValidationError } from '../errors.ts';

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Go's time.ParseDuration, in whole seconds. @throws ValidationError with Go's message */
export function parseGoDuration(text: string): number {
  const bad = (msg: string) => new ValidationError(msg);
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw bad(`time: invalid duration "${text}"`);
  let ns = 0;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(s);
    const whole = m?.[1] ?? '';
    const frac = m?.[2];
    if (whole === '' && !frac) throw bad(`time: invalid duration "${text}"`);
    s = s.slice(m?.[0].length ?? 0);
    const unit = /^[^\d.]+/.exec(s)?.[0] ?? '';
    if (!unit) throw bad(`time: missing unit in duration "${text}"`);
    const scale = UNIT_NS[unit];
    if (scale === undefined) throw bad(`time: unknown unit "${unit}" in duration "${text}"`);
    s = s.slice(unit.length);
    ns += Number(whole || '0') * scale + (frac ? Number(`0.${frac}`) * scale : 0);
  }
  // Go's limit is 2^63 − 1 ns, which a double cannot hold: it rounds to 2^63.
  if (ns > 2 ** 63) throw bad(`time: invalid duration "${text}"`);
  return Math.trunc((sign * ns) / 1e9);
}

/** Go's Duration.String, rounded to whole seconds: 8h0m0s, 10m0s, 30s, 0s. */
export function goDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const sign = whole < 0 ? '-' : '';
  const abs = Math.abs(whole);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const sec = abs % 60;
  if (h > 0) return `${sign}${h}h${m}m${sec}s`;
  if (m > 0) return `${sign}${m}m${sec}s`;
  return `${sign}${sec}s`;
}
