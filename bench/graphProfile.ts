// Where the nested GraphQL query of bench/issues.ts spends its time (issue #35 item 1), on SQLite or PostgreSQL:
// `n` sequential POSTs against the in-process server under the inspector's CPU profiler, after 100 warm ones.
// Prints the mean time per query, each statement's mean time per query, and the CPU self time per query by package
// or source file, then by function. The profile is written for Chrome's DevTools. The client (fetch) runs in the same
// process: its share shows as undici and web streams.
// Usage: npx tsx bench/graphProfile.ts [n=500] [profile=/tmp/graph.cpuprofile] [sqlite|postgresql=sqlite]
import './serverRuntime.ts';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { deployMigrations } from '../src/db/migrate/deployMigrations.ts';
import { printSelfTime, profiled, StatementTally } from './cpuProfile.ts';
import { QUERY, seed } from './issuesFixture.ts';
import { providerArg, scratchDatabase } from './scratchDb.ts';

const n = Number(process.argv[2] ?? 500);
const out = process.argv[3] ?? '/tmp/graph.cpuprofile';
const provider = providerArg(process.argv[4], 'sqlite');

const database = await scratchDatabase(provider, 'graph-profile');
await deployMigrations({ provider, url: database.url });
const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, SECRET_KEY: 'bench', ROOT_URL: 'http://127.0.0.1/' });
const statements = new StatementTally(100);
const app = await buildApp(config, { onQuery: statements.record });
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

  statements.on = true;
  const { profile, ms: elapsed } = await profiled(out, async () => {
    for (let i = 0; i < n; i++) await post();
  });
  statements.on = false;

  console.log(
    `GraphQL issues query on ${provider}: ${(elapsed / n).toFixed(2)} ms per query over ${n} (node ${process.version}); profile: ${out}`,
  );
  statements.print(n, 'query');
  printSelfTime(profile, n, 'query', { top: 30, depth: 9, byFunction: 40 });
} finally {
  await app.close();
  await database.drop();
}
