import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { DURATIONS_FILE, readDurations } from './sequencer.ts';

/**
 * Prints the slowest files (what to look at when CI time grows) and the plain `N passed, N failed` closing line CI
 * reads (vitest's own summary is not one). With UPDATE_TEST_DURATIONS=1 it records each file's duration in
 * test/durations.json (the longest of the runs that recorded it), which the sequencer reads to start long files first.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (m.state() === 'failed' && !m.children.size) failed++;
    }
    const timed = testModules.map((m) => ({ file: m.relativeModuleId, ms: m.diagnostic().duration })).sort((a, b) => b.ms - a.ms);
    if (process.env.UPDATE_TEST_DURATIONS === '1') recordDurations(timed);
    const slowest = timed.slice(0, 12);
    process.stdout.write(`\nslowest files:\n${slowest.map((s) => `  ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.file}`).join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}

function recordDurations(timed: { file: string; ms: number }[]): void {
  const durations = readDurations();
  for (const { file, ms } of timed) durations[file] = Math.max(durations[file] ?? 0, Math.round(ms / 100) / 10);
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}
