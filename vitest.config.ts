import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module) builds; Vite would load the ESM one for src/ while the
  // externalized Pothos/Yoga load the CJS one, so `instanceof GraphQLError` failed. Use Node's choice.
  resolve: { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites share one process per file; files run in parallel workers. Most of a test's time is spent waiting
    // on git processes and the database, so two workers per core keep the CPU busy (measured on 2 cores: the
    // SQLite pass takes 290 s with 4 workers).
    pool: 'forks',
    isolate: process.env.VITEST_ISOLATE === '1',
    maxWorkers: 4,
    reporters: ['default', './test/helpers/summaryReporter.ts'],
  },
});
