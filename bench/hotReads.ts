// Hot REST reads on SQLite and PostgreSQL, printed side by side, each against the hand-written baseline of
// bench/hotReadBaseline.ts (Fastify + prepared statements building the same JSON) in the same run; the bench
// checks both answer byte-identical bodies (nothing is normalized: the data does not change during the run):
//   GET /repos/{o}/{r}/issues/{index} anonymous and with a token, GET /repos/{o}/{r},
//   GET /repos/{o}/{r}/issues?limit=50, GET /repos/{o}/{r}/pulls/{index};
// plus SQL statements per request (ours: Prisma's query events and the read path's; the baseline's) and git
// processes spawned per request; then the same rounds as this process's CPU time per request (both servers run
// here, the load generator in a child), a figure that a busy machine moves less than req/s.
// autocannon runs in a child process so the load generator does not share the server's event loop.
// Usage: npx tsx bench/hotReads.ts [seconds=5] [sqlite|postgresql|both=both] [rounds=3]
//   rounds: each side runs that many times per path, alternating; the medians are compared.
//   HOTREADS_PROFILE=<dir>: the CPU profile of each case's last round, ours and the baseline's, written there (see profiled below).
//   PostgreSQL: BENCH_PG_URL (default postgresql://postgres@127.0.0.1:5432/postgres); a scratch database is made and dropped.
import './serverRuntime.ts';
import childProcess from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { startBaseline } from './hotReadBaseline.ts';
import { createBenchUsersWithToken } from './benchUser.ts';
import { providersArg, scratchDatabase, type Provider } from './scratchDb.ts';

const seconds = Number(process.argv[2] ?? 5);
const providers = providersArg(process.argv[3], 'both');
const rounds = Number(process.argv[4] ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ISSUES = 60;

/** What one autocannon run measured: mean requests per second, and this process's CPU time per request. */
interface Round {
  rps: number;
  /**
   * CPU time (user + system) of this process per request, in µs: both servers run here, one at a time, and the
   * load generator in a child, so it is the server's (with PostgreSQL, the database's own processes are not in it).
   * Steadier than req/s on a shared machine: another tenant's load slows the clock, not the work per request.
   */
  cpuUs: number;
}

/** autocannon -c 10 for `seconds`, with this process's CPU time over the run. */
function autocannon(url: string, headers: Record<string, string> = {}, duration = seconds): Promise<Round> {
  const args = ['node_modules/autocannon/autocannon.js', '-j', '-c', '10', '-d', String(duration)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const cpu = process.cpuUsage();
    const child = childProcess.spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('close', (code) => {
      const used = process.cpuUsage(cpu);
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const r = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number; errors: number };
      if (r.non2xx || r.errors) return reject(new Error(`autocannon saw ${r.non2xx} non-2xx and ${r.errors} errors`));
      resolve({ rps: r.requests.average, cpuUs: (used.user + used.system) / Math.max(1, r.requests.total) });
    });
  });
}

interface Row {
  name: string;
  /** Each round's figures. */
  oursRounds: Round[];
  bareRounds: Round[];
  statements: number;
  baseStatements: number;
  spawns?: number;
}

