import { Cron } from 'croner';
import { parseDuration } from './duration.ts';

/** A parsed cron schedule: when it fires next. */
export interface Schedule {
  /** The spec as written, e.g. `@every 10m`, `@midnight`, `0 30 2 * * *`. */
  spec: string;
  /** The first firing strictly after `after`; null when the expression never fires again. */
  next(after: Date): Date | null;
}

/** robfig/cron's descriptors (the ones Gitea's schedules use), as five-field expressions. */
const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/**
 * Parses a schedule the way Gitea's scheduler reads `[cron.*] SCHEDULE`: `@every <Go duration>` (the next run
 * is that long after the previous one), robfig's descriptors (`@midnight`, `@hourly`, `@daily`, `@weekly`,
 * `@monthly`, `@yearly`/`@annually`), or a cron expression of five fields (minute first) or six (seconds
 * first), evaluated by croner in the server's local time zone. Throws an Error naming the spec when invalid.
 */
export function parseSchedule(spec: string): Schedule {
  const text = spec.trim();
  const every = /^@every\s+(\S+)$/.exec(text);
  if (every?.[1]) {
    let ms: number;
    try {
      ms = parseDuration(every[1]);
    } catch (err) {
      throw new Error(`invalid schedule "${spec}": ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (ms < 1000) throw new Error(`invalid schedule "${spec}": @every needs at least 1s`);
    return { spec: text, next: (after) => new Date(after.getTime() + ms) };
  }
  const expression = DESCRIPTORS[text] ?? text;
  const fields = expression.split(/\s+/).length;
  if (expression.startsWith('@') || (fields !== 5 && fields !== 6)) {
    throw new Error(`invalid schedule "${spec}": expected @every <duration>, a descriptor such as @midnight, or 5 or 6 cron fields`);
  }
  // Parsed once here to refuse a bad spec, then again at each use: a parsed pattern holds a table of every year
  // (croner 11: ~80 KB), which the scheduler's tasks would keep for the process's life to ask once an hour or a day.
  const parse = () => new Cron(expression, { paused: true });
  try {
    parse();
  } catch (err) {
    throw new Error(`invalid schedule "${spec}": ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  return { spec: text, next: (after) => parse().nextRun(after) };
}
