import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/helpers/sequencer.ts';

/** Test files that mock a module and so cannot share a worker's module graph. */
const ISOLATED = ['test/auth/unknownUserCost.test.ts'];

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module) builds; Vite would load the ESM one for src/ while the
  // externalized Pothos/Yoga load the CJS one, so `instanceof GraphQLError` failed. Use Node's choice.
  resolve: { alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve('graphql') }] },
  test: {
    // Timeouts catch hangs, not slowness: a test that takes 10 s on an idle machine takes several times that when
    // the two cores are shared with other work, and must not fail for it.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Files run in parallel worker processes. Most of a test's time is spent waiting on git processes and the
    // database, so two workers per core keep the CPU busy. Workers are reused across files without re-importing
    // the app (isolate: false): importing src/ and the GraphQL schema costs ~3 s per file, which was a third of
    // the suite. Suites share no module state that matters (each builds its own app over its own database);
    // VITEST_ISOLATE=1 restores a fresh module graph per file.
    pool: 'forks',
    // A larger young generation for the workers: fewer scavenges promote less (two git-heavy files: 70-73 s against
    // 75.5 s alone). The servers the tests start as processes run with the product's own heap settings.
    execArgv: [
      '--max-semi-space-size=64',
      ...(process.env.TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TEST_CPU_PROF}`] : []),
    ],
    maxWorkers: 4,
    // Servers and CLI commands the tests start run the bundle (npm run build), built once here.
    globalSetup: ['./test/helpers/buildBundle.ts'],
    // Records each file's CPU time; the summary names the files that cost the most.
    setupFiles: ['./test/helpers/cpuUsage.ts'],
    reporters: ['default', './test/helpers/summaryReporter.ts'],
    // Longest files first (test/durations.json), so no long file starts last and runs alone at the end.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: process.env.VITEST_ISOLATE === '1' },
      },
      // Files that replace a module (vi.mock) need a module graph of their own.
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
