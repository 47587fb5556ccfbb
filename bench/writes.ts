// Writes on SQLite and PostgreSQL (issue #35 item 3), each against the hand-written baseline of
// bench/writeBaseline.ts in the same run (the same rows from a minimal transaction of prepared statements, checked
// by the tables each side inserted into; for git work the same git commands run directly, then the same rows):
// create issue (3 labels, 2 assignees), comment, add label, edit issue, create pull request (merge-base and diff),
// merge (merge and squash), push of 1 and of 100 commits over smart HTTP. Per write: SQL statements (ours through
// the app's onQuery hook, one warm request with the job worker and the event subscribers idle; the baseline's own
// count), p50 and p99 latency under 1 and under 8 concurrent writers (the sides alternating by parts of ~25
// writes), the ratio ours/baseline, and how long ours' writes waited for a repository's write lock at 8 writers. Then writesChecks.ts: statements with 1 vs 10 labels/assignees/watchers, and
// 32 concurrent issue creations (every answer 201 or 503 with Retry-After).
// Usage: npx tsx bench/writes.ts [samples=24] [sqlite|postgresql|both=both] [only: a regular expression of write names]
//   PostgreSQL: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a scratch database is made and dropped.
import './serverRuntime.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { repoPath } from '../src/git/repoPath.ts';
import { createSystemContext } from '../src/services/context.ts';
import * as userService from '../src/services/user/user.ts';
import { baselinePush, startWriteBaseline } from './writeBaseline.ts';
import { createBenchUsersWithToken } from './benchUser.ts';
import { baselineDb, type BaselineDb } from './writeBaselineDb.ts';
import { fanOutStatements, contention, rowsInserted, tableCounts, type Checks } from './writesChecks.ts';
import { buildClone, push } from './writesGit.ts';
import { providersArg, scratchDatabase, type Provider } from './scratchDb.ts';

const samples = Number(process.argv[2] ?? 24);
const providers = providersArg(process.argv[3], 'both');
const only = new RegExp(process.argv[4] ?? '');
const gitSamples = Math.max(4, Math.round(samples / 2));

interface Side {
  p50: [number, number];
  p99: [number, number];
  statements: number;
}
interface Row {
  name: string;
  ours: Side;
  base: Side;
  /** The tables the counted write inserted into, ours and the baseline's (they must be the same). */
  inserted: { ours: string; base: string };
  /** Ours at 8 writers: how long its writes waited for a repository's write lock (RepoLocks), p50 and max, ms; null: none took one. */
  lockWait: [number, number] | null;
}

/** Where ours' repository-lock waits are collected now (its part at 8 writers), else null. */
let lockWaits: number[] | null = null;

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** Latencies of `n` calls of `op(i)` (i from `first`), `concurrency` at a time. */
async function timed(n: number, concurrency: number, first: number, op: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = first + next++;
        const t0 = performance.now();
        await op(i);
        out.push(performance.now() - t0);
      }
    }),
  );
  return out;
}

/** A copy of the SQLite database at `url` (every committed row) written to `file`; its `file:` URL. */
function copyOfSqlite(url: string, file: string): string {
  const db = new Database(url.replace(/^file:/, ''), { readonly: true });
  try {
    db.prepare('VACUUM INTO ?').run(file);
  } finally {
    db.close();
  }
  return `file:${file}`;
}

