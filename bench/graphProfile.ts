// Where the nested GraphQL query of bench/issues.ts spends its time (issue #35 item 1), on SQLite or PostgreSQL:
// `n` sequential POSTs against the in-process server under the inspector's CPU profiler, after 100 warm ones.
// Prints the mean time per query, each statement's mean time per query, and the CPU self time per query by package
// or source file, then by function. The profile is written for Chrome's DevTools. The client (fetch) runs in the same
// process: its share shows as undici and web streams.
// Usage: npx tsx bench/graphProfile.ts [n=500] [profile=/tmp/graph.cpuprofile] [sqlite|postgresql=sqlite]
import './serverRuntime.ts';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { QUERY, seed } from './issuesFixture.ts';
import { providerArg, scratchDatabase } from './scratchDb.ts';

const n = Number(process.argv[2] ?? 500);
const out = process.argv[3] ?? '/tmp/graph.cpuprofile';
const provider = providerArg(process.argv[4], 'sqlite');

const database = await scratchDatabase(provider, 'graph-profile');
await deployMigrations({ provider, url: database.url });
const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
const statements = new Map<string, { count: number; ms: number }>();
let timing = false;
const app = await buildApp(config, {
  onQuery: (e) => {
    if (!timing) return;
    const key = e.query.replace(/\s+/g, ' ').trim().slice(0, 100);
    const s = statements.get(key) ?? { count: 0, ms: 0 };
    s.count++;
    s.ms += e.duration;
    statements.set(key, s);
  },
});
try {
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
  await seed(app);
  const body = JSON.stringify({ query: QUERY, variables: { owner: 'bench', name: 'tracker' } });
  const post = async () => {
    const res = await fetch(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    if (!res.ok || text.includes('"errors"')) throw new Error(`${res.status} ${text.slice(0, 300)}`);
  };
  for (let i = 0; i < 100; i++) await post();

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  timing = true;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await post();
  const elapsed = performance.now() - t0;
  timing = false;
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  writeFileSync(out, JSON.stringify(profile));

  console.log(
    `GraphQL issues query on ${provider}: ${(elapsed / n).toFixed(2)} ms per query over ${n} (node ${process.version}); profile: ${out}`,
  );
  console.log('\nstatement | per query | µs per query (mean)');
  for (const [sql, s] of [...statements].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`${sql} | ${(s.count / n).toFixed(1)} | ${((1000 * s.ms) / n).toFixed(0)}`);
  }
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const { url, functionName, lineNumber } = byId.get(id)!.callFrame;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const file = url.includes('/src/') ? `src/${url.split('/src/')[1]}` : url.split('/').slice(-2).join('/');
    const place = !url ? (functionName.startsWith('(') ? functionName : `(native) ${functionName}`) : (pkg ?? file);
    const us = deltas[i + 1] ?? 0;
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${url ? `${pkg ? `${pkg}:` : ''}${url.split('/').pop()}:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  });
  console.log('\nCPU self time per query | µs');
  for (const [key, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${key} | ${(us / n).toFixed(0)}`);
  console.log('\nCPU self time per query, by function | µs');
  for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${key} | ${(us / n).toFixed(0)}`);
} finally {
  await app.close();
  await database.drop();
}