async function runProvider(provider: Provider): Promise<Row[]> {
  const database = await scratchDatabase(provider);
  await deployMigrations({ provider, url: database.url });
  const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
  let statements = 0;
  const app = await buildApp(config, { onQuery: () => void statements++ });
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  const baseline = startBaseline(
    provider,
    database.url,
    { rootUrl: config.rootUrl, noReplyAddress: config.noReplyAddress, ssh: config.ssh },
    config.repositoriesDir,
  );
  const bare = baseline.app;
  try {
    const { auth } = await createBenchUsersWithToken(app);
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ id: number }>;
    };
    await call('POST', '/api/v1/user/repos', { name: 'tracker', auto_init: true });
    const labels = [];
    for (const [i, name] of ['bug', 'feature', 'docs'].entries()) {
      labels.push((await call('POST', '/api/v1/repos/bench/tracker/labels', { name, color: `#00${i}0aa` })).id);
    }
    for (let n = 1; n <= ISSUES; n++) {
      await call('POST', '/api/v1/repos/bench/tracker/issues', {
        title: `Issue number ${n}`,
        body: `Body of issue ${n}`,
        labels: [labels[n % 3]],
        assignees: n % 2 ? ['ann'] : ['ann', 'bob'],
      });
    }
    await call('POST', '/api/v1/repos/bench/tracker/branches', { new_branch_name: 'feature', old_branch_name: 'main' });
    await call('POST', '/api/v1/repos/bench/tracker/contents/feature.txt', {
      content: Buffer.from('feature\n').toString('base64'),
      branch: 'feature',
    });
    const pull = (await call('POST', '/api/v1/repos/bench/tracker/pulls', {
      head: 'feature',
      base: 'main',
      title: 'A feature',
    })) as unknown as {
      number: number;
    };
    await app.jobs.drain();
    await app.deps.notifier.drain();

    const cases: { name: string; url: string; headers?: Record<string, string> }[] = [
      { name: 'GET issue (anonymous)', url: '/api/v1/repos/bench/tracker/issues/7' },
      { name: 'GET issue (token)', url: '/api/v1/repos/bench/tracker/issues/8', headers: auth },
      { name: 'GET repository', url: '/api/v1/repos/bench/tracker' },
      { name: 'GET issues?limit=50', url: '/api/v1/repos/bench/tracker/issues?limit=50' },
      { name: 'GET pull', url: `/api/v1/repos/bench/tracker/pulls/${pull.number}` },
    ];
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    const rows: Row[] = [];
    for (const c of cases) {
      const get = () => fetch(base + c.url, { headers: c.headers ?? {} });
      const warm = await get();
      const body = await warm.text();
      if (!warm.ok) throw new Error(`${c.url}: ${warm.status} ${body.slice(0, 200)}`);
      // Statements of one warm request, and git processes it spawns (this process's children).
      const spawned: string[] = [];
      const realSpawn = childProcess.spawn;
      (childProcess as { spawn: typeof realSpawn }).spawn = ((...args: Parameters<typeof realSpawn>) => {
        spawned.push(String(args[0]));
        return realSpawn(...args);
      }) as typeof realSpawn;
      syncBuiltinESMExports();
      statements = 0;
      const again = await get();
      const n = statements;
      (childProcess as { spawn: typeof realSpawn }).spawn = realSpawn;
      syncBuiltinESMExports();
      if ((await again.text()) !== body) throw new Error(`${c.url} answered different bodies`);
      await fetch(bareBase + c.url, { headers: c.headers ?? {} }); // warm
      baseline.statements.n = 0;
      const bareBody = await (await fetch(bareBase + c.url, { headers: c.headers ?? {} })).text();
      if (bareBody !== body)
        throw new Error(`${c.name}: the baseline does not serve the same bytes\nours:     ${body}\nbaseline: ${bareBody}`);
      rows.push({
        name: c.name,
        oursRounds: [],
        bareRounds: [],
        statements: n,
        baseStatements: baseline.statements.n,
        spawns: spawned.filter((s) => /git/.test(s)).length,
        url: c.url,
      } as Row & { url: string });
    }
    // Both servers warm up first (JIT, caches): otherwise the first case measures a cold server against a warm one.
    // 500 requests each, 10 at a time, from this process (an autocannon process per warm-up cost ~2 s to start).
    const warm = async (url: string, headers: Record<string, string>) => {
      for (let round = 0; round < 50; round++) {
        await Promise.all(Array.from({ length: 10 }, async () => (await fetch(url, { headers })).arrayBuffer()));
      }
    };
    for (const [i, row] of rows.entries()) {
      const r = row as Row & { url: string };
      await warm(base + r.url, cases[i]!.headers ?? {});
      await warm(bareBase + r.url, cases[i]!.headers ?? {});
    }
    // `rounds` runs of each side, alternating, and their medians: the sides see the same machine, and a round
    // started before the JIT finished optimising (ours has more code to warm than the baseline) is not the figure.
    for (const [i, row] of rows.entries()) {
      const r = row as Row & { url: string };
      const headers = cases[i]!.headers ?? {};
      for (let round = 0; round < rounds; round++) {
        const last = round === rounds - 1;
        const ours = () => autocannon(base + r.url, headers);
        const bare = () => autocannon(bareBase + r.url, headers);
        row.oursRounds.push(await (last ? profiled(`${provider}-${row.name}`, ours) : ours()));
        row.bareRounds.push(await (last ? profiled(`${provider}-${row.name}-baseline`, bare) : bare()));
      }
    }
    return rows;
  } finally {
    await baseline.close();
    await app.close();
    await database.drop();
  }
}

/**
 * `run` under the inspector's CPU profiler when HOTREADS_PROFILE names a directory: this process's profile (both
 * servers run in it) during one case, written there as `<database>-<case>[-baseline].cpuprofile` (Chrome's DevTools).
 */
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.HOTREADS_PROFILE;
  if (!dir) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(path.join(dir, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

const results = new Map<Provider, Row[]>();
for (const p of providers) results.set(p, await runProvider(p));
console.log(
  `autocannon -c 10 -d ${seconds}, ${rounds} rounds alternating, medians (each round's in brackets); baseline = hand-written Fastify + prepared statements, same bytes (same run)`,
);
const header = ['path', ...providers.flatMap((p) => [`${p} req/s`, 'baseline req/s', 'ratio', 'stmts', 'baseline stmts', 'git spawns'])];
console.log(header.join(' | '));
const names = results.get(providers[0]!)!.map((r) => r.name);
const each = (xs: number[]) => (xs.length > 1 ? ` (${xs.map((x) => x.toFixed(0)).join(', ')})` : '');
for (const [i, name] of names.entries()) {
  const cells = providers.flatMap((p) => {
    const r = results.get(p)![i]!;
    const [ours, bare] = [r.oursRounds, r.bareRounds].map((rounds) => rounds.map((x) => x.rps)) as [number[], number[]];
    return [
      `${median(ours).toFixed(0)}${each(ours)}`,
      `${median(bare).toFixed(0)}${each(bare)}`,
      (median(ours) / median(bare)).toFixed(3),
      String(r.statements),
      String(r.baseStatements),
      String(r.spawns ?? 0),
    ];
  });
  console.log([name, ...cells].join(' | '));
}
// The same rounds as CPU time per request: the inverse ratio (baseline / ours) is the throughput the CPU allows.
console.log('\nserver CPU time per request, µs (medians; each round in brackets); ratio = baseline / ours');
console.log(['path', ...providers.flatMap((p) => [`${p} µs`, 'baseline µs', 'ratio'])].join(' | '));
for (const [i, name] of names.entries()) {
  const cells = providers.flatMap((p) => {
    const r = results.get(p)![i]!;
    const [ours, bare] = [r.oursRounds, r.bareRounds].map((rounds) => rounds.map((x) => x.cpuUs)) as [number[], number[]];
    return [`${median(ours).toFixed(0)}${each(ours)}`, `${median(bare).toFixed(0)}${each(bare)}`, (median(bare) / median(ours)).toFixed(3)];
  });
  console.log([name, ...cells].join(' | '));
}
