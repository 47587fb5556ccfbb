import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { cpuLogFile } from './cpuLog.ts';
import { DURATIONS_FILE, readDurations } from './sequencer.ts';

/**
 * Prints the slowest files (what to look at when CI time grows) and the plain `N passed, N failed` closing line CI
 * reads (vitest's own summary is not one). With UPDATE_TEST_DURATIONS=1 it records each file's duration in
 * test/durations.json (the longest of the runs that recorded it), which the sequencer reads to start long files first.
 */
export default class SummaryReporter implements Reporter {
  onInit(): void {
    rmSync(cpuLogFile(process.pid), { force: true });
  }

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
    printCpu();
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}

function recordDurations(timed: { file: string; ms: number }[]): void {
  const durations = readDurations();
  for (const { file, ms } of timed) durations[file] = Math.max(durations[file] ?? 0, Math.round(ms / 100) / 10);
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
}

/** The files that took the most CPU (worker plus the processes it started), from test/helpers/cpuUsage.ts's records. */
function printCpu(): void {
  const log = cpuLogFile(process.pid);
  if (!existsSync(log)) return;
  const records = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { file: string; self: number; children: number; wall: number });
  rmSync(log, { force: true });
  // The whole table, for a closer look: <tmp>/forgegraph-test-cpu-last.json.
  writeFileSync(cpuLogFile('last'), JSON.stringify(records, null, 1));
  const total = records.reduce((sum, r) => sum + r.self + r.children, 0);
  const top = records.sort((a, b) => b.self + b.children - (a.self + a.children)).slice(0, 15);
  const row = (r: (typeof records)[number]) =>
    `  ${(r.self + r.children).toFixed(1).padStart(6)} s  (${r.self.toFixed(1)} in the worker, ${r.children.toFixed(1)} in processes it started)  ${r.file}`;
  process.stdout.write(`\nCPU: ${total.toFixed(0)} s in ${records.length} files; the most:\n${top.map(row).join('\n')}\n`);
}
