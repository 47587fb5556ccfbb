import { ValidationError } from '../../errors.ts';
import { goDuration, parseGoDuration } from '../goDuration.ts';
import { MIN_MIRROR_INTERVAL } from '../repo/edit.ts';

/** Gitea `[mirror] DEFAULT_INTERVAL` (8h), in seconds. */
export const DEFAULT_MIRROR_INTERVAL = 8 * 3600;

/**
 * A pull mirror's interval from Go duration text: empty → the default, `0` → manual syncs only, anything
 * else at least the minimum.
 * @throws ValidationError with Go's parse error or Gitea's minimum message
 */
export function parseMirrorInterval(text: string | undefined): number {
  if (!text) return DEFAULT_MIRROR_INTERVAL;
  const seconds = parseGoDuration(text);
  if (seconds !== 0 && seconds < MIN_MIRROR_INTERVAL) {
    throw new ValidationError(`interval ${goDuration(seconds)} is set below Minimum Interval of ${goDuration(MIN_MIRROR_INTERVAL)}`);
  }
  return seconds;
}

/** The next periodic sync of a mirror with `interval` seconds (null: manual only). */
export function nextSync(interval: number, from = new Date()): Date | null {
  return interval > 0 ? new Date(from.getTime() + interval * 1000) : null;
}
