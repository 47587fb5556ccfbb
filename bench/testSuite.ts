// Wall time of the test suite (or a subset) with workers reusing the imported app (isolate: false, the default)
// and with a fresh module graph per file (VITEST_ISOLATE=1), alternating, with the load average around each run.
// Usage: npx tsx bench/testSuite.ts [runs=1] [workers=2] [test files…]   (no files: a representative dozen)
// The whole suite is heavy on a shared machine: prefer the default subset.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';

const SUBSET = [
  'test/rest/repo/labels.test.ts',
  'test/rest/repo/create.test.ts',
  'test/rest/admin/users.test.ts',
  'test/rest/pull/merge.test.ts',
  'test/rest/issue/comments.test.ts',
  'test/graphql/repository.test.ts',
  'test/graphql/pullRequestReview.test.ts',
  'test/graphql/team.test.ts',
  'test/githttp/githttp.test.ts',
  'test/permissions/repoPermission.test.ts',
  'test/rest/org/teams.test.ts',
  'test/notify/activity.test.ts',
  'test/rest/user/tokens.test.ts',
  'test/graphql/statementCount.test.ts',
];

const runs = Number(process.argv[2] ?? 1);
const workers = Number(process.argv[3] ?? 2);
const files = process.argv.slice(4);
const root = path.resolve(import.meta.dirname, '..');

interface Run {
  mode: string;
  seconds: number;
  summary: string;
  load: string;
}

function vitest(isolate: boolean): Promise<Run> {
  const load = () => loadavg()[0]?.toFixed(1) ?? '?';
  const before = load();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', `--maxWorkers=${workers}`, ...(files.length ? files : SUBSET)],
      { cwd: root, env: { ...process.env, VITEST_ISOLATE: isolate ? '1' : '0' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('close', () =>
      resolve({
        mode: isolate ? 'isolate (per-file import)' : 'shared workers (default)',
        seconds: (performance.now() - started) / 1000,
        summary: out.match(/\d+ passed, \d+ failed[^\n]*/)?.[0] ?? 'no summary',
        load: `${before} → ${load()}`,
      }),
    );
  });
}

const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  for (const isolate of [false, true]) {
    const r = await vitest(isolate);
    results.push(r);
    console.log(`${r.mode.padEnd(28)} ${r.seconds.toFixed(1).padStart(7)} s   ${r.summary}   load ${r.load}`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
for (const mode of new Set(results.map((r) => r.mode))) {
  console.log(`median ${mode}: ${median(results.filter((r) => r.mode === mode).map((r) => r.seconds)).toFixed(1)} s`);
}
