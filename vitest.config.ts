import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites share one process per file; files run in parallel workers (2 cores).
    pool: 'forks',
    reporters: ['default', './test/helpers/summaryReporter.ts'],
  },
});
