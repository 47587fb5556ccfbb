// Where a served process's time goes on one REST read (issue #35 item 2): `forgegraph serve` from the bundle under
// `--cpu-prof`, a repository with labelled and assigned issues and a pull request, autocannon -c 10 on the read for
// `seconds` after a warm-up as long, then the CPU self time per request by source file and by source line, mapped
// through the bundle's source maps (the in-process benches run tsx's output, where every module is one line). The
// profile covers the whole process life: seeding and start-up are in it, a small share of a long enough run.
// Usage: npx tsx bench/servedProfile.ts [issue|repository|pull|issues=issue] [seconds=8] [sqlite|postgresql=sqlite]
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { Profiler } from 'node:inspector';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { printSourceTime } from './cpuProfile.ts';
import { providerArg } from './scratchDb.ts';
import { loadServed, startServed } from './servedProcess.ts';

const PATHS: Record<string, string> = {
  issue: 'api/v1/repos/reader/tracker/issues/3',
  repository: 'api/v1/repos/reader/tracker',
  pull: 'api/v1/repos/reader/tracker/pulls/11',
  issues: 'api/v1/repos/reader/tracker/issues?limit=50',
};
const which = process.argv[2] ?? 'issue';
const url = PATHS[which];
if (!url) throw new Error(`unknown read ${which}: one of ${Object.keys(PATHS).join(', ')}`);
const seconds = Number(process.argv[3] ?? 8);
const provider = providerArg(process.argv[4], 'sqlite');

const dir = mkdtempSync(path.join(tmpdir(), 'served-profile-'));
const served = await startServed({
  provider,
  name: 'served-profile',
  user: 'reader',
  password: 'reader-password-1',
  nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100'],
});
let requests = 0;
try {
  const api = async (method: string, to: string, body: unknown): Promise<{ id: number }> => {
    const res = await fetch(`${served.base}${to}`, {
      method,
      headers: { authorization: served.auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${to}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: number };
  };
  await api('POST', 'api/v1/user/repos', { name: 'tracker', auto_init: true });
  const labels: number[] = [];
  for (const [i, name] of ['bug', 'feature', 'docs'].entries())
    labels.push((await api('POST', 'api/v1/repos/reader/tracker/labels', { name, color: `#00${i}0aa` })).id);
  for (let n = 1; n <= 10; n++)
    await api('POST', 'api/v1/repos/reader/tracker/issues', {
      title: `Issue ${n}`,
      body: `Body ${n}`,
      labels: [labels[n % 3]],
      assignees: ['reader'],
    });
  await api('POST', 'api/v1/repos/reader/tracker/branches', { new_branch_name: 'feature', old_branch_name: 'main' });
  await api('POST', 'api/v1/repos/reader/tracker/contents/feature.txt', {
    content: Buffer.from('feature\n').toString('base64'),
    branch: 'feature',
  });
  await api('POST', 'api/v1/repos/reader/tracker/pulls', { head: 'feature', base: 'main', title: 'A feature' });
  for (let round = 0; round < 2; round++) {
    const { rps } = await loadServed(`${served.base}${url}`, seconds);
    requests += rps * seconds;
    console.log(`GET /${url} (anonymous), round ${round + 1}: ${rps.toFixed(0)} req/s`);
  }
} finally {
  await served.stop();
}
// The server's own profile: the largest file (a re-exec on Node 24 leaves its first start's short one beside it).
const files = readdirSync(dir).map((f) => path.join(dir, f));
const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
if (!largest) throw new Error('the server wrote no profile');
printSourceTime(JSON.parse(readFileSync(largest, 'utf8')) as Profiler.Profile, requests, 'request', 30);
rmSync(dir, { recursive: true, force: true });
