// Reads served by `forgegraph serve` as users run it (a separate process, from the bundle, default settings; the
// in-process benches measure the application, this one the process with its heap policy, src/bin/heapShape.js):
// autocannon -c 10 on the nested GraphQL query of bench/soak.ts (20 issues, their labels and 5 comments with their
// authors) and on GET /api/v1/repos/{o}/{r}/issues/{n}, `rounds` times each, the server's RSS after each round, then
// the RSS once it has been left idle for `settleSeconds`.
// Usage: npx tsx bench/servedReads.ts [seconds=10] [rounds=3] [sqlite|postgresql=sqlite] [settleSeconds=90]
//   SERVED_NODE_FLAGS="--max-semi-space-size=64" adds Node flags to the server (`npm start` adds none).
import { setTimeout as sleep } from 'node:timers/promises';
import { providerArg } from './scratchDb.ts';
import { loadServed, rssMb, startServed } from './servedProcess.ts';

const seconds = Number(process.argv[2] ?? 10);
const rounds = Number(process.argv[3] ?? 3);
const provider = providerArg(process.argv[4], 'sqlite');
const settleSeconds = Number(process.argv[5] ?? 90);
const nodeFlags = (process.env.SERVED_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const ISSUES = 30;
const COMMENTS = 5;

const served = await startServed({ provider, name: 'served-reads', user: 'reader', password: 'reader-password-1', nodeFlags });
const { base, server } = served;
const pid = server.pid!;

async function api(method: string, url: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: served.auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** The server's V8 heap (total and used) and external memory in MB, from its /metrics (prom-client's process metrics). */
async function heapOf(): Promise<string> {
  const text = await (await fetch(`${base}metrics`)).text();
  const mb = (name: string) => (Number(new RegExp(`^forgegraph_${name} (\\S+)`, 'm').exec(text)?.[1]) / 2 ** 20).toFixed(0);
  return `${mb('nodejs_heap_size_total_bytes')} (${mb('nodejs_heap_size_used_bytes')}) | ${mb('nodejs_external_memory_bytes')}`;
}

try {
  await api('POST', 'api/v1/user/repos', { name: 'tracker', auto_init: true });
  for (let n = 1; n <= ISSUES; n++) {
    await api('POST', 'api/v1/repos/reader/tracker/issues', { title: `Issue ${n}`, body: `Body of issue ${n}` });
    for (let c = 1; c <= COMMENTS; c++)
      await api('POST', `api/v1/repos/reader/tracker/issues/${n}/comments`, { body: `Comment ${c} on ${n}` });
  }
  const query = JSON.stringify({
    query:
      '{ repository(owner: "reader", name: "tracker") { issues(first: 20) { nodes { number title labels(first: 5) { nodes { name } } comments(first: 5) { nodes { body author { login } } } } } } }',
  });
  const probe = (await (
    await fetch(`${base}api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: query })
  ).json()) as {
    data?: { repository?: { issues: { nodes: unknown[] } } };
  };
  if (probe.data?.repository?.issues.nodes.length !== 20)
    throw new Error(`the GraphQL query answered ${JSON.stringify(probe).slice(0, 300)}`);
  console.log(
    `node ${process.version} ${nodeFlags.join(' ')} forgegraph serve (${provider}, ready in ${served.readySeconds.toFixed(1)} s); autocannon -c 10 -d ${seconds}, ${rounds} rounds`,
  );
  console.log(`RSS before the load ${rssMb(pid).toFixed(0)} MB`);
  console.log('round | GraphQL req/s | p50 ms | GET issue req/s | p50 ms | RSS MB | V8 heap MB (used) | external MB');
  for (let round = 1; round <= rounds; round++) {
    const graph = await loadServed(`${base}api/graphql`, seconds, ['-m', 'POST', '-H', 'content-type=application/json', '-b', query]);
    const rest = await loadServed(`${base}api/v1/repos/reader/tracker/issues/7`, seconds);
    console.log(
      `${round} | ${graph.rps.toFixed(0)} | ${graph.p50} | ${rest.rps.toFixed(0)} | ${rest.p50} | ${rssMb(pid).toFixed(0)} | ${await heapOf()}`,
    );
  }
  if (settleSeconds > 0) {
    await sleep(settleSeconds * 1000);
    console.log(`RSS after ${settleSeconds} s idle ${rssMb(pid).toFixed(0)} MB; V8 heap (used) | external: ${await heapOf()} MB`);
  }
} finally {
  await served.stop();
}
