// Where a write's time goes (issue #35 item 3), on SQLite or PostgreSQL: `n` sequential REST writes of one kind against the
// in-process server under the inspector's CPU profiler, after 100 warm ones. Prints the mean time per write, each
// statement's mean time per write (the app's query events: Prisma's, the read path's and the raw statements run on
// the connection), COMMIT's mean, p50/p90/p99/max and how many took 5 ms or more (a checkpoint on the server's thread), and the CPU time per write by package or source directory (self time).
// The profile is written for Chrome's DevTools. The client (fetch) runs in the same process: its share shows as
// undici and web streams. The job worker is not started (as in bench/writes.ts): jobs are not part of the figures;
// with `jobs` it runs as in `forgegraph serve`, and the statements of the jobs the writes set off (claims, their work,
// their completion) are counted with the writes, waited for after the last one.
// Usage: npx tsx bench/writeProfile.ts [comment|issue|edit=comment] [n=800] [profile=/tmp/write.cpuprofile] [sqlite|postgresql=sqlite] [jobs]
//   PostgreSQL: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a scratch database is made and dropped.
import './serverRuntime.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { printSelfTime, profiled, StatementTally } from './cpuProfile.ts';
import { providerArg, scratchDatabase } from './scratchDb.ts';
import { listenWithWriteRepo } from './writeFixture.ts';

const kind = process.argv[2] ?? 'comment';
const n = Number(process.argv[3] ?? 800);
const out = process.argv[4] ?? '/tmp/write.cpuprofile';
const provider = providerArg(process.argv[5], 'sqlite');
const withJobs = process.argv[6] === 'jobs';
if (!['comment', 'issue', 'edit'].includes(kind)) {
  console.error(`unknown write "${kind}": give comment, issue or edit`);
  process.exit(2);
}

const database = await scratchDatabase(provider, 'write-profile');
await deployMigrations({ provider, url: database.url });
const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
const statements = new StatementTally(80);
const commits: number[] = [];
const app = await buildApp(config, {
  onQuery: (e) => {
    if (statements.record(e) === 'COMMIT') commits.push(e.duration);
  },
});
try {
  const { call, labels } = await listenWithWriteRepo(app);
  const issues: number[] = [];
  for (let i = 0; i < 10; i++) issues.push((await call('POST', '/api/v1/repos/bench/ours/issues', { title: `Issue ${i}` })).number);
  const write = (i: number) =>
    kind === 'comment'
      ? call('POST', `/api/v1/repos/bench/ours/issues/${issues[i % 10]}/comments`, { body: `comment ${i}` })
      : kind === 'issue'
        ? call('POST', '/api/v1/repos/bench/ours/issues', { title: `Issue ${i}`, body: `Body ${i}`, labels, assignees: ['ann', 'bob'] })
        : call('PATCH', `/api/v1/repos/bench/ours/issues/${issues[i % 10]}`, { title: `Edited ${i}`, body: `Edited body ${i}` });
  if (withJobs) await app.startBackground();
  for (let i = 0; i < 100; i++) await write(i);
  await app.deps.notifier.drain();
  await app.jobs.drain();

  statements.on = true;
  const { profile, ms: elapsed } = await profiled(out, async () => {
    for (let i = 0; i < n; i++) await write(i);
  });
  if (withJobs) {
    await app.deps.notifier.drain();
    await app.jobs.drain();
  }
  statements.on = false;

  console.log(
    `${kind} on ${provider}${withJobs ? ' with the job worker' : ''}: ${(elapsed / n).toFixed(2)} ms per write over ${n} (node ${process.version}); profile: ${out}`,
  );
  statements.print(n, 'write');
  commits.sort((a, b) => a - b);
  const at = (q: number) => (1000 * (commits[Math.min(commits.length - 1, Math.floor(q * commits.length))] ?? 0)).toFixed(0);
  const mean = (1000 * commits.reduce((a, b) => a + b, 0)) / Math.max(1, commits.length);
  const slow = commits.filter((ms) => ms >= 5).length;
  console.log(
    `\nCOMMIT: mean ${mean.toFixed(0)} µs, p50 ${at(0.5)} µs, p90 ${at(0.9)} µs, p99 ${at(0.99)} µs, max ${at(1)} µs, ${slow} of ${commits.length} ≥ 5 ms`,
  );
  printSelfTime(profile, n, 'write', { top: 25, depth: 2 });
} finally {
  await app.close();
  await database.drop();
}
