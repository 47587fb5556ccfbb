// Throughput of a mixed read/write workload through HAProxy on 1 and on 2 `forgegraph serve` instances sharing
// one PostgreSQL database and data directory (test/helpers/cluster.ts). On a 2-core machine the point is that a
// second instance costs nothing in correctness or throughput, not a speed-up.
// Workload per operation: 70 % GET one issue, 10 % GET the issue list, 20 % POST a new issue.
// Usage: TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/scaleOut.ts [seconds=15] [connections=16]
import { basic } from '../test/helpers/app.ts';
import { startCluster, type Cluster } from '../test/helpers/cluster.ts';

const seconds = Number(process.argv[2] ?? 15);
const connections = Number(process.argv[3] ?? 16);
const AUTH = basic('alice');
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };

interface Figures {
  instances: number;
  ops: number;
  perSecond: number;
  writes: number;
  errors: number;
  p50: number;
  p99: number;
  servedBy: Record<string, number>;
}

async function run(n: number): Promise<Figures> {
  const c: Cluster = await startCluster(n, { LOG_LEVEL: 'error' });
  try {
    const created = await c.fetch('api/v1/user/repos', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: 'bench' }) });
    if (created.status !== 201) throw new Error(`repository: ${created.status}`);
    let issues = 0;
    for (let i = 0; i < 20; i++) {
      const r = await c.fetch('api/v1/repos/alice/bench/issues', {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ title: `seed ${i}` }),
      });
      if (r.status === 201) issues++;
    }
    c.servedBy.clear();
    const latencies: number[] = [];
    let writes = 0;
    let errors = 0;
    const end = Date.now() + seconds * 1000;
    const worker = async () => {
      while (Date.now() < end) {
        const roll = Math.random();
        const started = performance.now();
        let res: Response;
        if (roll < 0.7) res = await c.fetch(`api/v1/repos/alice/bench/issues/${1 + Math.floor(Math.random() * issues)}`, { headers: AUTH });
        else if (roll < 0.8) res = await c.fetch('api/v1/repos/alice/bench/issues?limit=20', { headers: AUTH });
        else {
          res = await c.fetch('api/v1/repos/alice/bench/issues', {
            method: 'POST',
            headers: JSON_AUTH,
            body: JSON.stringify({ title: 'load' }),
          });
          if (res.status === 201) writes++;
        }
        await res.arrayBuffer();
        if (res.status >= 300) errors++;
        latencies.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: connections }, worker));
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
    return {
      instances: n,
      ops: latencies.length,
      perSecond: Math.round((latencies.length / seconds) * 10) / 10,
      writes,
      errors,
      p50: at(0.5),
      p99: at(0.99),
      servedBy: Object.fromEntries(c.servedBy),
    };
  } finally {
    await c.close();
  }
}

const results: Figures[] = [];
for (const n of [1, 2]) results.push(await run(n));
console.log(`mixed workload (70% GET issue, 10% GET list, 20% POST issue), ${connections} connections, ${seconds}s, through HAProxy:`);
for (const r of results) {
  console.log(
    `  ${r.instances} instance(s): ${r.perSecond} ops/s (${r.ops} ops, ${r.writes} writes, ${r.errors} errors), p50 ${r.p50} ms, p99 ${r.p99} ms, served by ${JSON.stringify(r.servedBy)}`,
  );
}
