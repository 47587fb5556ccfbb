import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** test/durations.json: seconds per test file from a full run (`UPDATE_TEST_DURATIONS=1 npm test` rewrites it). */
export const DURATIONS_FILE = path.resolve(import.meta.dirname, '../durations.json');

export function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Longest files first, from the committed durations (a fresh clone has no vitest cache, and vitest then starts the
 * largest files first: a short file of long tests, such as the mutation scope table, started last and the run waited
 * minutes on one worker). Files without a recorded duration (new ones) start first, as vitest does.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const durations = readDurations();
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) => durations[path.relative(root, f.moduleId)] ?? Number.POSITIVE_INFINITY;
    // Stable: projects (isolated before shared) keep vitest's order; within a project, longest first.
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => (a.f.project.name === b.f.project.name ? seconds(b.f) - seconds(a.f) || a.i - b.i : a.i - b.i))
      .map(({ f }) => f);
  }
}
