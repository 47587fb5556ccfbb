// Settings' values as the environment spells them: whole numbers, Go durations, ports, booleans. Each parser names
// the variable in its error, so a bad setting stops the start with a line that says which.
import { parseDuration } from './jobs/duration.ts';

/** A whole number from the environment (`fallback` when unset); at least `min`, at most ~24 days (Node's timer limit). */
export function parseCount(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > 2_000_000) throw new Error(`${name} must be a whole number ${min}-2000000, got ${value}`);
  return n;
}

/** A Go-syntax duration from the environment (`fallback` when unset), at least `min` ms. */
export function parseDurationSetting(name: string, value: string | undefined, fallback: string, min = 1): number {
  try {
    const ms = parseDuration(value?.trim() || fallback);
    if (ms < min) throw new Error(`must be at least ${min}ms`);
    return ms;
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}, got ${value}`, { cause: err });
  }
}

/** A TCP port from the environment (`fallback` when unset); 0 asks the system for a free one. */
export function parsePort(name: string, value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be 0-65535, got ${value}`);
  return port;
}

/** `true`/`false` (also 1/0, yes/no, on/off) from the environment; `fallback` when unset. */
export function parseBoolSetting(name: string, value: string | undefined, fallback: boolean): boolean {
  const v = value?.trim().toLowerCase();
  if (!v) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new Error(`${name} must be true or false, got ${value}`);
}
