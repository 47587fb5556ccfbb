// The profiling shared by bench/writeProfile.ts, bench/graphProfile.ts and bench/servedProfile.ts: the statements each
// operation ran (the app's query events: Prisma's, the read path's and the raw statements on the connection) and the
// CPU profile of a run, summarised as self time per package or source file and per function, or (for the bundle of a
// served process) per source file and line through the bundle's source maps.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { QueryEvent } from '../src/db/client.ts';

/** The npm package a script's URL lies in (`@scope/name` or `name`), or undefined. */
const packageOf = (url: string): string | undefined => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];

/** Statements by text (whitespace collapsed, cut to `width`), counted and timed while `on`. */
export class StatementTally {
  on = false;
  readonly byText = new Map<string, { count: number; ms: number }>();
  constructor(private readonly width: number) {}

  /** The app's onQuery: records `e` while on; returns its key (undefined while off). */
  readonly record = (e: QueryEvent): string | undefined => {
    if (!this.on) return undefined;
    const key = e.query.replace(/\s+/g, ' ').trim().slice(0, this.width);
    const s = this.byText.get(key) ?? { count: 0, ms: 0 };
    s.count++;
    s.ms += e.duration;
    this.byText.set(key, s);
    return key;
  };

  /** Each statement's count and mean time per operation (`n` operations, named `unit`), slowest first. */
  print(n: number, unit: string): void {
    console.log(`\nstatement | per ${unit} | µs per ${unit} (mean)`);
    for (const [sql, s] of [...this.byText].sort((a, b) => b[1].ms - a[1].ms)) {
      console.log(`${sql} | ${(s.count / n).toFixed(1)} | ${((1000 * s.ms) / n).toFixed(0)}`);
    }
  }
}

/** Runs `run` under the CPU profiler (200 µs sampling), writes the profile to `out`, returns it with the time taken. */
export async function profiled(out: string, run: () => Promise<void>): Promise<{ profile: Profiler.Profile; ms: number }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(out, JSON.stringify(profile));
  return { profile, ms };
}

/**
 * Prints the CPU self time per operation (`n` of them, named `unit`): by package (node_modules) or source directory
 * (`depth` path segments below src/), the top `top`; with `byFunction`, also per function (file and line).
 */
export function printSelfTime(
  profile: Profiler.Profile,
  n: number,
  unit: string,
  opts: { top: number; depth: number; byFunction?: number },
): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const { url, functionName, lineNumber } = byId.get(id)!.callFrame;
    const pkg = packageOf(url);
    const place = !url
      ? functionName.startsWith('(')
        ? functionName
        : `(native) ${functionName}`
      : (pkg ??
        (url.includes('/src/')
          ? `src/${url.split('/src/')[1]!.split('/').slice(0, opts.depth).join('/')}`
          : url.split('/').slice(-2).join('/')));
    const us = deltas[i + 1] ?? 0;
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url ? `${pkg ? `${pkg}:` : ''}${url.split('/').pop()}:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  console.log(`\nCPU self time per ${unit} | µs`);
  for (const [key, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, opts.top)) console.log(`${key} | ${(us / n).toFixed(0)}`);
  if (!opts.byFunction) return;
  console.log(`\nCPU self time per ${unit}, by function | µs`);
  for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, opts.byFunction))
    console.log(`${key} | ${(us / n).toFixed(0)}`);
}

/** The source map of a bundle file (`<file>.map` beside it), once per file; null for other code. */
function sourceMapOf(url: string, maps: Map<string, SourceMap | null>): SourceMap | null {
  if (!url.startsWith('file:') || url.includes('/node_modules/')) return null;
  let map = maps.get(url);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return map;
}

/** A source path as the summary shows it: from src/ on, or a package's name. */
const shortSource = (source: string): string =>
  source.includes('/src/') ? `src/${source.split('/src/').pop()!}` : (packageOf(source) ?? source);

/**
 * Prints the CPU self time per operation (`n` of them, named `unit`) of a profile taken from the bundle (a served
 * process's `--cpu-prof`): per source file and per source line, through the bundle's source maps (functions of
 * node_modules and Node per package or file). The top `top` of each.
 */
export function printSourceTime(profile: Profiler.Profile, n: number, unit: string, top: number): void {
  const maps = new Map<string, SourceMap | null>();
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFile = new Map<string, number>();
  const byLine = new Map<string, number>();
  const add = (into: Map<string, number>, key: string, us: number) => into.set(key, (into.get(key) ?? 0) + us);
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    if (!us) continue;
    const { url, functionName, lineNumber, columnNumber } = node.callFrame;
    const map = sourceMapOf(url, maps);
    if (!map) {
      const pkg = packageOf(url);
      add(byFile, pkg ?? (url ? url.split('/').pop()! : `(native) ${functionName}`), us);
      continue;
    }
    const entry = map.findEntry(lineNumber, columnNumber) as { originalSource?: string };
    add(byFile, shortSource(entry.originalSource ?? url), us);
    // Line ticks: each line's share of the function's self time.
    const ticks = node.positionTicks ?? [];
    const total = ticks.reduce((sum, t) => sum + t.ticks, 0);
    for (const t of ticks) {
      const at = map.findEntry(t.line - 1, 0) as { originalSource?: string; originalLine?: number };
      add(byLine, `${shortSource(at.originalSource ?? url)}:${(at.originalLine ?? -1) + 1} ${functionName}`, (us * t.ticks) / total);
    }
  }
  console.log(`\nCPU self time per ${unit}, by source file | µs`);
  for (const [key, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${key} | ${(us / n).toFixed(2)}`);
  console.log(`\nCPU self time per ${unit}, by source line (the bundle's) | µs`);
  for (const [key, us] of [...byLine].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${key} | ${(us / n).toFixed(2)}`);
}
