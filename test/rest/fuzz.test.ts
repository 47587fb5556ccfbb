import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { fuzzRequests, runFuzz, type FuzzWorld, type OpenApiDoc } from '../helpers/fuzz.ts';
import { seedFuzzWorld } from '../helpers/fuzzWorld.ts';

/**
 * Requests per run, sized for the suite: about three per operation, each operation reached (test/helpers/fuzz.ts
 * shares them out). bench/fuzz.ts runs the same generator with 20,000+ (`npx tsx bench/fuzz.ts`).
 */
const COUNT = 1_200;
const SEED = 20_260_716;

describe.each(PROVIDERS)('REST fuzz over the OpenAPI routes (%s)', (provider) => {
  let t: TestApp;
  let world: FuzzWorld;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    t = await startTestApp(provider);
    world = await seedFuzzWorld(t);
    doc = (await t.request('GET', '/swagger.v1.json')).json() as OpenApiDoc;
  });
  afterAll(() => t.close());

  it(`${COUNT} generated requests (fixed seed): no 5xx, every error in Gitea's shape, no internals`, { timeout: 900_000 }, async () => {
    const requests = fuzzRequests(doc, world, { seed: SEED, count: COUNT });
    // The sample reaches every operation, with every kind of caller.
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(new Set(requests.map((r) => r.operationId)).size).toBe(operations);
    expect(new Set(requests.map((r) => r.actor))).toEqual(new Set(Object.keys(world.actors)));
    const report = await runFuzz(t, requests);
    expect(report.violations).toEqual([]);
    expect(report.fiveHundreds).toBe(0);
    // Not everything is refused: the generator also reaches successful reads and writes.
    const ok = Object.entries(report.statuses)
      .filter(([s]) => Number(s) < 300)
      .reduce((n, [, c]) => n + c, 0);
    expect(ok).toBeGreaterThan(COUNT * 0.1);
  });
});