async function runProvider(provider: Provider): Promise<{ rows: Row[]; checks: Checks }> {
  const database = await scratchDatabase(provider, 'writes');
  await deployMigrations({ provider, url: database.url });
  const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  const counter = { n: 0 };
  // WRITES_DUMP=1 prints the statements of each counted write.
  let dump: string[] | null = null;
  const app = await buildApp(config, { onQuery: (e) => void (counter.n++, dump?.push(e.query.replace(/\s+/g, ' ').slice(0, 180))) });
  // The bench's own observer in place of the metrics': the lock waits of ours' writes at 8 writers.
  app.deps.repoLocks.observe(({ waitedMs }) => lockWaits?.push(waitedMs));
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  let bdb: BaselineDb | undefined;
  let countDb: BaselineDb | undefined;
  let bare: FastifyInstance | undefined;
  const work = mkdtempSync(path.join(tmpdir(), 'fg-bench-writes-clone-'));
  try {
    const sys = createSystemContext(app.deps);
    const { token, auth } = await createBenchUsersWithToken(app);
    const call = async (host: string, method: string, url: string, body?: unknown) => {
      const res = await fetch(host + url, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
      return (text ? JSON.parse(text) : {}) as { id: number; number: number };
    };
    const labels: Record<string, number[]> = {};
    for (const repo of ['ours', 'base']) {
      await call(base, 'POST', '/api/v1/user/repos', { name: repo, auto_init: true });
      for (const u of ['ann', 'bob']) await call(base, 'PUT', `/api/v1/repos/bench/${repo}/collaborators/${u}`, { permission: 'write' });
      labels[repo] = [];
      for (const [i, name] of ['bug', 'feature', 'docs', 'extra'].entries())
        labels[repo].push((await call(base, 'POST', `/api/v1/repos/bench/${repo}/labels`, { name, color: `#00${i}0aa` })).id);
    }
    // The baseline starts on what was set up so far. On SQLite it writes to its own copy of the database (the same
    // rows), so neither side's writes grow the other's write-ahead log or wait for the other's writer, and each pays
    // its own checkpoints: the server its checkpoint worker's, the baseline SQLite's own (as a program of prepared
    // statements gets them). On PostgreSQL both write to the same database.
    bdb = baselineDb(provider, provider === 'sqlite' ? copyOfSqlite(database.url, path.join(work, 'baseline.db')) : database.url);
    // Ours' rows are counted through a connection of its own on SQLite (the baseline writes to a copy).
    countDb = provider === 'sqlite' ? baselineDb(provider, database.url) : undefined;
    const countsOf = (repo: 'ours' | 'base') => tableCounts(provider, (repo === 'ours' ? (countDb ?? bdb!) : bdb!).query);
    bare = startWriteBaseline(bdb, config.repositoriesDir);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const baseStatements = bdb.statements;
    // Branches: pull requests created by the bench and for its merges; push branches of 1 and of 100 commits.
    const items = (n: number) => 2 * n + 2;
    const counts = { pulls: items(gitSamples) * 3, push1: items(gitSamples), push100: items(gitSamples) };
    const clone = path.join(work, 'clone');
    const ourRemote = `http://bench:${token}@127.0.0.1:${new URL(base).port}/bench/ours.git`;
    const baseDir = repoPath(config.repositoriesDir, 'bench', 'base');
    await buildClone(ourRemote, clone, counts);
    const prRefs = Array.from({ length: counts.pulls }, (_, k) => `pr-${k}`);
    await push(clone, ourRemote, prRefs);
    await push(clone, baseDir, ['+main:refs/heads/main', ...prRefs], true); // the same history as ours
    // Pull requests to merge (two per merge sample: merge style and squash style).
    const toMerge: Record<string, number[]> = { ours: [], base: [] };
    for (let k = items(gitSamples); k < counts.pulls; k++) {
      toMerge.ours!.push(
        (await call(base, 'POST', '/api/v1/repos/bench/ours/pulls', { head: `pr-${k}`, base: 'main', title: `pr ${k}` })).number,
      );
      toMerge.base!.push(
        (await call(bareBase, 'POST', '/api/v1/repos/bench/base/pulls', { head: `pr-${k}`, base: 'main', title: `pr ${k}` })).number,
      );
    }
    const settle = async () => {
      await app.deps.notifier.drain();
      await app.jobs.drain();
      await app.deps.notifier.drain();
    };
    await settle();

    // A push: ours over smart HTTP; the baseline's straight into its bare repository, then its rows.
    const pushBranch = (repo: 'ours' | 'base', branch: string) =>
      repo === 'ours' ? push(clone, ourRemote, [branch]) : baselinePush(bdb!, () => push(clone, baseDir, [branch], true), baseDir, branch);
    const issues: Record<string, number[]> = { ours: [], base: [] };
    const side = (repo: 'ours' | 'base') => (repo === 'ours' ? base : bareBase);
    type Op = { name: string; n: number; run: (repo: 'ours' | 'base', i: number) => Promise<unknown> };
    const ops: Op[] = [
      {
        name: 'create issue (3 labels, 2 assignees)',
        n: samples,
        run: async (repo, i) => {
          const body = { title: `Issue ${i}`, body: `Body of ${i}`, labels: labels[repo]!.slice(0, 3), assignees: ['ann', 'bob'] };
          issues[repo]!.push((await call(side(repo), 'POST', `/api/v1/repos/bench/${repo}/issues`, body)).number);
        },
      },
      {
        name: 'comment',
        n: samples,
        run: (repo, i) =>
          call(side(repo), 'POST', `/api/v1/repos/bench/${repo}/issues/${issues[repo]![i % 10]}/comments`, { body: `comment ${i}` }),
      },
      {
        name: 'add label',
        n: samples,
        run: (repo, i) =>
          call(side(repo), 'POST', `/api/v1/repos/bench/${repo}/issues/${issues[repo]![i]}/labels`, { labels: [labels[repo]![3]] }),
      },
      {
        name: 'edit issue',
        n: samples,
        run: (repo, i) =>
          call(side(repo), 'PATCH', `/api/v1/repos/bench/${repo}/issues/${issues[repo]![i % 10]}`, {
            title: `Edited ${i}`,
            body: `Edited body ${i}`,
          }),
      },
      {
        name: 'create pull request',
        n: gitSamples,
        run: (repo, i) =>
          call(side(repo), 'POST', `/api/v1/repos/bench/${repo}/pulls`, { head: `pr-${i}`, base: 'main', title: `pr ${i}` }),
      },
      {
        name: 'merge (merge style)',
        n: gitSamples,
        run: (repo, i) => call(side(repo), 'POST', `/api/v1/repos/bench/${repo}/pulls/${toMerge[repo]![2 * i]}/merge`, { Do: 'merge' }),
      },
      {
        name: 'merge (squash style)',
        n: gitSamples,
        run: (repo, i) =>
          call(side(repo), 'POST', `/api/v1/repos/bench/${repo}/pulls/${toMerge[repo]![2 * i + 1]}/merge`, { Do: 'squash' }),
      },
      {
        name: 'push 1 commit',
        n: gitSamples,
        run: (repo, i) => pushBranch(repo, `pa-${i}`),
      },
      {
        name: 'push 100 commits',
        n: gitSamples,
        run: (repo, i) => pushBranch(repo, `pb-${i}`),
      },
    ];
    // Comment, add label and edit issue write to the issues the first write made (add label to a fresh one per
    // write): asked for without it, they get as many made beforehand, unmeasured.
    const selected = ops.filter((o) => only.test(o.name));
    if (!selected.includes(ops[0]!) && selected.some((o) => ['comment', 'add label', 'edit issue'].includes(o.name))) {
      for (const repo of ['ours', 'base'] as const) for (let i = 0; i < 2 * samples + 2; i++) await ops[0]!.run(repo, i);
      await settle();
    }
    const rows: Row[] = [];
    for (const op of selected) {
      const statements = {} as Record<'ours' | 'base', number>;
      const inserted = {} as Row['inserted'];
      for (const repo of ['ours', 'base'] as const) {
        // Two warm writes (the last counted, with nothing else running). The counted one's inserted rows by table:
        // ours once its event subscribers are done (the feed's row), its jobs not yet run.
        const stmts = repo === 'ours' ? counter : baseStatements;
        await op.run(repo, 2 * op.n);
        await settle();
        const before = await countsOf(repo);
        stmts.n = 0;
        if (repo === 'ours' && process.env.WRITES_DUMP) dump = [];
        await op.run(repo, 2 * op.n + 1);
        if (repo === 'ours') await app.deps.notifier.drain();
        statements[repo] = stmts.n;
        inserted[repo] = rowsInserted(before, await countsOf(repo));
        if (dump) console.error(`${op.name}:\n  ${dump.join('\n  ')}`);
        dump = null;
      }
      // Then 1 and 8 writers, the two sides taking turns by parts of ~25 writes, so a slow spell of the host lands
      // on both. Between parts ours' event subscribers finish (their leftovers would land on the baseline's part);
      // its jobs run after the op, as the worker is not started.
      const times = { ours: [[], []] as number[][], base: [[], []] as number[][] };
      const waits: number[] = [];
      const parts = Math.max(1, Math.round(op.n / 25));
      for (const [phase, concurrency] of [1, 8].entries())
        for (let part = 0; part < parts; part++) {
          const [from, to] = [Math.floor((part * op.n) / parts), Math.floor(((part + 1) * op.n) / parts)];
          for (const repo of ['ours', 'base'] as const) {
            lockWaits = repo === 'ours' && concurrency === 8 ? waits : null;
            times[repo][phase]!.push(...(await timed(to - from, concurrency, phase * op.n + from, (i) => op.run(repo, i))));
            lockWaits = null;
            if (repo === 'ours') await app.deps.notifier.drain();
          }
        }
      await settle();
      const side = (repo: 'ours' | 'base'): Side => {
        const [one, eight] = times[repo] as [number[], number[]];
        return { p50: [pct(one, 0.5), pct(eight, 0.5)], p99: [pct(one, 0.99), pct(eight, 0.99)], statements: statements[repo] };
      };
      const lockWait: Row['lockWait'] = waits.length ? [pct(waits, 0.5), Math.max(...waits)] : null;
      rows.push({ name: op.name, ours: side('ours'), base: side('base'), inserted, lockWait });
      console.error(`${provider}: ${op.name} done`);
    }
    const checks: Checks = {
      fanOut: await fanOutStatements(base, call, counter, settle, (name) =>
        userService.createUser(sys, {
          username: name,
          email: `${name}@example.com`,
          password: 'bench-password-1',
          mustChangePassword: false,
        }),
      ),
      contention: await contention(base, auth),
    };
    return { rows, checks };
  } finally {
    await bare?.close();
    await bdb?.close();
    await countDb?.close();
    await app.close();
    await database.drop();
    rmSync(work, { recursive: true, force: true });
  }
}

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
for (const p of providers) {
  const { rows, checks } = await runProvider(p);
  console.log(`\n${p}: ${samples} samples per DB write (${gitSamples} per git write) at 1 and at 8 writers; ms; ratio = ours/baseline`);
  console.log(
    ['write', 'stmts', 'base stmts', 'p50 c1', 'base', 'ratio', 'p99 c1', 'base', 'p50 c8', 'base', 'ratio', 'p99 c8', 'base'].join(' | '),
  );
  for (const r of rows) {
    const { ours: o, base: b } = r;
    console.log(
      [
        r.name,
        o.statements,
        b.statements,
        fmt(o.p50[0]),
        fmt(b.p50[0]),
        (o.p50[0] / b.p50[0]).toFixed(2),
        fmt(o.p99[0]),
        fmt(b.p99[0]),
        fmt(o.p50[1]),
        fmt(b.p50[1]),
        (o.p50[1] / b.p50[1]).toFixed(2),
        fmt(o.p99[1]),
        fmt(b.p99[1]),
      ].join(' | '),
    );
  }
  console.log('ours at 8 writers, waits for the repository write lock (RepoLocks), p50 / max ms:');
  for (const r of rows) if (r.lockWait) console.log(`  ${r.name}: ${fmt(r.lockWait[0])} / ${fmt(r.lockWait[1])}`);
  console.log('rows inserted by one write, by table (ours = baseline unless shown):');
  for (const r of rows)
    console.log(`  ${r.name}: ${r.inserted.ours}${r.inserted.ours === r.inserted.base ? '' : `  ≠ baseline: ${r.inserted.base}`}`);
  console.log(
    `statements (with subscribers and jobs) with 1 vs 10 labels/assignees/watchers: ${checks.fanOut.map((f) => `${f.name} ${f.one} vs ${f.ten}`).join('; ')}`,
  );
  console.log(`32 concurrent issue creations: ${checks.contention}`);
}
