// The REST fuzzer of test/rest/fuzz.test.ts at scale: N requests (default 20,000) generated from the OpenAPI
// document with a fixed seed, sent through app.inject on a fresh SQLite database (PostgreSQL with
// TEST_DATABASE_URL and FUZZ_PROVIDER=postgresql). Prints requests, time, the status histogram, the 5xx count
// and the first violations (5xx, error bodies not in Gitea's shape, leaked internals, oversized headers).
// Usage: npx tsx bench/fuzz.ts [count=20000] [seed=20260716]
import type { DbProvider } from '../src/db/migrate/engine.ts';
import { startTestApp } from '../test/helpers/app.ts';
import { fuzzRequests, runFuzz, type OpenApiDoc } from '../test/helpers/fuzz.ts';
import { seedFuzzWorld } from '../test/helpers/fuzzWorld.ts';

const count = Number(process.argv[2] ?? 20_000);
const seed = Number(process.argv[3] ?? 20_260_716);
const provider: DbProvider = process.env.FUZZ_PROVIDER === 'postgresql' ? 'postgresql' : 'sqlite';

const t = await startTestApp(provider);
try {
  const world = await seedFuzzWorld(t);
  const doc = (await t.request('GET', '/swagger.v1.json')).json() as OpenApiDoc;
  const requests = fuzzRequests(doc, world, { seed, count });
  const operations = new Set(requests.map((r) => r.operationId)).size;
  const report = await runFuzz(t, requests);
  console.log(`provider ${provider}, seed ${seed}`);
  console.log(
    `requests ${report.requests} over ${operations} operations in ${(report.ms / 1000).toFixed(1)} s (${(report.requests / (report.ms / 1000)).toFixed(0)} req/s)`,
  );
  console.log(
    'statuses',
    Object.entries(report.statuses)
      .map(([s, n]) => `${s}:${n}`)
      .join(' '),
  );
  console.log(`5xx ${report.fiveHundreds}`);
  console.log(`violations ${report.violations.length}`);
  for (const v of report.violations.slice(0, 20)) console.log(`  ${v}`);
  process.exitCode = report.violations.length ? 1 : 0;
} finally {
  await t.close();
}
