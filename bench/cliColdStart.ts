// Cold start of the short CLI commands, as a user runs them (`node src/bin/forgegraph.js …`, the bundle fresh):
// `--version` and `admin user create` on a migrated SQLite database, each a new process. Prints the median wall time
// and CPU time (user + system, from /usr/bin/time) of each, and the load average, which the figures depend on.
// Usage: npx tsx bench/cliColdStart.ts [runs=5]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { bundle } from '../src/bin/bundle.js';

const runs = Number(process.argv[2] ?? 5);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'fg-bench-cli-'));
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
delete env.DATABASE_URL;

/** Wall and CPU seconds of one `forgegraph …args` process. */
function once(args: string[]): { wall: number; cpu: number } {
  const res = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, 'src/bin/forgegraph.js', ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`forgegraph ${args.join(' ')} failed:\n${res.stderr}`);
  const [wall = 0, user = 0, system = 0] = (res.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
  return { wall, cpu: user + system };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

await bundle();
once(['admin', 'user', 'list']); // creates and migrates the database
const commands: Array<[string, (i: number) => string[]]> = [
  ['--version', () => ['--version']],
  [
    'admin user create',
    (i) => ['admin', 'user', 'create', '--username', `u${i}`, '--password', 'bench-password', '--email', `u${i}@example.com`],
  ],
];
console.log(
  `node ${process.version}; load average before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const [name, args] of commands) {
  const samples = Array.from({ length: runs }, (_, i) => once(args(i)));
  console.log(
    `${name.padEnd(18)} wall p50 ${median(samples.map((s) => s.wall)).toFixed(2)} s, CPU p50 ${median(samples.map((s) => s.cpu)).toFixed(2)} s (${runs} runs)`,
  );
}
console.log(
  `load average after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
rmSync(dataDir, { recursive: true, force: true });
